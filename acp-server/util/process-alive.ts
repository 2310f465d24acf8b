// Whether a process is still the one that wrote something: its pid is running (signal 0
// probes without signalling) and, where the system tells (Linux /proc), it started when the
// writer did, so a pid reused by another program does not pass for the writer. Used to tell
// files a crashed process left behind from those of a live one.
import { readFileSync } from "node:fs";

/** Whether `pid` is running. A reused pid reads as alive: the caller then errs on the safe side. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * When `pid` started, as an opaque token (Linux: clock ticks since boot, field 22 of
 * /proc/<pid>/stat); undefined where the system does not tell or the process is gone.
 */
export function processStartIdentity(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) is in parentheses and may hold spaces: count from after it.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields[19] || undefined;
  } catch {
    // expected: no /proc (not Linux) or the process is gone: no start time
    return undefined;
  }
}

/** This process's start identity, read once. */
let own: string | undefined | null = null;
export function ownStartIdentity(): string | undefined {
  if (own === null) own = processStartIdentity(process.pid);
  return own;
}

/**
 * Whether the process that recorded (`pid`, `start`) still runs: the pid is alive and, when both
 * start identities are known, they match (otherwise the pid was reused).
 */
export function sameProcessAlive(pid: number, start: string | undefined): boolean {
  if (!processAlive(pid)) return false;
  const now = processStartIdentity(pid);
  return start === undefined || now === undefined || now === start;
}
