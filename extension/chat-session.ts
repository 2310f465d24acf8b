// The chat's session lifecycle and turns over ACP: new / load / fork / delete, prompts with
// their queue, cancel, mode and config pickers, and routing `session/update` to the store.
// No vscode import: the workspace facts it needs are passed in, so it runs in tests against
// the real agent.
import * as acp from "@agentclientprotocol/sdk/unstable";
import type { Attachment, QueuedPrompt, SessionSummary } from "../webview-ui/state/types";
import type { Connected } from "./agent-host";
import type { ChatStore } from "./chat-store";
import { listSessions, searchSessions } from "./history";
import { errorMessage, userMessage, type Logger } from "./log";
import { buildPrompt, isCommandPrompt, summarize } from "./prompt-builder";

export interface ChatSessionDeps {
  store: ChatStore;
  connected(): Promise<Connected>;
  /** Working folder of new sessions and the history filter. */
  cwd(): string;
  /** The mode new sessions switch to, when not the agent's default. */
  initialMode(): string | undefined;
  readText: (uri: string) => Promise<string>;
  /** Answers every open permission request and held edit "cancelled". */
  cancelPending(): void;
  log: Logger;
}

export class ChatSession {
  private queue: QueuedPrompt[] = [];
  private busy = false;
  private nextQueued = 1;
  /** Updates for a session being opened that arrived before its `sessionOpened`. */
  private early = new Map<string, acp.SessionUpdate[]>();
  private opening = 0;
  private creating: Promise<string> | undefined;
  private forking = false;

  constructor(private readonly deps: ChatSessionDeps) {}

  private get store() {
    return this.deps.store;
  }

  get sessionId(): string | null {
    return this.store.state.sessionId;
  }

  /** `session/update` from the agent: only the open session's reach the transcript. */
  onUpdate(notification: acp.SessionNotification): void {
    if (notification.sessionId === this.sessionId) {
      this.store.dispatch({ type: "update", update: notification.update as never });
    } else if (this.opening > 0) {
      const list = this.early.get(notification.sessionId) ?? [];
      list.push(notification.update);
      this.early.set(notification.sessionId, list);
    }
  }

  /** Opens a new session unless one is open (or being opened: a prompt racing the first view). */
  async ensureSession(): Promise<string> {
    if (this.sessionId) return this.sessionId;
    this.creating ??= this.newChat().finally(() => (this.creating = undefined));
    return this.creating;
  }

  /** Reopens `sessionId` (the chat open before a window reload); a new chat when that fails. */
  async restore(sessionId: string, title?: string): Promise<string> {
    if (this.sessionId) return this.sessionId;
    this.creating ??= (async () => {
      await this.load(sessionId, title, { quiet: true });
      return this.store.state.sessionId === sessionId && this.store.state.items.length > 0 ? sessionId : this.newChat();
    })().finally(() => (this.creating = undefined));
    return this.creating;
  }

  async newChat(): Promise<string> {
    const { agent } = await this.deps.connected();
    await this.leaveCurrent();
    this.opening++;
    let response: acp.NewSessionResponse;
    try {
      response = await agent.request(acp.methods.agent.session.new, { cwd: this.deps.cwd(), mcpServers: [] });
    } finally {
      this.opening--;
    }
    this.store.dispatch({ type: "sessionOpened", sessionId: response.sessionId, loading: false, modes: response.modes as never, configOptions: response.configOptions as never });
    // Updates the agent sent right after its answer (commands, title) may have come first.
    const early = this.early.get(response.sessionId) ?? [];
    this.early.clear();
    for (const update of early) this.store.dispatch({ type: "update", update: update as never });
    const mode = this.deps.initialMode();
    if (mode && response.modes && response.modes.currentModeId !== mode && response.modes.availableModes.some((m) => m.id === mode)) {
      await this.setMode(mode);
    }
    return response.sessionId;
  }

