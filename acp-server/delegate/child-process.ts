// An external agent's process: spawned in its own process group (util/process-group.ts), so
// stopping it also stops everything it started (its shells, its tools, an `npx` wrapper's real
// program). Every live group is killed when Hermes exits: no orphans.
import type { ChildProcess } from "node:child_process";
import { ProcessGroup } from "../util/process-group";

const STDERR_TAIL = 2_000;

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

  readonly child: ChildProcess;

  private constructor(private readonly group: ProcessGroup) {
    const child = (this.child = group.child);
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
    void this.exited.then(() => group.kill());
  }

  static spawn(spec: SpawnSpec): AgentProcess {
    return new AgentProcess(ProcessGroup.spawn(spec.command, spec.args, { cwd: spec.cwd, env: spec.env, stdio: ["pipe", "pipe", "pipe"] }));
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
  stop(graceMs: number): Promise<void> {
    return this.group.stop({ graceMs, endStdin: true });
  }

  /** Kills the group now (no grace) and waits (bounded) for the exit to be reported. */
  async kill(): Promise<void> {
    this.group.kill();
    await this.exitsWithin(2_000);
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
