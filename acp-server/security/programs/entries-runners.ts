// Programs that run another command: privilege switchers, prefixes (`nice`, `timeout`,
// `xargs`), environment managers (`uv run`), secret injectors (`op run --`), terminals and
// multiplexers. `wrapper`: shell-wrappers.ts unwraps them to the real command; `runner`:
// shell-runners.ts tries every word that may start the command.
import type { ProgramEntry } from "./program-entry";

const OPTIONS = { kind: "options" } as const;
const OPERAND = { kind: "operand" } as const;
const DIRECT = { direct: true } as const;
const RUN = { after: [["run"]] } as const;
const EXEC = { after: [["exec"]] } as const;
const EXEC_X = { after: [["exec"], ["x"]] } as const;

export const RUNNER_ENTRIES: ProgramEntry[] = [
  // Root privileges (the rule key the screen reports is `escalates`).
  { names: ["sudo"], escalates: "sudo", traits: ["hides-effects", "stdin-shell"], wrapper: OPTIONS, valueOptions: ["-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-T", "-R", "--user", "--group", "--prompt", "--chdir", "--role", "--type", "--other-user", "--close-from", "--host", "--command-timeout", "--chroot"], folderOptions: ["-D", "--chdir"] },
  { names: ["doas"], escalates: "doas", traits: ["hides-effects", "stdin-shell"], wrapper: OPTIONS, valueOptions: ["-u", "-C"] },
  { names: ["pkexec"], escalates: "pkexec", traits: ["hides-effects", "stdin-shell"], wrapper: OPTIONS, valueOptions: ["--user"] },
  { names: ["su"], escalates: "su", traits: ["hides-effects", "stdin-shell"] },
  { names: ["runuser"], escalates: "runuser", traits: ["hides-effects", "stdin-shell"], wrapper: OPTIONS, valueOptions: ["-u", "-g", "-G", "--user", "--group", "--supp-group", "-w", "--whitelist-environment"], folderOptions: [] },
  { names: ["systemd-run"], escalates: "systemd-run", traits: ["hides-effects"], wrapper: OPTIONS, valueOptions: ["-u", "--unit", "-p", "--property", "-E", "--setenv", "--description", "--slice", "-M", "--machine", "-H", "--host", "--uid", "--gid", "--working-directory", "--on-calendar", "--on-active"], folderOptions: ["--working-directory"] },
  { names: ["nsenter"], escalates: "nsenter", traits: ["hides-effects"], wrapper: OPTIONS, valueOptions: ["-t", "--target", "-S", "--setuid", "-G", "--setgid"], folderOptions: ["-w", "--wd"] },
  { names: ["run0"], escalates: "run0", runner: DIRECT },
  { names: ["sudo-rs"], escalates: "sudo", traits: ["hides-effects"], runner: DIRECT },
  { names: ["please"], escalates: "please", runner: DIRECT },
  { names: ["gosu"], escalates: "gosu", runner: DIRECT },
  { names: ["su-exec"], escalates: "su-exec", traits: ["hides-effects"], runner: DIRECT },
  { names: ["chpst"], escalates: "chpst", runner: DIRECT },
  { names: ["s6-setuidgid", "setuidgid"], escalates: "setuidgid", runner: DIRECT },
  // Prefixes whose options are skipped; the first operand is the command.
  { names: ["nice"], traits: ["o-is-not-output"], wrapper: OPTIONS, valueOptions: ["-n", "--adjustment"] },
  { names: ["time"], wrapper: OPTIONS, valueOptions: ["-f", "-o", "--format", "--output"] },
  { names: ["ionice"], wrapper: OPTIONS, valueOptions: ["-c", "-n", "-p", "-P", "-u", "--class", "--classdata"] },
  { names: ["stdbuf"], wrapper: OPTIONS, valueOptions: ["-i", "-o", "-e", "--input", "--output", "--error"] },
  { names: ["exec"], wrapper: OPTIONS, valueOptions: ["-a"] },
  { names: ["nohup", "builtin", "setsid", "unbuffer", "busybox", "toybox", "firejail", "catchsegv", "valgrind"], wrapper: OPTIONS },
  { names: ["unshare"], traits: ["hides-effects"], wrapper: OPTIONS, valueOptions: ["--map-user", "--map-group", "--setgroups", "-S", "-G", "--setuid", "--setgid", "-R", "--root", "-w", "--wd", "--propagation", "--kill-child"], folderOptions: ["-w", "--wd"] },
  { names: ["setpriv"], wrapper: OPTIONS, valueOptions: ["--reuid", "--regid", "--groups", "--inh-caps", "--ambient-caps", "--bounding-set", "--securebits", "--selinux-label", "--apparmor-profile", "--pdeathsig"] },
  { names: ["strace"], traits: ["hides-effects"], wrapper: OPTIONS, valueOptions: ["-o", "-e", "-p", "-s", "-u", "-P", "-a", "-E", "-I", "-b", "-X", "-U", "-S", "-O"] },
  { names: ["ltrace"], traits: ["hides-effects"], wrapper: OPTIONS, valueOptions: ["-o", "-e", "-p", "-s", "-u", "-n", "-a", "-A", "-D", "-F", "-l", "-L", "-w", "-x"] },
  { names: ["fakeroot"], wrapper: OPTIONS, valueOptions: ["-l", "--lib", "--faked", "-s", "-i"] },
  { names: ["caffeinate"], wrapper: OPTIONS, valueOptions: ["-t", "-w"] },
  { names: ["xvfb-run"], wrapper: OPTIONS, valueOptions: ["-n", "-s", "-f", "-e", "-p", "--server-num", "--server-args", "--auth-file", "--error-file"] },
  { names: ["torsocks"], wrapper: OPTIONS, valueOptions: ["-u", "-p", "-a", "-P"] },
  { names: ["proxychains", "proxychains4"], wrapper: OPTIONS, valueOptions: ["-f"] },
  { names: ["dbus-run-session"], wrapper: OPTIONS, valueOptions: ["--config-file", "--dbus-daemon"] },
  // Prefixes that take one operand (a root, a mask, a lock file) before the command.
  { names: ["chroot"], traits: ["hides-effects"], wrapper: OPERAND, valueOptions: ["--userspec", "--groups"] },
  { names: ["taskset", "sg"], wrapper: OPERAND },
  { names: ["chrt"], wrapper: OPERAND, valueOptions: ["-T", "-P", "-D"] },
  { names: ["flock"], traits: ["hides-effects"], wrapper: OPERAND, valueOptions: ["-w", "--timeout", "-E", "--conflict-exit-code"] },
  { names: ["timeout"], wrapper: OPERAND, valueOptions: ["-s", "-k", "--signal", "--kill-after"] },
  { names: ["faketime"], wrapper: OPERAND, valueOptions: ["-m", "-f", "--exclude-monotonic"] },
  { names: ["xargs"], traits: ["hides-effects", "o-is-not-output"], wrapper: { kind: "per-input" }, valueOptions: ["-I", "-i", "-n", "-P", "-L", "-l", "-d", "-E", "-e", "-s", "-a", "--max-args", "--max-procs", "--max-lines", "--delimiter", "--eof", "--max-chars", "--arg-file", "--replace", "--process-slot-var"] },
  { names: ["command"], wrapper: { kind: "builtin-lookup" } },
  // `script -c CMD FILE` runs CMD in a pseudo-terminal (shell-wrappers.ts reads its -c).
  { names: ["script"] },
  { names: ["watch"], traits: ["hides-effects"], valueOptions: ["-n", "--interval", "-q", "--equexit", "-s", "--shotsdir"] },
  { names: ["parallel", "rush", "xe"], traits: ["runs-templates"] },
  // Runners whose command follows their own options.
  { names: ["entr"], traits: ["runs-templates"], runner: DIRECT },
  { names: ["cross-env"], traits: ["well-known-bin"], runner: DIRECT },
  { names: ["cross-env-shell", "dotenv", "env-cmd", "tini", "dumb-init", "eatmydata", "nocache", "rlwrap", "numactl", "cpulimit", "trickle", "proot", "fakechroot", "daemonize", "dbus-launch", "linux32", "linux64", "i386", "x86_64", "setarch", "prlimit", "cgexec", "sem", "tsp", "nq", "chronic", "bwrap", "flatpak-spawn", "gnome-terminal", "kitty", "alacritty", "foot", "tilix", "uvx", "envchain", "with-contenv", "ts"], runner: DIRECT },
  { names: ["pipx"], runner: DIRECT, installsGlobally: /^(install|inject|upgrade|run)(\s|$)/ },
  // A runner that holds keys or secrets for the command it starts: plan mode does not look through it.
  { names: ["ssh-agent", "summon"], traits: ["hides-effects"], runner: DIRECT },
  // Terminals that hand one word to `sh -c`.
  { names: ["xterm", "uxterm", "konsole", "terminator", "xfce4-terminal", "urxvt"], runner: { direct: true, wordIsScript: true } },
  { names: ["screen"], runner: { direct: true, wordIsScript: true, opaque: /^(-X|-S.*-X)$/ } },
  { names: ["tmux"], runner: { after: [["new"], ["new-session"], ["new-window"], ["neww"], ["split-window"], ["splitw"], ["respawn-pane"], ["respawn-window"], ["run-shell"], ["run"], ["if-shell"], ["display-popup"], ["popup"]], wordIsScript: true, opaque: /^(send-keys|send|pipe-pane|pipep|source-file|source|command-prompt)$/ } },
  // Runners whose command follows a subcommand.
  { names: ["uv"], runner: { after: [["run"], ["tool", "run"]] }, installsGlobally: /^tool (install|run)(\s|$)/ },
  { names: ["pipenv", "pdm", "rye", "conda", "mamba", "micromamba", "volta", "devbox", "toolbox", "dotenvx", "teller"], runner: RUN },
  { names: ["hatch"], runner: { after: [["run"], ["env", "run"]] } },
  { names: ["pixi"], runner: { after: [["run"], ["exec"]] } },
  { names: ["bundle", "bundler", "asdf", "rbenv", "pyenv", "nodenv", "goenv", "fnm", "aws-vault", "berglas", "direnv"], runner: EXEC },
  { names: ["mise", "rtx"], runner: EXEC_X },
  { names: ["nvm"], runner: { after: [["exec"], ["run"]] } },
  { names: ["op"], runner: RUN, printsSecret: /^(read|item get|document get)/ },
  { names: ["doppler"], runner: RUN, printsSecret: /^secrets( get| download|$)/ },
  { names: ["infisical"], runner: RUN, printsSecret: /^(secrets|export)/ },
  { names: ["chamber"], runner: EXEC, printsSecret: /^(read|export|env)/ },
  { names: ["sops"], runner: { after: [["exec-env"], ["exec-file"]] }, printsSecret: /^(-d|--decrypt|decrypt)/ },
  { names: ["nix"], runner: { after: [["develop"], ["shell"]] } },
  { names: ["distrobox"], runner: { after: [["enter"]] } },
  { names: ["nix-shell"], runner: { scriptOptions: ["--run", "--command"], opaque: /^(-p|--packages|--expr|-E)$/ } },
];
