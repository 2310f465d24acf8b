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

import { programEntry } from "./programs/registry";

const MAX_CANDIDATES = 8;

/**
 * Where the candidates for the command a runner starts begin (index into `words`), or
 * undefined when `name` is not a runner or this invocation runs nothing (`uv pip list`).
 */
export function runnerCommandStart(name: string, words: readonly string[], k: number): number | undefined {
  const runner = programEntry(name)?.runner;
  if (runner?.direct) return k + 1;
  const subs = runner?.after;
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
