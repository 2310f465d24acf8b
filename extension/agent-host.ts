// The agent process plus its initialized ACP connection, kept alive: `connected()` starts the
// agent on first use; after a crash (or Restart Agent) the new process is connected and
// initialized again and `reconnected` fires, so the chat can reload its session.
// No vscode import.
import type * as acp from "@agentclientprotocol/sdk/unstable";
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { EventEmitter } from "node:events";
import type { ConnectionStatus } from "../common/panel-state/types";
import { connectAgent, type AgentConnection, type ClientHandlers, type ConnectionOptions } from "./acp-connection";
import type { AgentExit, AgentProcess } from "./agent-process";
import { userMessage } from "./log";

export interface Connected {
  agent: acp.ClientContext;
  init: acp.InitializeResponse;
}

export interface AgentHostEvents {
  status: [status: ConnectionStatus, message: string | undefined, agent: { name: string; version?: string } | undefined];
  crashed: [exit: AgentExit, delayMs: number];
  /** A new process is initialized after a crash or a restart. */
  reconnected: [connected: Connected];
}

export class AgentHost extends EventEmitter<AgentHostEvents> {
  private ready: Promise<Connected> | undefined;
  private settle: { resolve(value: Connected): void; reject(error: Error): void } | undefined;
  private connection: AgentConnection | undefined;
  private current: Connected | undefined;
  private reconnecting = false;

  constructor(
    private readonly process: AgentProcess,
    private readonly handlers: ClientHandlers,
    private readonly options: ConnectionOptions,
  ) {
    super();
    process.on("started", (child) => this.attach(child));
    process.on("crashed", (exit, delayMs) => {
      this.drop();
      this.reconnecting = true;
      this.expect();
      this.emit("status", "restarting", `The agent stopped (${exit.signal ?? `exit code ${exit.code}`}); restarting in ${Math.round(delayMs / 1000)} s`, undefined);
      this.emit("crashed", exit, delayMs);
    });
    process.on("failed", (error) => this.fail(`The agent could not start: ${error.message}`));
  }

  /** The initialized connection, starting the agent when nothing runs. */
  connected(): Promise<Connected> {
    if (!this.ready) {
      this.expect();
      this.emit("status", "starting", undefined, undefined);
      this.process.start();
    }
    return this.ready!;
  }

  get agentInfo(): acp.InitializeResponse | undefined {
    return this.current?.init;
  }

  async restart(): Promise<Connected> {
    this.drop();
    this.reconnecting = true;
    this.expect();
    this.emit("status", "restarting", "Restarting the agent", undefined);
    await this.process.restart();
    return this.ready!;
  }

  async stop(): Promise<void> {
    this.drop();
    this.settle?.reject(new Error("The agent was stopped"));
    this.ready = undefined;
    this.settle = undefined;
    await this.process.stop();
    this.emit("status", "stopped", undefined, undefined);
  }

  /** A fresh pending `ready` for the next process (kept if one is already pending). */
  private expect(): void {
    if (this.settle) return;
    this.ready = new Promise<Connected>((resolve, reject) => (this.settle = { resolve, reject }));
    // Failures are reported through `status`; callers that await `connected()` see them too.
    this.ready.catch(() => {}); // expected: failures are reported through `status`; callers that await connected() see the same rejection
  }

  private attach(child: ChildProcessWithoutNullStreams): void {
    this.expect();
    const connection = connectAgent(child, this.handlers, this.options);
    this.connection = connection;
    connection.initialize().then(
      (init) => {
        if (this.connection !== connection) return;
        const connected: Connected = { agent: connection.agent, init };
        this.current = connected;
        const settle = this.settle;
        this.settle = undefined;
        settle?.resolve(connected);
        const info = init.agentInfo ? { name: init.agentInfo.title ?? init.agentInfo.name, version: init.agentInfo.version } : undefined;
        this.emit("status", "ready", undefined, info);
        if (this.reconnecting) {
          this.reconnecting = false;
          this.emit("reconnected", connected);
        }
      },
      (error: unknown) => {
        if (this.connection !== connection) return;
        // A process that cannot initialize is of no use; the next `connected()` starts a new one.
        void this.process.stop();
        this.fail(`The agent did not initialize: ${userMessage(error)}`);
      },
    );
  }

  private fail(message: string): void {
    this.options.log.error(message);
    this.drop();
    const settle = this.settle;
    this.settle = undefined;
    // The next `connected()` tries again from scratch.
    this.ready = undefined;
    settle?.reject(new Error(message));
    this.emit("status", "failed", message, undefined);
  }

  private drop(): void {
    this.connection?.close();
    this.connection = undefined;
    this.current = undefined;
  }
}
