// Command-screen rules for places a command writes that an option or a subcommand names,
// rather than an operand or a redirection: extraction and download folders (`tar -C`,
// `unzip -d`, `curl --output-dir`, `wget -P`), install prefixes (`pip --target`, `npm
// --prefix`), clone and init destinations, `python -m venv DIR`; programs installed onto your
// PATH outside the workspace (`npm i -g`, `cargo install`, …); host daemons reached through a
// unix socket (`curl --unix-socket`, `nc -U`, `docker -H`); and bash builtins that swap a
// command for the rest of the line (`hash -p`, `enable -f`). Each target goes through the
// Screen's `write`, so Hermes's state is refused and anything outside the workspace asks.
import type { SimpleCommand } from "./shell-parse";
import type { Screen } from "./screen-rule";
import { programEntry } from "./programs/registry";
import { NETCATS } from "./programs/tables";

export function checkWriteTargets(s: Screen, cmd: SimpleCommand): void {
  const { program: p, args } = cmd;
  const entry = programEntry(p);
  const dirs = entry?.writesIntoOption;
  // tar's -C is where it reads from when it creates an archive, where it writes when it extracts.
  const extracting = !dirs?.onlyWhenExtracting || /^[A-Za-z]*x[A-Za-z]*$/.test(args[0] ?? "") || args.some((a) => a === "--extract" || a === "--get" || /^-[A-Za-z]*x[A-Za-z]*$/.test(a));
  if (dirs && extracting) {
    args.forEach((a, i) => {
      const next = args[i + 1];
      if (dirs.short.includes(a) || dirs.long.includes(a)) {
        if (next !== undefined) s.write(next, `${p} ${a}`);
        return;
      }
      const long = dirs.long.find((l) => a.startsWith(`${l}=`));
      if (long) s.write(a.slice(long.length + 1), `${p} ${long}`);
      else if (dirs.short.some((f) => a.length > 2 && a.startsWith(f))) s.write(a.slice(2), `${p} ${a.slice(0, 2)}`);
    });
  }
  if (p === "7z" || p === "7za") for (const a of args) if (/^-o./.test(a)) s.write(a.slice(2), `${p} -o`);
  checkCreatedFolders(s, cmd);
  if (entry?.installsGlobally?.test(args.join(" "))) {
    s.add("dangerous", "install-global", `${p} ${args.slice(0, 2).join(" ")} installs a program onto your PATH, outside the workspace, where it runs later unsandboxed`);
  }
  checkHostSockets(s, cmd);
  if (p === "hash" && args.some((a) => /^-[A-Za-z]*p/.test(a))) s.unresolved("hash-p", "`hash -p` makes a command name run another program for the rest of the line");
  if (p === "enable" && args.some((a) => /^-[A-Za-z]*f/.test(a))) s.unresolved("enable-f", "`enable -f` loads a shared library into the shell as a builtin");
  if ((p === "gdb" || p === "lldb" || p === "cgdb") && args.some((a) => /^(-{1,2}(ex|x|iex|ix|eval-command|command|init-eval-command|init-command|batch-silent|source|one-line)|-[oOsS])(=|$)/.test(a))) {
    s.unresolved("debugger-script", `${p} runs debugger commands (which include \`shell\` and Python) given on its command line or in a file`);
  }
}

/** `git clone URL DIR`, `git init DIR`, `python -m venv DIR`, `virtualenv DIR`: the folder is created and written. */
function checkCreatedFolders(s: Screen, cmd: SimpleCommand): void {
  const { program: p, args } = cmd;
  const operands = (from: string[]) => from.filter((a, i) => !a.startsWith("-") && !/^(-c|--config|--template|-b|--branch|-o|--origin|--depth|--reference|--separate-git-dir|-u|--upload-pack|--filter|--jobs|-j)$/.test(from[i - 1] ?? ""));
  if (p === "git") {
    const at = args.findIndex((a) => a === "clone" || a === "init");
    if (at < 0) return;
    const rest = operands(args.slice(at + 1));
    const dest = args[at] === "clone" ? rest[1] : rest[0];
    if (dest !== undefined) s.write(dest, `git ${args[at]}`);
    return;
  }
  if (/^python[\d.]*$/.test(p) && args[0] === "-m" && (args[1] === "venv" || args[1] === "virtualenv")) {
    for (const dir of operands(args.slice(2))) s.write(dir, `${p} -m ${args[1]}`);
  }
  if (p === "virtualenv" || p === "uv" && args[0] === "venv") for (const dir of operands(p === "uv" ? args.slice(1) : args)) s.write(dir, p);
}

/** A host daemon's unix socket (docker.sock is root on the host) or a daemon named by address. */
function checkHostSockets(s: Screen, cmd: SimpleCommand): void {
  const { program: p, args } = cmd;
  const socket = (how: string, where: string) => s.add("dangerous", "host-socket", `${how} talks to ${where}, a local service outside the workspace (a docker socket is root on the host)`);
  args.forEach((a, i) => {
    if (p === "curl" && (a === "--unix-socket" || a === "--abstract-unix-socket")) socket("curl --unix-socket", args[i + 1] ?? "a socket");
    else if (p === "curl" && /^--(abstract-)?unix-socket=/.test(a)) socket("curl --unix-socket", a.slice(a.indexOf("=") + 1));
    else if (p === "socat" && /^(ABSTRACT-|UNIX-)(CONNECT|CLIENT|SENDTO)?:|^UNIX:/i.test(a)) socket("socat", a);
    else if ((p === "docker" || p === "podman") && (a === "-H" || a === "--host" || a === "--url")) socket(`${p} ${a}`, args[i + 1] ?? "a daemon");
    else if ((p === "docker" || p === "podman") && /^(--host|--url|-H)=?./.test(a) && !/^-H$/.test(a)) socket(`${p} --host`, a.replace(/^(--host|--url|-H)=?/, ""));
  });
  if (NETCATS.has(p) && args.some((a) => /^-[A-Za-z]*U/.test(a) || a === "--unixsock")) socket(p, "a unix socket");
  for (const assignment of cmd.assignments) {
    if (/^(DOCKER_HOST|CONTAINER_HOST|PODMAN_HOST|DBUS_SESSION_BUS_ADDRESS|DBUS_SYSTEM_BUS_ADDRESS)=/.test(assignment)) socket(assignment.slice(0, assignment.indexOf("=")), assignment.slice(assignment.indexOf("=") + 1));
  }
}
