// Command-screen rules that threaten the machine as a whole: formatting disks (`mkfs`,
// `wipefs`), killing every process (`kill -1`), shutting down or rebooting, and recursive
// `chmod`/`chown`/`chgrp` over system locations or world-writable modes.
import type { SimpleCommand } from "./shell-parse";
import { SYSTEM_DIRS, isWithin } from "./screen-paths";
import { firstSubcommand, shortFlags, type Screen } from "./screen-rule";
import type { ScreenRule } from "./programs/program-entry";
import { subcommandsWith, valueOptionsOf } from "./programs/tables";

/** `mkfs.ext4` and friends: the formatter named by its filesystem. */
export function checkMkfsVariant(s: Screen, p: string): void {
  if (/^mkfs\../i.test(p)) s.add("hardline", "mkfs", `${p} formats a disk partition, destroying everything on it`);
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

// registry-scan: systemd unit names (poweroff.target), not programs.
const POWER_TARGETS = /^(poweroff|reboot|halt|kexec|rescue|emergency|suspend|hibernate|hybrid-sleep|suspend-then-hibernate|sleep|shutdown|soft-reboot)(\.target)?$/;

/** `shutdown`, `reboot`, `halt`, `poweroff`, `init 0|1|6`, `systemctl`/`loginctl` power actions, suspend tools. */
export function checkShutdown(s: Screen, p: string, args: string[]): void {
  if (p === "init" || p === "telinit") {
    if (["0", "1", "6", "s", "S", "single"].includes(args[0] ?? "")) s.add("hardline", "shutdown", `${p} ${args[0]} shuts down, restarts or isolates the machine`);
  } else if (p === "systemctl" || p === "loginctl") {
    const { sub, rest } = firstSubcommand(args, valueOptionsOf(p));
    if (sub && subcommandsWith(p, "power").has(sub)) s.add("hardline", "shutdown", `${p} ${sub} shuts down, suspends or isolates the machine`);
    else if (p === "systemctl" && sub && ["start", "restart", "reload-or-restart", "try-restart"].includes(sub) && rest.some((u) => POWER_TARGETS.test(u))) {
      s.add("hardline", "shutdown", `systemctl ${sub} ${rest.join(" ")} shuts down, suspends or isolates the machine`);
    } else if (p === "loginctl" && sub && ["terminate-session", "terminate-user", "kill-session", "kill-user", "terminate-seat"].includes(sub)) {
      s.add("hardline", "kill-all-processes", `loginctl ${sub} ends a whole login session, with every process in it`);
    } else if (p === "systemctl" && sub && ["stop", "kill", "mask", "disable"].includes(sub)) {
      s.add("dangerous", "systemctl-stop", `systemctl ${sub} stops or disables a system service`);
    }
  } else if (p === "rtcwake" || p === "pm-suspend" || p === "pm-hibernate") {
    s.add("hardline", "shutdown", `${p} suspends the machine`);
  } else if (!args.some((a) => a === "-c" || a === "--help" || a === "--cancel")) {
    s.add("hardline", "shutdown", `${p} shuts down or restarts the machine`);
  }
}

/** `killall5`, `pkill -u me`, `killall -u me`: everything a user runs; `pkill`/`killall NAME` ask. */
export function checkKillByName(s: Screen, p: string, args: string[]): void {
  if (p === "killall5") {
    s.add("hardline", "kill-all-processes", "killall5 signals every process on the machine");
    return;
  }
  const withArg = valueOptionsOf(p);
  const operands: string[] = [];
  let byOwner = false;
  for (let k = 0; k < args.length; k++) {
    const a = args[k]!; // k < args.length
    if (a === "--") {
      operands.push(...args.slice(k + 1));
      break;
    }
    if (/^(-u|-U|-G|-g|--user|--uid|--group)$/.test(a) || /^(-u|-U|-G|-g).+|^--(user|uid|group)=/.test(a)) byOwner = true;
    if (a.startsWith("-")) {
      if (withArg.has(a)) k++;
      continue;
    }
    operands.push(a);
  }
  const matchesAll = operands.length === 0 || operands.some((o) => /^(\.\*?|\^|\.\+|\*|)$/.test(o));
  if (byOwner && matchesAll) s.add("hardline", "kill-all-processes", `${p} with a user and no name kills every process of that user, Hermes and the editor included`);
  else if (p === "pkill" && operands.some((o) => /^(\.\*?|\^|\.\+|\*|)$/.test(o))) s.add("hardline", "kill-all-processes", `${p} ${operands.join(" ")} matches every process`);
  else s.add("dangerous", p, `${p} kills every process whose name matches ${operands.join(" ") || "its pattern"}, not one known process`);
}

/** Partitioning, discarding and secure-erase tools: hardline unless they only list. `rule` is the program's registry rule. */
export function checkDiskTool(s: Screen, rule: ScreenRule, p: string, args: string[]): void {
  const listing = (flags: RegExp) => args.some((a) => flags.test(a)) && args.every((a) => flags.test(a) || a.startsWith("/dev/"));
  const verb = args[0] ?? "";
  switch (rule) {
    case "disk-discard":
      s.add("hardline", "mkfs", `${p} discards or erases a whole disk`);
      return;
    case "erase-subcommand":
      // nvme has many subcommands; these erase.
      if (["format", "sanitize", "write-zeroes", "dsm", "write", "ns-rescan", "delete-ns"].includes(verb)) s.add("hardline", "mkfs", `${p} ${verb} discards or erases a whole disk`);
      return;
    case "signature-wipe":
      if (args.some((a) => /^-[a-zA-Z]*[ao]|^--(all|offset)/.test(a))) s.add("hardline", "mkfs", "wipefs erases a disk's filesystem signatures, making its data unreachable");
      else s.add("dangerous", "disk-tool", "wipefs inspects disk signatures (and can erase them)");
      return;
    case "partition":
      if (listing(/^(-l|--list|-s|--show-size|-d|--dump|-p|--print|-v|--verify|-i|--info|print|unit|s|B|MB|GB|-m|--machine)$/)) s.add("dangerous", "disk-tool", `${p} reads a disk's partition table (as root it can also rewrite it)`);
      else s.add("hardline", "partition-disk", `${p} rewrites a disk's partition table, which can make all its data unreachable`);
      return;
    case "disk-settings":
      if (args.some((a) => /^--(security-erase|security-erase-enhanced|security-set-pass|security-unlock|trim-sector-ranges|write-sector|make-bad-sector|dco-restore|dco-setmax|fwdownload|yes-i-know-what-i-am-doing)/.test(a))) {
        s.add("hardline", "disk-erase", "hdparm's security-erase / sector-write options destroy a disk's data");
      } else s.add("dangerous", "disk-tool", "hdparm changes low-level disk settings");
      return;
    case "encrypted-disk":
      if (["luksFormat", "erase", "luksErase", "reencrypt", "luksKillSlot", "luksRemoveKey"].includes(args.find((a) => !a.startsWith("-")) ?? "")) s.add("hardline", "disk-erase", "cryptsetup reformats or erases an encrypted disk's keys, making its data unreachable");
      return;
    case "disk-surface-test":
      if (args.some((a) => /^-[a-zA-Z]*w/.test(a))) s.add("hardline", "disk-erase", "badblocks -w overwrites the whole disk");
      return;
    case "raid-metadata":
      if (args.some((a) => a === "--zero-superblock" || a === "--create" || a === "-C")) s.add("hardline", "disk-erase", "mdadm rewrites RAID metadata on disks");
      return;
    case "storage-destroy": {
      // zpool and zfs say what they do in a verb; lvremove and friends only remove.
      const destroys = /^z/.test(p) ? ["destroy", "labelclear"].includes(verb) && (p !== "zfs" || verb === "destroy") : true;
      if (destroys) s.add("hardline", "disk-erase", `${p} ${p.startsWith("z") ? verb : ""} destroys a storage volume and its data`);
      return;
    }
    case "firmware":
      s.add("dangerous", "firmware", `${p} changes the machine's firmware or boot entries`);
      return;
    case "kernel":
      if (p !== "sysctl" || args.some((a) => a === "-w" || a.includes("=") || a === "-p" || a === "--load")) s.add("dangerous", "kernel", `${p} changes the running kernel`);
      return;
    default:
      return;
  }
}

/** `crontab`, `at`, `batch`: commands scheduled to run later, unseen. */
export function checkScheduler(s: Screen, p: string, args: string[]): void {
  if (p === "crontab" && args.every((a) => a === "-l" || a === "-u" || !a.startsWith("-")) && args.includes("-l")) return;
  if (p === "crontab" && args.includes("-r")) s.add("dangerous", "crontab", "crontab -r deletes every scheduled job");
  else s.unresolved("scheduled", `${p} schedules commands to run later, outside this review`);
}

/** Containers given the host: `--privileged`, the host's / or home mounted, the docker socket. */
export function checkContainer(s: Screen, p: string, args: string[]): void {
  // The first word that is neither an option nor the value of a global one (`-H unix://…`, `--context x`).
  const at = args.findIndex((a, i) => !a.startsWith("-") && !/^(-H|--host|--url|-c|--context|--config|-l|--log-level|--tlscacert|--tlscert|--tlskey|--connection|-n|--namespace|-a|--address)$/.test(args[i - 1] ?? ""));
  // `docker container run`: the management command comes first.
  const sub = ["container", "containers"].includes(args[at] ?? "") ? args[at + 1] : args[at];
  if (!sub || !["run", "create", "exec"].includes(sub)) return;
  const hostNamespace = (a: string, next: string | undefined) => /^--(pid|net|network|ipc|uts|userns|cgroupns)=host$/.test(a) || (/^--(pid|net|network|ipc|uts|userns|cgroupns)$/.test(a) && next === "host");
  const unconfined = (a: string, next: string | undefined) => /^--security-opt=.*(unconfined|no-new-privileges=false)/.test(a) || (a === "--security-opt" && /unconfined/.test(next ?? ""));
  const device = (a: string) => a === "--device" || a.startsWith("--device=") || a === "--device-cgroup-rule" || a.startsWith("--device-cgroup-rule=");
  if (args.some((a, i) => a === "--privileged" || hostNamespace(a, args[i + 1]) || /^--cap-add[= ]?(ALL|SYS_ADMIN|SYS_PTRACE|SYS_MODULE|DAC_READ_SEARCH|NET_ADMIN|SYS_RAWIO)$/i.test(a === "--cap-add" ? `--cap-add=${args[i + 1] ?? ""}` : a) || unconfined(a, args[i + 1]) || device(a))) {
    s.add("dangerous", "container-host", `${p} ${sub} gives the container control of the host (--privileged or host namespaces)`);
  }
  for (const [k, a] of args.entries()) {
    const spec = a === "-v" || a === "--volume" || a === "--mount" ? args[k + 1] : /^(-v|--volume=|--mount=)/.test(a) ? a.replace(/^(-v|--volume=|--mount=)/, "") : undefined;
    if (spec === undefined) continue;
    const source = /source=([^,]+)|src=([^,]+)/.exec(spec)?.slice(1).find(Boolean) ?? spec.split(":")[0] ?? spec;
    const abs = s.abs(source);
    if (abs === "/" || abs === s.st.home || /^\/(etc|var\/run\/docker\.sock|run\/docker\.sock|root|boot|dev|proc|sys)(\/|$)/.test(abs) || abs === s.st.hermesHome) {
      s.add("dangerous", "container-host", `${p} ${sub} mounts ${s.show(abs)} from the host into the container, where it can be changed freely`);
    }
  }
}

function worldWritableMode(mode: string): boolean {
  if (/^[0-7]{3,4}$/.test(mode)) return ["2", "3", "6", "7"].includes(mode.charAt(mode.length - 1));
  return mode.split(",").some((clause) => {
    const m = /^([ugoa]*)([+=])([rwxXst]*)$/.exec(clause);
    if (!m) return false;
    const [, who = "", , perms = ""] = m; // who, operator, permissions: all take part (possibly empty)
    return perms.includes("w") && (who.includes("a") || who.includes("o"));
  });
}

function setuidMode(mode: string): boolean {
  const numeric = /^0?([0-7])[0-7]{3}$/.exec(mode);
  if (numeric) return (Number(numeric[1]) & 6) !== 0;
  return mode.split(",").some((clause) => /^[ugoa]*[+=][rwxXst]*s/.test(clause));
}

export function checkPermissions(s: Screen, cmd: SimpleCommand): void {
  const { short, long, operands } = shortFlags(cmd.args);
  const [spec, ...targets] = operands;
  if (cmd.program === "chmod" && spec !== undefined && setuidMode(spec)) {
    const system = targets.filter((t) => {
      const abs = s.abs(t);
      return !isWithin(abs, s.st.home) && SYSTEM_DIRS.some((d) => isWithin(abs, d));
    });
    if (system.length > 0) s.add("hardline", "chmod-setuid-system", `chmod ${spec} makes the system program ${system.join(" ")} run as its owner (root) for anyone: a way to take over the machine`);
    else s.add("dangerous", "chmod-setuid", `chmod ${spec} sets the setuid/setgid bit on ${targets.join(" ") || "the target"}: it then runs with its owner's privileges, for anyone`);
  }
  if (cmd.program === "chmod" && spec !== undefined && worldWritableMode(spec)) {
    for (const t of targets) {
      const abs = s.abs(t);
      if (!isWithin(abs, s.st.home) && !isWithin(abs, "/tmp") && SYSTEM_DIRS.some((d) => isWithin(abs, d))) {
        s.add("hardline", "chmod-world-writable-system", `chmod ${spec} makes the system file ${abs} writable by every user`);
      }
    }
  }
  for (const t of targets) s.write(t, cmd.program);
  // chmod modes like -w or -x look like flags; recursion is the capital R only.
  if (!(short.includes("R") || long.includes("--recursive"))) return;
  if (cmd.program === "chmod" && spec !== undefined && worldWritableMode(spec)) {
    s.add("dangerous", "chmod-777-recursive", `chmod -R ${spec} makes every file under ${targets.join(" ") || "the target"} writable by anyone`);
  }
  for (const t of targets) {
    const abs = s.abs(t);
    const inHome = isWithin(abs, s.st.home);
    if (abs === "/" || SYSTEM_DIRS.includes(abs)) {
      s.add("hardline", `${cmd.program}-recursive-root`, `${cmd.program} -R over ${s.show(abs)} changes every file in it, which breaks the system`);
      continue;
    }
    if (abs === s.st.home) s.add("dangerous", `${cmd.program}-recursive-system`, `${cmd.program} -R changes ownership or permissions of everything in the home folder`);
    if ((isWithin(s.st.home, abs) && abs !== s.st.home) || (!inHome && SYSTEM_DIRS.some((d) => isWithin(abs, d)))) {
      s.add("dangerous", `${cmd.program}-recursive-system`, `${cmd.program} -R changes ownership or permissions throughout ${s.show(abs)}, a system location`);
    }
  }
}
