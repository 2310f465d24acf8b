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
  /** Every prompt running or waiting, in order; `label` says what it was (for /queue). */
  private readonly turns = new Set<{ controller: AbortController; label: string; started: boolean }>();
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
  enqueue<T>(requestSignal: AbortSignal, turn: (signal: AbortSignal, queued: boolean) => Promise<T>, label = ""): Promise<T> {
    if (this.closed) throw invalidRequest("this session was closed", { sessionId: this.id });
    const controller = new AbortController();
    const onRequestCancel = () => controller.abort(new Error("prompt request cancelled"));
    requestSignal.addEventListener("abort", onRequestCancel, { once: true });
    const queued = this.turns.size > 0;
    const entry = { controller, label, started: false };
    this.turns.add(entry);
    let resolve!: (value: T) => void;
    let reject!: (reason: unknown) => void;
    const result = new Promise<T>((ok, fail) => ((resolve = ok), (reject = fail)));
    const start = (): Promise<unknown> => {
      if (entry.started) return Promise.resolve();
      entry.started = true;
      const running = turn(controller.signal, queued);
      running.then(resolve, reject);
      return running.catch(() => {});
    };
    // A waiting prompt that is cancelled (or dropped by /queue clear) answers at once: its turn
    // sees the aborted signal and returns without running. Its place in the chain is then a no-op.
    controller.signal.addEventListener("abort", () => void start(), { once: true });
    this.tail = this.tail.then(start).finally(() => {
      this.turns.delete(entry);
      requestSignal.removeEventListener("abort", onRequestCancel);
    });
    return result;
  }

  /** What waits behind the running prompt, in order (/queue). */
  get waiting(): string[] {
    return [...this.turns].filter((entry) => !entry.started && !entry.controller.signal.aborted).map((entry) => entry.label);
  }

  /** Drops every waiting prompt (their requests answer `cancelled`); the running one goes on. */
  clearQueue(): number {
    let dropped = 0;
    for (const entry of this.turns) {
      if (entry.started || entry.controller.signal.aborted) continue;
      entry.controller.abort(new Error("removed from the queue"));
      dropped++;
    }
    return dropped;
  }

  /** A prompt of this session is running or waiting. */
  get busy(): boolean {
    return this.turns.size > 0;
  }

  cancel(): void {
    for (const turn of this.turns) turn.controller.abort(new Error("cancelled by the client"));
  }

  private unwatchMcp?: () => void;

  private mcpListener?: () => void;

  /** Calls `listener` when the session's MCP servers change (one listener: the latest client's; kept across /reload-mcp). */
  watchMcp(listener: () => void): void {
    this.unwatchMcp?.();
    this.mcpListener = listener;
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
    if (bridge && this.mcpListener) this.unwatchMcp = bridge.onChange(this.mcpListener);
    await previous?.close();
    // A reload (/reload-mcp): the client's command list follows the new servers' prompts.
    if (previous && !this.closed) this.mcpListener?.();
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
