// An ACP session: the agent's session (which owns the state and the journal) plus what only
// the protocol edge knows: the MCP servers the client passed and the queue of prompts (ACP
// runs one turn at a time; a prompt that arrives during a turn waits and runs right after).
import type * as acp from "@agentclientprotocol/sdk/unstable";
import type { AgentSession } from "../agent/session";
import type { McpBridge } from "../mcp/bridge";
import { invalidRequest } from "../util/agent-error";

export class AcpSession {
  /** The session's MCP servers (none: undefined). */
  mcp?: McpBridge;
  private tail: Promise<unknown> = Promise.resolve();
  private readonly turns = new Set<AbortController>();
  private closed = false;

  constructor(
    readonly agent: AgentSession,
    public mcpServers: acp.McpServer[],
  ) {}

  get id(): string {
    return this.agent.id;
  }

  /**
   * Runs `turn` after every earlier prompt of this session has finished. `queued` says it
   * had to wait. Cancelling (session/cancel, $/cancel_request, close) aborts the running
   * turn and every waiting one.
   */
  enqueue<T>(requestSignal: AbortSignal, turn: (signal: AbortSignal, queued: boolean) => Promise<T>): Promise<T> {
    if (this.closed) throw invalidRequest("this session was closed", { sessionId: this.id });
    const controller = new AbortController();
    const onRequestCancel = () => controller.abort(new Error("prompt request cancelled"));
    requestSignal.addEventListener("abort", onRequestCancel, { once: true });
    const queued = this.turns.size > 0;
    this.turns.add(controller);
    const run = this.tail.then(() => turn(controller.signal, queued));
    this.tail = run.catch(() => {}).finally(() => {
      this.turns.delete(controller);
      requestSignal.removeEventListener("abort", onRequestCancel);
    });
    return run;
  }

  /** A prompt of this session is running or waiting. */
  get busy(): boolean {
    return this.turns.size > 0;
  }

  cancel(): void {
    for (const turn of this.turns) turn.abort(new Error("cancelled by the client"));
  }

  private unwatchMcp?: () => void;

  /** Calls `listener` when the session's MCP servers change (one listener: the latest client's). */
  watchMcp(listener: () => void): void {
    this.unwatchMcp?.();
    this.unwatchMcp = this.mcp?.onChange(listener);
  }

  /**
   * Uses `bridge` for this session's MCP tools from now on (closing the one it replaces). A
   * bridge that finishes connecting after the session was closed (session/close during its
   * load) is closed at once, or its servers would run until the agent exits.
   */
  async setMcp(bridge: McpBridge | undefined): Promise<void> {
    if (this.closed && bridge) return bridge.close();
    this.unwatchMcp?.();
    this.unwatchMcp = undefined;
    const previous = this.mcp;
    this.mcp = bridge;
    this.agent.tools.setExtra(bridge);
    await previous?.close();
  }

  private readonly closeHooks = new Set<() => void>();

  /** Calls `hook` when the session closes (work beside its turns: the learning review). */
  onClose(hook: () => void): () => void {
    this.closeHooks.add(hook);
    return () => this.closeHooks.delete(hook);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Cancels everything, refuses new prompts and stops its MCP servers (session/close, session/delete). */
  async close(): Promise<void> {
    this.closed = true;
    this.cancel();
    for (const hook of this.closeHooks) hook();
    await this.setMcp(undefined);
  }
}
