// A live session of this process: the agent's session (which owns the state and the journal)
// plus what lives only while it is open: the MCP servers the client passed, its bridge, and the
// queue of prompts (one turn runs at a time; a prompt that arrives during a turn waits and runs
// right after). Front ends (the ACP edge) reach sessions only through this and the app layer.
import { closeBrowserOf } from "../tools/browser/open-browsers";
import type { AgentSession } from "../agent/session";
import type { McpBridge } from "../mcp/bridge";
import type { McpServerSpec } from "../mcp/server-spec";
import type { SessionWorktree } from "../sessions/types";
import { invalidRequest } from "../util/agent-error";

/** A prompt waiting behind the running turn, as /queue and the panel list it. */
export interface WaitingPrompt {
  /** The client's `_meta["hermes/queueId"]` when it gave one, else one of ours (`q<N>`). */
  id: string;
  label: string;
}

/** How a prompt's turn starts: whether it had to wait, and its queue id. */
export interface TurnStart {
  queued: boolean;
  id: string;
}

interface TurnEntry {
  id: string;
  controller: AbortController;
  label: string;
  started: boolean;
}

export class LiveSession {
  /** The session's MCP servers (none: undefined). */
  mcp?: McpBridge;
  /** Something the user should hear once the session is open (a worktree that could not be made). */
  openingNotice?: string;
  /** The git worktree the session works in (its tools' folder is inside it); absent: the client's folder. */
  worktree?: SessionWorktree;
  /**
   * A new session not prompted yet can still move into a worktree of its own or back
   * (the "isolation" config option): set by the hub when it creates one, cleared by the first turn.
   */
  isolationSwitchable = false;
  private tail: Promise<unknown> = Promise.resolve();
  /** Every prompt running or waiting, in order; `label` says what it was (for /queue). */
  private readonly turns = new Set<TurnEntry>();
  private closed = false;
  private nextId = 1;
  private readonly queueListeners = new Set<(waiting: WaitingPrompt[]) => void>();
  /** The list the listeners last saw (a change is told once). */
  private toldQueue = "[]";

  constructor(
    readonly agent: AgentSession,
    /** The servers the client named for this session (forks and child agents get them too). */
    public mcpServers: McpServerSpec[],
  ) {}

  get id(): string {
    return this.agent.id;
  }

  /**
   * Runs `turn` after every earlier prompt of this session has finished. `queued` says it
   * had to wait. Cancelling (session/cancel, $/cancel_request, close) aborts the running
   * turn and every waiting one. `id`: the client's name for this prompt (kept unless taken).
   */
  enqueue<T>(requestSignal: AbortSignal, turn: (signal: AbortSignal, start: TurnStart) => Promise<T>, options: { label?: string; id?: string } = {}): Promise<T> {
    if (this.closed) throw invalidRequest("this session was closed", { sessionId: this.id });
    this.isolationSwitchable = false;
    const controller = new AbortController();
    const onRequestCancel = () => controller.abort(new Error("prompt request cancelled"));
    requestSignal.addEventListener("abort", onRequestCancel, { once: true });
    const queued = this.turns.size > 0;
    // One that does not wait is never listed, even in the moment before its turn starts.
    const entry: TurnEntry = { id: this.freshId(options.id), controller, label: options.label ?? "", started: !queued };
    this.turns.add(entry);
    let resolve!: (value: T) => void;
    let reject!: (reason: unknown) => void;
    const result = new Promise<T>((ok, fail) => ((resolve = ok), (reject = fail)));
    let began = false;
    const start = (): Promise<unknown> => {
      if (began) return Promise.resolve();
      began = entry.started = true;
      this.tellQueue();
      const running = turn(controller.signal, { queued, id: entry.id });
      running.then(resolve, reject);
      return running.catch(() => {}); // expected: the turn's failure reaches its caller through `reject` above; the chain only goes on
    };
    // A waiting prompt that is cancelled (or dropped by /queue clear) answers at once: its turn
    // sees the aborted signal and returns without running. Its place in the chain is then a no-op.
    controller.signal.addEventListener("abort", () => void start(), { once: true });
    // A prompt that waited starts one macrotask after the turn before it ended, so that turn's
    // answer (written in that turn of the event loop) reaches the client before this one's echo.
    const next = queued ? () => new Promise<void>((ready) => setImmediate(ready)).then(start) : start;
    this.tail = this.tail.then(next).finally(() => {
      this.turns.delete(entry);
      requestSignal.removeEventListener("abort", onRequestCancel);
    });
    this.tellQueue();
    return result;
  }

  /** The client's id when it is usable and not in use; else the next of ours. */
  private freshId(requested: string | undefined): string {
    const taken = (id: string) => [...this.turns].some((entry) => entry.id === id);
    if (requested && !taken(requested)) return requested;
    let id: string;
    do id = `q${this.nextId++}`;
    while (taken(id));
    return id;
  }

  /** What waits behind the running prompt, in order (/queue). */
  get waiting(): WaitingPrompt[] {
    return [...this.turns].filter((entry) => !entry.started && !entry.controller.signal.aborted).map(({ id, label }) => ({ id, label }));
  }

  /**
   * Drops waiting prompts (their requests answer `cancelled`): the one named `id`, or every one;
   * the running one goes on. Returns how many were dropped.
   */
  clearQueue(id?: string): number {
    let dropped = 0;
    for (const entry of this.turns) {
      if (entry.started || entry.controller.signal.aborted || (id !== undefined && entry.id !== id)) continue;
      entry.controller.abort(new Error("removed from the queue"));
      dropped++;
    }
    if (dropped) this.tellQueue();
    return dropped;
  }

  /** Calls `listener` with the waiting prompts each time they change (the panel's queue). */
  watchQueue(listener: (waiting: WaitingPrompt[]) => void): () => void {
    this.queueListeners.add(listener);
    return () => this.queueListeners.delete(listener);
  }

  private tellQueue(): void {
    const waiting = this.waiting;
    const told = JSON.stringify(waiting);
    if (told === this.toldQueue) return;
    this.toldQueue = told;
    for (const listener of this.queueListeners) listener(waiting);
  }

  /** A prompt of this session is running or waiting. */
  get busy(): boolean {
    return this.turns.size > 0;
  }

  cancel(): void {
    for (const turn of this.turns) turn.controller.abort(new Error("cancelled by the client"));
    this.tellQueue();
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
    await Promise.all([this.setMcp(undefined), closeBrowserOf(this.id)]);
  }
}
