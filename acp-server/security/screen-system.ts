// Command-screen rules that threaten the machine as a whole: formatting disks (`mkfs`,
// `wipefs`), killing every process (`kill -1`), shutting down or rebooting, and recursive
// `chmod`/`chown`/`chgrp` over system locations or world-writable modes.
import type { SimpleCommand } from "./shell-parse";
import { SYSTEM_DIRS, isWithin } from "./screen-paths";
import { firstSubcommand, shortFlags, type Screen } from "./screen-rule";

/** `mkfs.ext4` and friends: the formatter named by its filesystem. */
export function checkMkfsVariant(s: Screen, p: string): void {
  if (/^mkfs\../.test(p)) s.add("hardline", "mkfs", `${p} formats a disk partition, destroying everything on it`);
}

export function checkFormat(s: Screen, p: string): void {
  s.add("hardline", "mkfs", `${p} formats or wipes a disk, destroying everything on it`);
}

export function checkKill(s: Screen, args: string[]): void {
  if (args.length === 1 && args[0] === "-1") {
    s.add("hardline", "kill-all-processes", "kill -1 targets every process you can signal");
    return;
  }
  let k = 0;
  if (args[0] === "-s" || args[0] === "-n") k = 2;
  else if (args[0] !== undefined && args[0].startsWith("-") && args[0] !== "--" && args.length > 1) k = 1;
  for (; k < args.length; k++) {
    if (args[k] === "--") continue;
    if (args[k] === "-1") s.add("hardline", "kill-all-processes", "kill with pid -1 signals every process you can reach, killing your session and the machine's services");
  }
}

/** `shutdown`, `reboot`, `halt`, `poweroff`, `init 0|6`, `systemctl poweroff|reboot|...`. */
export function checkShutdown(s: Screen, p: string, args: string[]): void {
  if (p === "init" || p === "telinit") {
    if (args[0] === "0" || args[0] === "6") s.add("hardline", "shutdown", `${p} ${args[0]} shuts down or restarts the machine`);
  } else if (p === "systemctl") {
    const { sub } = firstSubcommand(args, new Set(["-H", "-M", "--host", "--machine", "-t", "--type", "-p", "--property", "-s", "--signal"]));
    if (sub && ["poweroff", "reboot", "halt", "kexec", "soft-reboot"].includes(sub)) s.add("hardline", "shutdown", `systemctl ${sub} shuts down or restarts the machine`);
  } else if (!args.some((a) => a === "-c" || a === "--help" || a === "--cancel")) {
    s.add("hardline", "shutdown", `${p} shuts down or restarts the machine`);
  }
}

function worldWritableMode(mode: string): boolean {
  if (/^[0-7]{3,4}$/.test(mode)) return ["2", "3", "6", "7"].includes(mode[mode.length - 1]);
  return mode.split(",").some((clause) => {
    const m = /^([ugoa]*)([+=])([rwxXst]*)$/.exec(clause);
    if (!m) return false;
    const who = m[1];
    return m[3].includes("w") && (who.includes("a") || who.includes("o"));
  });
}

export function checkPermissions(s: Screen, cmd: SimpleCommand): void {
  const { short, long, operands } = shortFlags(cmd.args);
  // chmod modes like -w or -x look like flags; recursion is the capital R only.
  if (!(short.includes("R") || long.includes("--recursive"))) return;
  const [spec, ...targets] = operands;
  if (cmd.program === "chmod" && spec !== undefined && worldWritableMode(spec)) {
    s.add("dangerous", "chmod-777-recursive", `chmod -R ${spec} makes every file under ${targets.join(" ") || "the target"} writable by anyone`);
  }
  for (const t of targets) {
    const abs = s.abs(t);
    const inHome = isWithin(abs, s.st.home);
    if (abs === "/" || (isWithin(s.st.home, abs) && abs !== s.st.home) || (!inHome && SYSTEM_DIRS.some((d) => isWithin(abs, d)))) {
      s.add("dangerous", `${cmd.program}-recursive-system`, `${cmd.program} -R changes ownership or permissions throughout ${s.show(abs)}, a system location`);
    }
  }
}