  /** Loads a session: the transcript is cleared first, so the replay lands in it. */
  async load(sessionId: string, title?: string, options: { keepQueue?: boolean; quiet?: boolean } = {}): Promise<void> {
    const { agent } = await this.deps.connected();
    if (!options.keepQueue) await this.leaveCurrent();
    this.store.dispatch({ type: "sessionOpened", sessionId, title, loading: true });
    let loaded: acp.LoadSessionResponse | undefined;
    try {
      loaded = await agent.request(acp.methods.agent.session.load, { sessionId, cwd: this.deps.cwd(), mcpServers: [] });
    } catch (error) {
      if (options.quiet) this.deps.log.warn(`could not reopen session ${sessionId}: ${errorMessage(error)}`);
      else this.store.dispatch({ type: "notice", severity: "error", text: `Could not open the session: ${userMessage(error)}` });
    }
    this.store.dispatch({ type: "sessionLoaded", modes: loaded?.modes as never, configOptions: loaded?.configOptions as never });
    this.resumeQueue();
  }

  /**
   * A copy of the open session with its first `turns` prompts, opened in its place. One fork at a
   * time: a second request while one is under way (a double click, a held key) is dropped.
   */
  async fork(turns: number): Promise<void> {
    if (this.forking) return;
    this.forking = true;
    try {
      await this.forkOnce(turns);
    } finally {
      this.forking = false;
    }
  }

  private async forkOnce(turns: number): Promise<void> {
    const sessionId = this.sessionId;
    if (!sessionId) return;
    const { agent } = await this.deps.connected();
    try {
      const response = await agent.request(acp.methods.agent.session.fork, { sessionId, cwd: this.deps.cwd(), mcpServers: [], _meta: { "hermes/turns": turns } });
      const title = this.store.state.title;
      await this.load(response.sessionId, title ? `Fork of ${title}` : undefined);
    } catch (error) {
      this.store.dispatch({ type: "notice", severity: "error", text: `Could not fork the session: ${userMessage(error)}` });
    }
  }

  async delete(sessionId: string): Promise<void> {
    const { agent } = await this.deps.connected();
    try {
      await agent.request(acp.methods.agent.session.delete, { sessionId });
      if (sessionId === this.sessionId) this.store.dispatch({ type: "sessionClosed" });
    } catch (error) {
      this.store.dispatch({ type: "history", error: `Could not delete the session: ${userMessage(error)}` });
      return;
    }
    await this.refreshHistory();
  }

  async showHistory(open: boolean): Promise<void> {
    if (!open) {
      this.store.dispatch({ type: "history", open: false });
      return;
    }
    this.store.dispatch({ type: "history", open: true, loading: true });
    await this.refreshHistory();
  }

  /** The history searched by content; `ok: false` when the agent cannot (the panel then filters by title). */
  async searchHistory(query: string): Promise<{ ok: boolean; sessions: SessionSummary[] }> {
    if (!query.trim()) return { ok: true, sessions: [] };
    try {
      const { agent } = await this.deps.connected();
      return { ok: true, sessions: await searchSessions(agent, query, this.deps.cwd()) };
    } catch (error) {
      this.deps.log.warn(`history search failed: ${errorMessage(error)}`);
      return { ok: false, sessions: [] };
    }
  }

  private async refreshHistory(): Promise<void> {
    try {
      const { agent } = await this.deps.connected();
      const sessions = await listSessions(agent, this.deps.cwd());
      this.store.dispatch({ type: "history", sessions, loading: false });
    } catch (error) {
      this.store.dispatch({ type: "history", loading: false, error: `Could not list sessions: ${userMessage(error)}` });
    }
  }

  /** Sends now, or queues behind the running turn. Attachments go with it either way. */
  async prompt(text: string): Promise<void> {
    const attachments = this.store.state.attachments;
    if (attachments.length > 0) this.store.dispatch({ type: "attachmentsCleared" });
    if (this.busy || this.store.state.loading) {
      this.queue.push({ id: `q${this.nextQueued++}`, text, attachments });
      this.store.dispatch({ type: "queueChanged", queue: [...this.queue] });
      return;
    }
    await this.run(text, attachments);
  }

  cancelQueued(id: string): void {
    this.queue = this.queue.filter((q) => q.id !== id);
    this.store.dispatch({ type: "queueChanged", queue: [...this.queue] });
  }

