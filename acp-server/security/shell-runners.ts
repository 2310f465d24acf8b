// Programs that run another command named in their arguments: environment managers (`uv run`,
// `poetry run`, `bundle exec`, `mise exec --`), secret injectors (`op run --`, `doppler run
// --`, `aws-vault exec PROFILE --`), user switchers (`gosu USER`, `su-exec`, `run0`),
// resource and tracing shims (`prlimit`, `cgexec`, `numactl`, `eatmydata`, `rlwrap`), init
// shims (`tini --`, `dumb-init`), terminals (`xterm -e`, `gnome-terminal --`) and
// multiplexers (`tmux new 'CMD'`, `screen -dm CMD`).
//
// Their options are too many, and change too often between versions, to model one by one. So
// the screen does not guess where the command starts: every word after the subcommand that
// could start it is tried, and each suffix is screened as a command of its own. The real
// command is one of them, so what it does is seen (fail closed); the others are the runner's
// option values (`3.12`, a profile name), which are harmless as command names.

/** Runners whose command follows their options directly: `tini -- CMD`, `gosu USER CMD`. */
const DIRECT = new Set([
  "cross-env", "cross-env-shell", "dotenv", "env-cmd", "tini", "dumb-init", "eatmydata", "nocache", "rlwrap", "numactl", "cpulimit",
  "trickle", "proot", "fakechroot", "daemonize", "ssh-agent", "dbus-launch", "linux32", "linux64", "i386", "x86_64", "setarch",
  "gosu", "su-exec", "chpst", "run0", "prlimit", "cgexec", "sem", "tsp", "nq", "chronic", "entr", "bwrap", "flatpak-spawn",
  "xterm", "uxterm", "gnome-terminal", "konsole", "kitty", "alacritty", "foot", "terminator", "tilix", "xfce4-terminal", "urxvt",
  "screen", "uvx", "pipx", "summon", "envchain", "with-contenv", "s6-setuidgid", "setuidgid", "sudo-rs", "please", "ts",
]);

/** Runners whose command follows a subcommand: `uv run CMD`, `uv tool run CMD`, `bundle exec CMD`. */
const AFTER_SUBCOMMAND: Record<string, string[][]> = {
  uv: [["run"], ["tool", "run"]],
  poetry: [["run"]],
  pipenv: [["run"]],
  pdm: [["run"]],
  hatch: [["run"], ["env", "run"]],
  rye: [["run"]],
  conda: [["run"]],
  mamba: [["run"]],
  micromamba: [["run"]],
  pixi: [["run"], ["exec"]],
  bundle: [["exec"]],
  bundler: [["exec"]],
  npm: [["exec"], ["x"]],
  pnpm: [["exec"], ["dlx"]],
  yarn: [["exec"], ["dlx"]],
  bun: [["x"], ["exec"]],
  mise: [["exec"], ["x"]],
  rtx: [["exec"], ["x"]],
  asdf: [["exec"]],
  rbenv: [["exec"]],
  pyenv: [["exec"]],
  nodenv: [["exec"]],
  goenv: [["exec"]],
  fnm: [["exec"]],
  volta: [["run"]],
  nvm: [["exec"], ["run"]],
  "aws-vault": [["exec"]],
  op: [["run"]],
  doppler: [["run"]],
  infisical: [["run"]],
  dotenvx: [["run"]],
  teller: [["run"]],
  chamber: [["exec"]],
  berglas: [["exec"]],
  sops: [["exec-env"], ["exec-file"]],
  direnv: [["exec"]],
  nix: [["develop"], ["shell"]],
  devbox: [["run"]],
  distrobox: [["enter"]],
  toolbox: [["run"]],
  tmux: [["new"], ["new-session"], ["new-window"], ["neww"], ["split-window"], ["splitw"], ["respawn-pane"], ["respawn-window"], ["run-shell"], ["run"], ["if-shell"], ["display-popup"], ["popup"]],
};

/** Options whose value is a shell script: `nix-shell --run 'CMD'`. */
export const SCRIPT_OPTIONS: Record<string, string[]> = { "nix-shell": ["--run", "--command"] };

/** Runners that type keys into a shell or run code in a language of their own: what runs is never known statically. */
export const OPAQUE_RUNNERS: Record<string, RegExp> = {
  tmux: /^(send-keys|send|pipe-pane|pipep|source-file|source|command-prompt)$/,
  screen: /^(-X|-S.*-X)$/,
  expect: /^(-c|-f|-)$|\.exp$/,
  "nix-shell": /^(-p|--packages|--expr|-E)$/,
};

const MAX_CANDIDATES = 8;

/**
 * Where the candidates for the command a runner starts begin (index into `words`), or
 * undefined when `name` is not a runner or this invocation runs nothing (`uv pip list`).
 */
export function runnerCommandStart(name: string, words: readonly string[], k: number): number | undefined {
  if (DIRECT.has(name)) return k + 1;
  const subs = AFTER_SUBCOMMAND[name];
  if (!subs) return undefined;
  // The subcommand comes after global options, some with a value (`tmux -L sock new …`): the
  // first few words are searched. A match in the wrong place only adds candidates (fail closed).
  for (let i = k + 1; i < Math.min(words.length, k + 6); i++) {
    const sub = subs.find((parts) => parts.every((part, j) => words[i + j] === part));
    if (sub) return i + sub.length;
  }
  return undefined;
}

/** The indices at which the runner's command may begin: every word that is not an option, at most a few. */
export function runnerCandidates(words: readonly string[], from: number): number[] {
  const out: number[] = [];
  for (let j = from; j < words.length && out.length < MAX_CANDIDATES; j++) {
    const word = words[j] ?? "";
    if (word === "--" || (word.startsWith("-") && word.length > 1)) continue;
    out.push(j);
  }
  return out;
}

/** `tmux new 'rm -rf ~'`: the multiplexer hands a single word to `sh -c`. */
export const RUNS_WORD_AS_SCRIPT = new Set(["tmux", "screen", "xterm", "uxterm", "konsole", "urxvt", "terminator", "xfce4-terminal"]);
