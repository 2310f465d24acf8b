// Runs command lines as local processes, used when the editor does not offer terminals.
// Each command gets its own process group (util/process-group.ts), so killing it also kills
// whatever it started (`npm test` → node → workers) instead of leaving orphans behind.
import { childEnv } from "../security/child-env";
import { existsSync } from "node:fs";
import { stat } from "node:fs/promises";
import { StringDecoder } from "node:string_decoder";
import type { CommandSandbox, SpawnPlan } from "../security/sandbox/command-sandbox";
import { PortExport, type ExportedPorts, type ExposeResult } from "../security/sandbox/port-export";
import { sandboxBlockedNote } from "../security/sandbox/blocked-note";
import type { SandboxPolicy } from "../security/sandbox/policy";
import type { CommandOutput, CommandRpcPipes, ExitStatus, RunningCommand, ShellRunner, StartCommandOptions } from "./context";
import { OutputBuffer } from "./output-buffer";
import { ProcessGroup } from "../util/process-group";
import { AgentError } from "../util/agent-error";
import { createLogger } from "../util/log";

const log = createLogger("local-shell");

/** Fixed choice (not $SHELL) so a command behaves the same on every user's machine. */
const SHELL = existsSync("/bin/bash") ? "/bin/bash" : "/bin/sh";

/** Nothing can answer a prompt or drive a pager, so ask tools not to start one. */
const NON_INTERACTIVE_ENV: Record<string, string> = {
  PAGER: "cat",
  GIT_PAGER: "cat",
  GIT_TERMINAL_PROMPT: "0",
  TERM: "dumb",
};

/** Grace period between SIGTERM and SIGKILL. */
const KILL_GRACE_MS = 1500;
/** After the shell exits, how long to wait for its pipes to drain before reporting the exit. */
const CLOSE_GRACE_MS = 200;

export class LocalShellRunner implements ShellRunner {
  /**
   * `baseEnv`: the environment commands start from (default: this process's, allowlisted).
   * `sandbox`: the session's OS sandbox; without one commands run bare (tests of the runner itself).
   */
  constructor(
    private readonly baseEnv: NodeJS.ProcessEnv = childEnv(process.env),
    private readonly sandbox?: CommandSandbox,
  ) {}

  sandboxed(): boolean {
    return this.sandbox?.status().active ?? false;
  }

  isolatesNetwork(): boolean {
    return this.sandbox?.isolatesNetwork() ?? false;
  }

  async start(command: string, options: StartCommandOptions): Promise<RunningCommand> {
    await checkDirectory(options.cwd);
    // Refusal (terminal.sandbox: on with no sandbox) throws here, before anything runs.
    const plan: SpawnPlan =
      this.sandbox && !options.unsandboxed
        ? await this.sandbox.plan(SHELL, command, options.cwd, { offline: options.offline === true, exportPorts: options.exportPorts === true })
        : { file: SHELL, args: ["-c", command], env: {} };
    let group: ProcessGroup;
    try {
      group = ProcessGroup.spawn(plan.file, plan.args, {
        cwd: options.cwd,
        env: { ...this.baseEnv, ...NON_INTERACTIVE_ENV, ...options.env, ...plan.env },
        // fd 3: the program's tool requests; fd 4: their replies (execute_code). Inherited through bwrap.
        // fd 3 with plan.ipc: the port exporter's channel (port-export.ts), for background commands only.
        stdio: options.rpcPipes ? ["ignore", "pipe", "pipe", "pipe", "pipe"] : plan.ipc ? ["ignore", "pipe", "pipe", "ipc"] : ["ignore", "pipe", "pipe"],
      });
    } catch (error) {
      throw new AgentError("internal", `Could not start command: ${errorMessage(error)}`, {}, { cause: error });
    }
    await new Promise<void>((resolve, reject) => {
      group.child.once("spawn", resolve);
      group.child.once("error", (error) => reject(new AgentError("internal", `Could not start command: ${error.message}`, {}, { cause: error })));
    });
    const running = new LocalCommand(group, options.outputLimit, plan.policy, plan.ipc ? new PortExport(group.child) : undefined);
    const [requests, replies] = [group.child.stdio[3], group.child.stdio[4]];
    if (options.rpcPipes && requests && replies && "read" in requests && "write" in replies) {
      // A program that exits mid-reply closes its end: that is its business, not an agent error.
      replies.on("error", () => {}); // expected: EPIPE after the program exited
      requests.on("error", () => {}); // expected: the program closed its end
      running.rpc = { requests, replies };
    }
    return running;
  }
}