  async cancel(): Promise<void> {
    this.deps.cancelPending();
    const sessionId = this.sessionId;
    if (!sessionId || !this.busy) return;
    try {
      const { agent } = await this.deps.connected();
      await agent.notify(acp.methods.agent.session.cancel, { sessionId });
    } catch (error) {
      this.deps.log.warn(`session/cancel failed: ${errorMessage(error)}`);
    }
  }

  async setMode(modeId: string): Promise<void> {
    const sessionId = this.sessionId;
    if (!sessionId) return;
    try {
      const { agent } = await this.deps.connected();
      await agent.request(acp.methods.agent.session.setMode, { sessionId, modeId });
      this.store.dispatch({ type: "update", update: { sessionUpdate: "current_mode_update", currentModeId: modeId } });
    } catch (error) {
      this.store.dispatch({ type: "notice", severity: "error", text: `Could not switch to ${modeId}: ${userMessage(error)}` });
    }
  }

  async setConfigOption(configId: string, value: string | boolean): Promise<void> {
    const sessionId = this.sessionId;
    if (!sessionId) return;
    try {
      const { agent } = await this.deps.connected();
      const params: acp.SetSessionConfigOptionRequest =
        typeof value === "boolean" ? { sessionId, configId, type: "boolean", value } : { sessionId, configId, value };
      const response = await agent.request(acp.methods.agent.session.setConfigOption, params);
      this.store.dispatch({ type: "configOptions", configOptions: response.configOptions });
    } catch (error) {
      this.store.dispatch({ type: "notice", severity: "error", text: `Could not change ${configId}: ${userMessage(error)}` });
    }
  }

  /** After the agent restarted: the same session again, with its history, and the queue. */
  async reload(): Promise<void> {
    const sessionId = this.sessionId;
    this.busy = false;
    if (sessionId) await this.load(sessionId, this.store.state.title, { keepQueue: true });
  }

  /** The agent went away mid-turn: the turn is over. */
  agentLost(): void {
    this.deps.cancelPending();
    if (this.store.state.turn.running) this.store.dispatch({ type: "turnEnded", stopReason: "cancelled" });
  }

  private async run(text: string, attachments: Attachment[]): Promise<void> {
    this.busy = true;
    let announced = false;
    try {
      const { agent, init } = await this.deps.connected();
      const sessionId = await this.ensureSession();
      this.store.dispatch({ type: "userPrompt", text, attachments: summarize(attachments), isCommand: isCommandPrompt(text, this.store.state.commands) });
      announced = true;
      const { blocks, skipped } = await buildPrompt(text, attachments, { promptCapabilities: init.agentCapabilities?.promptCapabilities, readText: this.deps.readText });
      for (const reason of skipped) this.store.dispatch({ type: "notice", severity: "warning", text: reason });
      this.store.dispatch({ type: "turnStarted", at: Date.now() });
      try {
        const response = await agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: blocks });
        if (this.sessionId === sessionId) this.store.dispatch({ type: "turnEnded", stopReason: response.stopReason });
      } catch (error) {
        if (this.sessionId === sessionId) {
          this.store.dispatch({ type: "notice", severity: "error", text: userMessage(error) });
          this.store.dispatch({ type: "turnEnded", stopReason: "error" });
        }
      }
    } catch (error) {
      // Could not even start (agent not available): the text stays in the transcript.
      if (!announced) this.store.dispatch({ type: "userPrompt", text, attachments: summarize(attachments), isCommand: false });
      this.store.dispatch({ type: "notice", severity: "error", text: userMessage(error) });
    } finally {
      this.busy = false;
    }
    this.resumeQueue();
  }

  /** Sends the next queued prompt when nothing runs. */
  private resumeQueue(): void {
    if (this.busy || this.store.state.loading) return;
    if (this.store.state.queue.length !== this.queue.length) this.store.dispatch({ type: "queueChanged", queue: [...this.queue] });
    const next = this.queue.shift();
    if (!next) return;
    this.store.dispatch({ type: "queueChanged", queue: [...this.queue] });
    void this.run(next.text, next.attachments);
  }

  /** Before switching sessions: stop the running turn and forget the old session's queue. */
  private async leaveCurrent(): Promise<void> {
    this.deps.cancelPending();
    if (this.busy) await this.cancel();
    this.queue = [];
  }
}
