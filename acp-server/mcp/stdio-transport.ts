// An MCP stdio client transport that runs the server in its own process group
// (util/process-group.ts), so closing it (or Hermes exiting) ends the server and everything it
// started: `npx` wrappers, shells, and their children. The SDK's own transport kills only the
// direct child.
import { childEnv } from "../security/child-env";
import { ProcessGroup } from "../util/process-group";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";

/** What a server inherits from Hermes' environment (as the SDK does): no credentials. */
const STDERR_TAIL = 2_000;
const GRACE_MS = 1_000;

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
  private group?: ProcessGroup;
  /** The server process has exited (its group may still have members until close()). */
  private ended = false;
  private readonly buffer = new ReadBuffer();
  private stderr = "";
  /** How the process ended ("exit code 1", "signal SIGKILL"), once it has. */
  exitDescription?: string;

  constructor(private readonly params: StdioServerParams) {}

  get pid(): number | undefined {
    return this.ended ? undefined : this.group?.pid;
  }

  /** The last lines the server wrote to stderr (shown when it fails). */
  stderrTail(): string {
    return this.stderr.trim();
  }

  start(): Promise<void> {
    if (this.group) throw new Error("GroupStdioTransport already started");
    // The same allowlist as commands (no credentials of Hermes'); the server's own env is declared.
    const env = childEnv(process.env);
    return new Promise((resolve, reject) => {
      const group = ProcessGroup.spawn(this.params.command, this.params.args, {
        env: { ...env, ...this.params.env },
        cwd: this.params.cwd,
        stdio: ["pipe", "pipe", "pipe"],
      });
      const child = group.child;
      this.group = group;
      child.once("error", (error) => {
        this.exitDescription = error.message;
        reject(error);
        this.onerror?.(error);
      });
      child.once("spawn", () => resolve());
      child.once("close", (code, signal) => {
        this.exitDescription ??= signal ? `killed by ${signal}` : `exit code ${code}`;
        this.ended = true;
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
      const stdin = this.ended ? undefined : this.group?.child.stdin;
      if (!stdin || stdin.destroyed) return reject(new Error("Not connected"));
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once("drain", resolve);
    });
  }

  /** Ends stdin, then SIGTERM and SIGKILL to the whole group if the server lingers. */
  async close(): Promise<void> {
    const group = this.group;
    if (!group) return;
    // Whatever the server started in its group goes too, even when the server itself exited.
    await group.stop({ graceMs: GRACE_MS, endStdin: true });
    this.buffer.clear();
  }
}
