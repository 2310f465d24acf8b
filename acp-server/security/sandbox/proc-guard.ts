// The parts of the sandbox's own /proc a command must not write or read. bwrap mounts a fresh
// procfs for the sandbox's PID namespace, but its sysctls and trigger files still reach the
// host kernel: as root (CI, devcontainers) writing /proc/sys/kernel/core_pattern makes the host
// kernel run a program as real root, outside every namespace. bwrap's own cover of /proc/sys
// does not apply when it runs as root (checked with bubblewrap 0.8: the write went through).
// Looks at the disk (bwrap cannot bind a source that does not exist); node:fs only, because the
// VS Code extension imports it too.
import type { HiddenPath } from "./policy";
import { pathKind } from "../../util/path-kind";

/** Writable kernel knobs and trigger files (the set container runtimes also lock). */
export const PROC_READ_ONLY = ["/proc/sys", "/proc/sysrq-trigger", "/proc/irq", "/proc/bus", "/proc/fs"];
/** Host kernel state no command needs: memory image, keyrings, timers, scheduler, kernel log. */
export const PROC_MASKED = ["/proc/kcore", "/proc/keys", "/proc/key-users", "/proc/timer_list", "/proc/sched_debug", "/proc/latency_stats", "/proc/kmsg", "/proc/acpi", "/proc/scsi"];

export interface ProcGuard {
  /** Bound read-only from the host's procfs over the sandbox's. */
  readOnly: string[];
  /** Covered like a hidden credential store. */
  masked: HiddenPath[];
}

/** The entries of both lists this kernel has. */
export function procGuard(): ProcGuard {
  const readOnly = PROC_READ_ONLY.filter((entry) => pathKind(entry) !== undefined);
  const masked = PROC_MASKED.flatMap((entry): HiddenPath[] => {
    const kind = pathKind(entry);
    return kind ? [{ path: entry, kind }] : [];
  });
  return { readOnly, masked };
}

