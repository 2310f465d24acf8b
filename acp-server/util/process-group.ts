// Processes Hermes starts (local commands, MCP stdio servers, external child agents) run each in
// its own process group, so stopping one also stops whatever it started (`npm test` → node →
// workers, an `npx` wrapper's real program) instead of leaving orphans behind. Every group that
// may still have members is tracked and SIGKILLed when Hermes exits.
//
// The tracking set is the one module-level state here, on purpose: it mirrors the OS process
// (one exit, one set of children), the way process.on("exit") itself is process-wide.
import { spawn, type ChildProcess, type StdioOptions } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { createLogger } from "./log";

const log = createLogger("process-group");

export interface GroupSpawnOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  stdio?: StdioOptions;
}

export interface StopOptions {
  /** Between SIGTERM and SIGKILL; also how long a closed stdin is given to end the leader. */
  graceMs: number;
  /** Close the leader's stdin first and give it `graceMs` to exit by itself (servers, agents). */
  endStdin?: boolean;
}

/** How often a stop looks for group members other than the leader (they send no events). */
const MEMBER_POLL_MS = 20;

const live = new Set<ProcessGroup>();
let hooksInstalled = false;

/** SIGKILLs every tracked group, synchronously (process exit, a fatal signal). Safe to call again. */
export function killAllProcessGroups(): void {
  for (const group of [...live]) group.kill();
}

/** A process that leads its own group (spawned detached). */
export class ProcessGroup {
  /** Resolves once the leader has exited or failed to start. */
  readonly leaderExited: Promise<void>;
  private leaderDone = false;
  private stopping?: Promise<void>;

  private constructor(readonly child: ChildProcess) {
    this.leaderExited = new Promise<void>((resolve) => {
      const done = () => {
        this.leaderDone = true;
        // A leader that leaves no one running behind needs no killing at exit (zombies of
        // orphans count as gone: in some containers nothing ever reaps them).
        if (!this.running()) live.delete(this);
        resolve();
      };
      child.once("exit", done);
      child.once("error", done);
    });
    // Members that outlived the leader briefly are usually gone once its pipes close.
    child.once("close", () => {
      if (!this.running()) live.delete(this);
    });
  }

  /**
   * Spawns `file` as the leader of a new process group. Throws what spawn throws (bad
   * arguments); a missing program is the child's "error" event, as with spawn.
   */
  static spawn(file: string, args: readonly string[], options: GroupSpawnOptions = {}): ProcessGroup {
    installExitHooks();
    const group = new ProcessGroup(spawn(file, args, { ...options, detached: true }));
    if (group.pid !== undefined) live.add(group);
    return group;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Sends `signal` to every member; a no-op once the group is gone. */
  signal(signal: NodeJS.Signals): void {
    if (this.pid === undefined) return;
    try {
      process.kill(-this.pid, signal);
    } catch (error) {
      // expected: ESRCH, the group has already exited. Anything else (EPERM) leaves it running: logged.
      if ((error as NodeJS.ErrnoException).code !== "ESRCH") log.warn("could not signal a process group", { pgid: this.pid, signal, error });
    }
  }

  /**
   * True while the group exists: a member runs, or one has exited and not been reaped yet (an
   * orphan's zombie waits for PID 1, which in some containers never reaps). Cheap; see running().
   */
  alive(): boolean {
    if (this.pid === undefined) return false;
    try {
      process.kill(-this.pid, 0);
      return true;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === "EPERM";
    }
  }

  /**
   * Stops the whole group: (stdin closed and a grace period, when asked), then SIGTERM, up to
   * `graceMs` for every member to go, then SIGKILL for whatever is left. Resolves when that is
   * done; calling it again (or concurrently) returns the same stop.
   */
  stop(options: StopOptions): Promise<void> {
    this.stopping ??= this.runStop(options);
    return this.stopping;
  }

  /** SIGKILLs the group now and stops tracking it. Synchronous; idempotent. */
  kill(): void {
    this.signal("SIGKILL");
    live.delete(this);
  }

  private async runStop({ graceMs, endStdin }: StopOptions): Promise<void> {
    if (endStdin && !this.leaderDone) {
      try {
        this.child.stdin?.end();
      } catch {
        // expected: stdin already closed
      }
      await this.leaderExitsWithin(graceMs);
    }
    if (this.alive()) {
      this.signal("SIGTERM");
      await this.goneWithin(graceMs);
    }
    this.kill();
    // SIGKILL is delivered at once, but dying takes a moment: resolve when the members are gone.
    await this.goneWithin(graceMs);
  }

  private leaderExitsWithin(ms: number): Promise<boolean> {
    if (this.leaderDone) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      void this.leaderExited.then(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  /** True while a member is still running (zombies do not count). */
  running(): boolean {
    if (!this.alive()) return false;
    if (process.platform !== "linux") return true;
    return groupHasRunningMember(this.pid as number);
  }

  /** Waits for the leader's exit (an event), then for the other members (polled: they send none). */
  private async goneWithin(ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    if (!(await this.leaderExitsWithin(ms))) return false;
    while (this.running()) {
      const left = deadline - Date.now();
      if (left <= 0) return false;
      await new Promise((resolve) => setTimeout(resolve, Math.min(MEMBER_POLL_MS, left)));
    }
    return true;
  }
}

/** Linux: whether a process in group `pgid` is not a zombie, from /proc/<pid>/stat. */
function groupHasRunningMember(pgid: number): boolean {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    // expected: no /proc (not Linux): cannot tell, so the group is treated as possibly alive
    return true;
  }
  for (const entry of entries) {
    if (entry.charCodeAt(0) < 48 || entry.charCodeAt(0) > 57) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      // expected: the process exited meanwhile
      continue;
    }
    // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so split after the last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(fields[2]) === pgid && fields[0] !== "Z") return true;
  }
  return false;
}

/**
 * Once, on the first spawn: every group dies with Hermes. `exit` covers process.exit() and the
 * end of the event loop. A fatal signal (SIGTERM, SIGINT, SIGHUP) skips `exit`, so when nothing
 * else handles it, the groups are killed and the signal is raised again for its default effect;
 * when something else does (the CLI's shutdown), that handler decides, and its process.exit()
 * reaches the `exit` hook.
 */
function installExitHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  process.once("exit", killAllProcessGroups);
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
    const onSignal = () => {
      if (process.listenerCount(signal) > 1) return;
      killAllProcessGroups();
      process.removeListener(signal, onSignal);
      process.kill(process.pid, signal);
    };
    process.on(signal, onSignal);
  }
}
