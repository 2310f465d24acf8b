// An external agent's process: spawned in its own process group, so stopping it also stops
// everything it started (its shells, its tools, an `npx` wrapper's real program). Every live
// group is killed when Hermes exits: no orphans.
import { spawn, type ChildProcess } from "node:child_process";

const STDERR_TAIL = 2_000;

const live = new Set<AgentProcess>();
let exitHookInstalled = false;

/** SIGKILLs every child agent's group at once (process exit). Synchronous. */
export function killAllChildAgents(): void {
  for (const child of live) child.signalGroup("SIGKILL");
  live.clear();
}

export interface SpawnSpec {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
}

export class AgentProcess {
  private stderrText = "";
  /** How it ended ("exit code 1", "killed by SIGKILL", "spawn … ENOENT"), once it has. */
  exitDescription?: string;
  /** Resolves when the process has exited (or failed to start). */
  readonly exited: Promise<string>;
  /** Resolves once the process runs; rejects when it cannot start. */
  readonly started: Promise<void>;

  private constructor(readonly child: ChildProcess) {
    live.add(this);
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (text: string) => {
      this.stderrText = (this.stderrText + text).slice(-STDERR_TAIL);
    });
    child.stdin?.on("error", () => {
      // EPIPE after the child died: the exit handler reports it.
    });
    this.started = new Promise<void>((resolve, reject) => {
      child.once("spawn", () => resolve());
      child.once("error", (error) => reject(error));
    });
    this.exited = new Promise<string>((resolve) => {
      child.once("error", (error) => {
        this.exitDescription ??= error.message;
        resolve(this.exitDescription);
      });
      child.once("exit", (code, signal) => {
        this.exitDescription ??= signal ? `killed by ${signal}` : `exit code ${code}`;
        resolve(this.exitDescription);
      });
    });
    // Whatever it started in its group goes as soon as it exits.
    void this.exited.then(() => {
      this.signalGroup("SIGKILL");
      live.delete(this);
    });
  }

  static spawn(spec: SpawnSpec): AgentProcess {
    if (!exitHookInstalled) {
      exitHookInstalled = true;
      process.once("exit", killAllChildAgents);
    }
    const child = spawn(spec.command, spec.args, { cwd: spec.cwd, env: spec.env, stdio: ["pipe", "pipe", "pipe"], detached: true });
    return new AgentProcess(child);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get running(): boolean {
    return this.exitDescription === undefined;
  }

  /** The last lines it wrote to stderr. */
  stderrTail(): string {
    return this.stderrText.trim();
  }

  /** Ends stdin, then SIGTERM and finally SIGKILL to the whole group if it lingers. */
  async stop(graceMs: number): Promise<void> {
    if (this.running) {
      try {
        this.child.stdin?.end();
      } catch {
        // already closed
      }
      if (!(await this.exitsWithin(graceMs))) {
        this.signalGroup("SIGTERM");
        if (!(await this.exitsWithin(graceMs))) this.signalGroup("SIGKILL");
        await this.exitsWithin(graceMs);
      }
    }
    this.signalGroup("SIGKILL");
    live.delete(this);
  }

  /** Kills the group now (no grace). */
  async kill(): Promise<void> {
    this.signalGroup("SIGKILL");
    await this.exitsWithin(2_000);
    live.delete(this);
  }

  signalGroup(signal: NodeJS.Signals): void {
    const pid = this.child.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, signal);
    } catch {
      // ESRCH: the group is gone.
    }
  }

  private exitsWithin(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      void this.exited.then(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }
}