class LocalCommand implements RunningCommand {
  rpc?: CommandRpcPipes;
  private readonly buffer: OutputBuffer;
  private readonly listeners = new Set<(chunk: string) => void>();
  private exitStatus: ExitStatus | undefined;
  private readonly exited: Promise<ExitStatus>;
  private released = false;

  constructor(
    private readonly group: ProcessGroup,
    outputLimit: number,
    /** Set when the command runs in the OS sandbox. */
    private readonly policy?: SandboxPolicy,
    /** Set when its servers are exported from the sandbox to the host's loopback. */
    private readonly portExport?: PortExport,
  ) {
    const child = group.child;
    this.buffer = new OutputBuffer(outputLimit);
    // stdout and stderr each get a decoder: a character split across two reads of one
    // stream must not be garbled by a chunk of the other stream landing in between.
    for (const stream of [child.stdout, child.stderr]) {
      if (!stream) continue;
      const decoder = new StringDecoder("utf8");
      stream.on("data", (data: Buffer) => this.emit(decoder.write(data)));
      stream.on("end", () => this.emit(decoder.end()));
      stream.on("error", () => {});
    }
    let closed = false;
    const closedPromise = new Promise<void>((resolve) =>
      child.once("close", () => {
        closed = true;
        resolve();
      }),
    );
    this.exited = new Promise<ExitStatus>((resolve) => {
      child.once("exit", (code, signal) => {
        const status: ExitStatus = { code, signal };
        // A background grandchild may hold the pipes open forever, so report the exit
        // after a short drain instead of waiting for 'close'.
        const finish = () => {
          this.exitStatus = status;
          resolve(status);
        };
        if (closed) return finish();
        const timer = setTimeout(finish, CLOSE_GRACE_MS);
        void closedPromise.then(() => {
          clearTimeout(timer);
          finish();
        });
      });
    });
  }

  output(): Promise<CommandOutput> {
    const result: CommandOutput = { text: this.buffer.text(), truncated: this.buffer.truncated };
    if (this.exitStatus) result.exit = { ...this.exitStatus };
    return Promise.resolve(result);
  }

  waitForExit(): Promise<ExitStatus> {
    return this.exited;
  }

  sandboxNote(output: string): string | undefined {
    return this.policy ? sandboxBlockedNote(output, this.policy) : undefined;
  }

  get ownNetwork(): boolean {
    return this.policy !== undefined && this.policy.network.kind !== "on";
  }

  exportedPorts(): ExportedPorts | undefined {
    return this.portExport?.ports();
  }

  exposePort(port: number): Promise<ExposeResult> | undefined {
    return this.portExport?.expose(port);
  }

  onOutput(listener: (chunk: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  kill(): Promise<void> {
    return this.group.stop({ graceMs: KILL_GRACE_MS });
  }

  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    await this.kill();
    this.listeners.clear();
  }

  private emit(text: string): void {
    if (!text) return;
    this.buffer.append(text);
    for (const listener of this.listeners) {
      try {
        listener(text);
      } catch (error) {
        // A failing listener must not break output collection; it is a bug in the listener.
        log.warn("an output listener threw", { error });
      }
    }
  }
}

async function checkDirectory(cwd: string): Promise<void> {
  let info;
  try {
    info = await stat(cwd);
  } catch {
    throw new AgentError("invalid_params", `Working directory does not exist: ${cwd}`, { cwd });
  }
  if (!info.isDirectory()) throw new AgentError("invalid_params", `Working directory is not a directory: ${cwd}`, { cwd });
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
