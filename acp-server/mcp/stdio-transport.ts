// An MCP stdio client transport that runs the server in its own process group, so closing it
// (or Hermes exiting) ends the server and everything it started: `npx` wrappers, shells, and
// their children. The SDK's own transport kills only the direct child.
import { childEnv } from "../security/child-env";
import { spawn, type ChildProcess } from "node:child_process";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";

/** What a server inherits from Hermes' environment (as the SDK does): no credentials. */
const STDERR_TAIL = 2_000;
const GRACE_MS = 1_000;

const live = new Set<ChildProcess>();
let exitHookInstalled = false;

/** Kills every server process group at once (process exit: no orphans). Synchronous. */
export function killAllStdioServers(): void {
  for (const child of live) signalGroup(child, "SIGKILL");
  live.clear();
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      // already gone
    }
  }
}

export interface StdioServerParams {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
}

export class GroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child?: ChildProcess;
  private readonly buffer = new ReadBuffer();
  private stderr = "";
  /** How the process ended ("exit code 1", "signal SIGKILL"), once it has. */
  exitDescription?: string;

  constructor(private readonly params: StdioServerParams) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** The last lines the server wrote to stderr (shown when it fails). */
  stderrTail(): string {
    return this.stderr.trim();
  }

  start(): Promise<void> {
    if (this.child) throw new Error("GroupStdioTransport already started");
    if (!exitHookInstalled) {
      exitHookInstalled = true;
      process.once("exit", killAllStdioServers);
    }
    // The same allowlist as commands (no credentials of Hermes'); the server's own env is declared.
    const env = childEnv(process.env);
    return new Promise((resolve, reject) => {
      const child = spawn(this.params.command, this.params.args, {
        env: { ...env, ...this.params.env },
        cwd: this.params.cwd,
        stdio: ["pipe", "pipe", "pipe"],
        detached: true,
      });
      this.child = child;
      live.add(child);
      child.once("error", (error) => {
        live.delete(child);
        this.exitDescription = error.message;
        reject(error);
        this.onerror?.(error);
      });
      child.once("spawn", () => resolve());
      child.once("close", (code, signal) => {
        live.delete(child);
        this.exitDescription ??= signal ? `killed by ${signal}` : `exit code ${code}`;
        this.child = undefined;
        this.onclose?.();
      });
      child.stdin?.on("error", (error) => this.onerror?.(error));
      child.stdout?.on("data", (chunk: Buffer) => {
        this.buffer.append(chunk);
        for (;;) {
          let message: JSONRPCMessage | null;
          try {
            message = this.buffer.readMessage();
          } catch (error) {
            this.onerror?.(error as Error);
            continue;
          }
          if (message === null) break;
          this.onmessage?.(message);
        }
      });
      child.stderr?.setEncoding("utf8");
      child.stderr?.on("data", (text: string) => {
        this.stderr = (this.stderr + text).slice(-STDERR_TAIL);
      });
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || stdin.destroyed) return reject(new Error("Not connected"));
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once("drain", resolve);
    });
  }

  /** Ends stdin, then SIGTERM and SIGKILL to the whole group if the server lingers. */
  async close(): Promise<void> {
    const child = this.child;
    if (!child) return;
    const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
    const within = (ms: number) => Promise.race([exited.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms).unref())]);
    try {
      child.stdin?.end();
    } catch {
      // already closed
    }
    if (!(await within(GRACE_MS))) {
      signalGroup(child, "SIGTERM");
      if (!(await within(GRACE_MS))) signalGroup(child, "SIGKILL");
    }
    // Whatever the server started in its group goes too, even when the server itself exited.
    signalGroup(child, "SIGKILL");
    live.delete(child);
    this.buffer.clear();
  }
}
