// Programs that act on the machine as a whole: processes, power, disks, the kernel, users,
// firewalls, mounts, system packages, containers, and the environment they run in.
import type { ProgramEntry, Subcommand } from "./program-entry";

const READS = { effects: ["read"] } as const;
/** systemctl and loginctl verbs that shut down, suspend or isolate the machine. */
const POWER_VERBS: Record<string, Subcommand> = Object.fromEntries(
  ["poweroff", "reboot", "halt", "kexec", "soft-reboot", "suspend", "hibernate", "hybrid-sleep", "suspend-then-hibernate", "rescue", "emergency", "isolate", "default", "sleep"].map((verb) => [verb, { effects: ["power"] }]),
);
/** systemctl and loginctl: global options that take a value, before the verb. */
const CTL_OPTIONS = ["-H", "-M", "--host", "--machine", "-t", "--type", "-p", "--property", "-s", "--signal", "--when", "--kill-whom"];
/** pkill and killall: options that take a value (the rest are flags or patterns). */
const KILL_OPTIONS = ["-u", "-U", "-G", "-g", "-P", "-s", "--signal", "-t", "--terminal", "--user", "--uid", "--group", "--parent", "--session", "--ns", "--nslist", "-o", "--older-than", "-y", "--younger-than", "-n", "-F", "--pidfile"];
/** `docker exec [options] CONTAINER CMD`: options that take a value. */
const CONTAINER_EXEC_OPTIONS = ["-e", "--env", "-u", "--user", "-w", "--workdir", "--env-file", "--detach-keys"];

export const SYSTEM_ENTRIES: ProgramEntry[] = [
  // Processes and the session.
  { names: ["ps"], traits: ["o-is-not-output"], readOnly: true },
  { names: ["top", "lsof"], readOnly: true },
  { names: ["pgrep", "lsblk"], traits: ["o-is-not-output"], readOnly: true },
  { names: ["free", "uptime", "getconf", "locale", "lscpu", "groups", "users", "who", "w", "last", "dig", "host", "nslookup", "pstree", "vmstat", "iostat"], readOnly: true },
  { names: ["env"], traits: ["prints-environment"], readOnly: { maxOperands: 0 }, wrapper: { kind: "assignments" }, valueOptions: ["-u", "-C", "-S", "--unset", "--chdir", "--split-string", "-P"], folderOptions: ["-C", "--chdir"] },
  { names: ["printenv"], traits: ["args-are-data", "prints-environment"], readOnly: true },
  { names: ["nproc"], traits: ["no-file-operands"], readOnly: true },
  { names: ["date"], readOnly: { unless: /^(-s|--set|-[a-zA-Z]*s)/, operands: /^\+/ } },
  { names: ["hostname"], readOnly: { unless: /^(-F|--file|-b|--boot)/, maxOperands: 0 } },
  { names: ["kill"], rule: "signal-pids" },
  { names: ["pkill"], traits: ["o-is-not-output"], rule: "kill-by-name", valueOptions: KILL_OPTIONS },
  { names: ["killall", "killall5"], rule: "kill-by-name", valueOptions: KILL_OPTIONS },
  // Power.
  { names: ["shutdown", "reboot", "halt", "poweroff", "init", "telinit", "pm-suspend", "pm-hibernate", "rtcwake"], rule: "power" },
  { names: ["systemctl"], rule: "power", valueOptions: CTL_OPTIONS, subcommands: POWER_VERBS, admin: /^(enable|disable|start|stop|restart|reload|mask|unmask|kill|isolate|daemon-reload|link|edit|set-property|reboot|poweroff|halt|preset)$/ },
  { names: ["loginctl"], rule: "power", valueOptions: CTL_OPTIONS, subcommands: POWER_VERBS },
  { names: ["crontab"], rule: "scheduler" },
  { names: ["at", "batch"], traits: ["stdin-shell"], rule: "scheduler" },
  // Disks.
  { names: ["mkfs", "mke2fs", "mkswap"], rule: "format" },
  { names: ["blkdiscard"], rule: "disk-discard" },
  { names: ["nvme"], rule: "erase-subcommand" },
  { names: ["wipefs"], rule: "signature-wipe" },
  { names: ["fdisk", "sfdisk", "gdisk", "cfdisk", "sgdisk", "parted", "partprobe", "cgdisk"], rule: "partition" },
  { names: ["hdparm"], rule: "disk-settings" },
  { names: ["cryptsetup"], rule: "encrypted-disk" },
  { names: ["badblocks"], rule: "disk-surface-test" },
  { names: ["mdadm"], rule: "raid-metadata" },
  { names: ["zpool", "lvremove", "vgremove", "pvremove", "zfs"], rule: "storage-destroy" },
  { names: ["flashrom", "efibootmgr"], rule: "firmware" },
  { names: ["insmod", "rmmod", "modprobe", "sysctl"], rule: "kernel" },
  // Administration: always, or when an argument matches.
  { names: ["iptables"], admin: /^-(F|X|P|Z|D)|^--(flush|delete-chain|policy)/ },
  { names: ["ip6tables"], admin: /^-(F|X|P|D)|^--(flush|policy)/ },
  { names: ["nft"], admin: /^(flush|delete)/ },
  { names: ["ufw"], admin: /^(disable|reset|delete|allow)/ },
  { names: ["mount"], traits: ["o-is-not-output"], admin: null },
  { names: ["umount", "swapoff", "swapon", "passwd", "chpasswd", "usermod", "useradd", "userdel", "groupdel", "groupmod", "chsh", "visudo", "setfacl", "chattr"], admin: null },
  { names: ["update-alternatives"], admin: /^--(set|install|remove)/ },
  { names: ["hostnamectl", "timedatectl"], admin: /^set-/ },
  // System package managers.
  { names: ["apt", "apt-get"], removesPackages: /^(remove|purge|autoremove)$/ },
  { names: ["dpkg"], removesPackages: /^(-r|-P|--remove|--purge)$/ },
  { names: ["yum"], removesPackages: /^(remove|erase)$/ },
  { names: ["dnf"], removesPackages: /^(remove|erase|autoremove)$/ },
  { names: ["pacman"], removesPackages: /^-R/ },
  { names: ["zypper"], removesPackages: /^(remove|rm)$/ },
  { names: ["apk"], removesPackages: /^del$/ },
  { names: ["brew"], removesPackages: /^(uninstall|remove|rm|cleanup)$/ },
  { names: ["snap"], removesPackages: /^remove$/ },
  { names: ["flatpak"], removesPackages: /^(uninstall|remove)$/ },
  // The system bus reaches logind (power off, reboot), systemd (units), NetworkManager, polkit.
  { names: ["busctl", "gdbus", "qdbus", "dbus-send"], destroys: [[/^(call|emit|set-property|--system|--print-reply|--dest|org\.|\/org\/)|\s(call|emit|set-property)\s/, "sends a command to a system service over D-Bus (power, units, network)"]] },
  // Containers.
  {
    names: ["docker"], rule: "container", traits: ["version-only"], subcommandOptions: { exec: CONTAINER_EXEC_OPTIONS },
    subcommands: { ps: READS, images: READS, inspect: READS, logs: READS, version: READS, info: READS, exec: { effects: ["runs-code"] } },
    destroys: [[/^(system prune|volume (rm|prune)|image prune|container prune|network prune|builder prune|compose down -v|compose down --volumes)/, "deletes containers' data, images or volumes"]],
  },
  { names: ["podman"], rule: "container", subcommandOptions: { exec: CONTAINER_EXEC_OPTIONS }, destroys: [[/^(system prune|volume (rm|prune)|image prune|container prune|network prune|builder prune|compose down -v|compose down --volumes)/, "deletes containers' data, images or volumes"]] },
  { names: ["nerdctl", "finch", "lima", "colima"], rule: "container" },
];
