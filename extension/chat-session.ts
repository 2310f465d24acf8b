// The chat's session lifecycle and turns over ACP: new / load / fork / delete, prompts with
// their queue, cancel, mode and config pickers, and routing `session/update` to the store.
// No vscode import: the workspace facts it needs are passed in, so it runs in tests against
// the real agent.
import * as acp from "@agentclientprotocol/sdk/unstable";
import type { Attachment, QueuedPrompt, SessionSummary } from "../webview-ui/state/types";
import type { Connected } from "./agent-host";
import { isAuthRequired, signInNotice } from "./auth-required";
import type { ChatStore } from "./chat-store";
import { fetchCheckpoints } from "./checkpoint-list";
import { listSessions, searchSessions } from "./history";
import { errorMessage, userMessage, type Logger } from "./log";
import { buildPrompt, isCommandPrompt, summarize } from "./prompt-builder";

export interface ChatSessionDeps {
  store: ChatStore;
  connected(): Promise<Connected>;
  /** Working folder of new sessions and the history filter. */
  cwd(): string;
  /** The multi-root workspace's other folders (ACP additionalDirectories), sent on every new, load and fork. */
  extraRoots?(): string[];
  /** The mode new sessions switch to, when not the agent's default. */
  initialMode(): string | undefined;
  readText: (uri: string) => Promise<string>;
  /** Answers every open permission request, question and held edit "cancelled"; `note`: why, when the user did not decide. */
  cancelPending(note?: string): void;
  /** A session was deleted (its spilled command output goes with it). */
  sessionDeleted?(sessionId: string): void;
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

  /**
   * The workspace's other folders, for an agent that advertised it takes them (ACP: clients gate
   * on the capability). Sent in full every time: an agent never restores them on its own.
   */
  private roots(init: acp.InitializeResponse): { additionalDirectories?: string[] } {
    const extra = this.deps.extraRoots?.().filter((root) => root !== this.deps.cwd()) ?? [];
    if (extra.length === 0 || !init.agentCapabilities?.sessionCapabilities?.additionalDirectories) return {};
    return { additionalDirectories: [...new Set(extra)] };
  }

  async newChat(): Promise<string> {
    const { agent, init } = await this.deps.connected();
    await this.leaveCurrent();
    this.opening++;
    let response: acp.NewSessionResponse;
    try {
      response = await agent.request(acp.methods.agent.session.new, { cwd: this.deps.cwd(), mcpServers: [], ...this.roots(init) });
    } finally {
      this.opening--;
    }
    this.store.dispatch({ type: "sessionOpened", sessionId: response.sessionId, loading: false, modes: response.modes as never, configOptions: response.configOptions as never });
    // Updates the agent sent right after its answer (commands, title) may have come first.
    const early = this.early.get(response.sessionId) ?? [];
    this.early.clear();
    for (const update of early) this.store.dispatch({ type: "update", update: update as never });
    void this.refreshCheckpoints();
    const mode = this.deps.initialMode();
    if (mode && response.modes && response.modes.currentModeId !== mode && response.modes.availableModes.some((m) => m.id === mode)) {
      await this.setMode(mode);
    }
    return response.sessionId;
  }

  /** Loads a session: the transcript is cleared first, so the replay lands in it. */
  async load(sessionId: string, title?: string, options: { keepQueue?: boolean; quiet?: boolean } = {}): Promise<void> {
    const { agent, init } = await this.deps.connected();
    if (!options.keepQueue) await this.leaveCurrent();
    this.store.dispatch({ type: "sessionOpened", sessionId, title, loading: true });
    let loaded: acp.LoadSessionResponse | undefined;
    try {
      loaded = await agent.request(acp.methods.agent.session.load, { sessionId, cwd: this.deps.cwd(), mcpServers: [], ...this.roots(init) });
    } catch (error) {
      if (options.quiet) this.deps.log.warn(`could not reopen session ${sessionId}: ${errorMessage(error)}`);
      else this.store.dispatch({ type: "notice", severity: "error", text: `Could not open the session: ${userMessage(error)}` });
    }
    this.store.dispatch({ type: "sessionLoaded", modes: loaded?.modes as never, configOptions: loaded?.configOptions as never });
    if (loaded) await this.refreshCheckpoints();
    this.resumeQueue();
  }

  /** Which prompts of the open session have a checkpoint (after a load, a new chat, each turn). */
  async refreshCheckpoints(): Promise<void> {
    const sessionId = this.sessionId;
    if (!sessionId) return;
    try {
      const { agent } = await this.deps.connected();
      const { state, problem } = await fetchCheckpoints(agent, sessionId);
      if (problem) this.deps.log.info(`no checkpoint list for ${sessionId}: ${problem}`);
      if (this.sessionId === sessionId) this.store.dispatch({ type: "checkpoints", checkpoints: state });
    } catch (error) {
      this.deps.log.warn(`listing checkpoints failed: ${errorMessage(error)}`);
    }
  }

  /**
   * A copy of the open session with its first `turns` prompts, opened in its place. One fork at a
   * time: a second request while one is under way (a double click, a held key) is dropped.
   */
  async fork(turns: number): Promise<boolean> {
    if (this.forking) return false;
    this.forking = true;
    try {
      return await this.forkOnce(turns);
    } finally {
      this.forking = false;
    }
  }

  /** True once the fork is open. */
  private async forkOnce(turns: number): Promise<boolean> {
    const sessionId = this.sessionId;
    if (!sessionId) return false;
    const { agent, init } = await this.deps.connected();
    try {
      const response = await agent.request(acp.methods.agent.session.fork, { sessionId, cwd: this.deps.cwd(), mcpServers: [], ...this.roots(init), _meta: { "hermes/turns": turns } });
      await this.load(response.sessionId, this.forkTitle());
      return this.sessionId === response.sessionId;
    } catch (error) {
      this.store.dispatch({ type: "notice", severity: "error", text: `Could not fork the session: ${userMessage(error)}` });
      return false;
    }
  }

  private forkTitle(): string | undefined {
    const title = this.store.state.title;
    // A fork of a fork is still "Fork of <the chat>", not "Fork of Fork of …".
    return title ? (title.startsWith("Fork of ") ? title : `Fork of ${title}`) : undefined;
  }

  async delete(sessionId: string): Promise<void> {
    const { agent } = await this.deps.connected();
    try {
      await agent.request(acp.methods.agent.session.delete, { sessionId });
      if (sessionId === this.sessionId) this.store.dispatch({ type: "sessionClosed" });
      this.deps.sessionDeleted?.(sessionId);
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

  /** Sends `text` alone (an edited message), not with the composer's attachments. */
  async send(text: string): Promise<void> {
    if (this.busy || this.store.state.loading) {
      this.queue.push({ id: `q${this.nextQueued++}`, text, attachments: [] });
      this.store.dispatch({ type: "queueChanged", queue: [...this.queue] });
      return;
    }
    await this.run(text, []);
  }

  /**
   * Guidance for the running turn (/steer), sent at once rather than queued; the agent shows it in
   * the transcript where the turn applies it. With no turn running it is an ordinary prompt.
   */
  async steer(text: string): Promise<void> {
    const sessionId = this.sessionId;
    if (!sessionId || !this.busy) return this.prompt(text);
    try {
      const { agent } = await this.deps.connected();
      await agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: `/steer ${text}` }] });
    } catch (error) {
      this.store.dispatch({ type: "notice", severity: "error", text: `Could not steer the turn: ${userMessage(error)}` });
    }
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

  /** The agent went away mid-turn: the turn is over; `note` says why on the cards it left open. */
  agentLost(note?: string): void {
    this.deps.cancelPending(note);
    if (this.store.state.turn.running) this.store.dispatch({ type: "turnEnded", stopReason: "cancelled" });
  }

  /**
   * Runs `text` (a command, or a prompt without the composer's attachments) now and gives its
   * answer; undefined when a turn is running or it failed (the transcript says why).
   */
  async runNow(text: string): Promise<acp.PromptResponse | undefined> {
    if (this.busy || this.store.state.loading) {
      this.store.dispatch({ type: "notice", severity: "warning", text: "Wait for the current turn to finish (or stop it) first." });
      return undefined;
    }
    return this.run(text, []);
  }

  /** True while a turn runs (or a session is loading): checkpoint actions wait. */
  get idle(): boolean {
    return !this.busy && !this.store.state.loading;
  }

  private async run(text: string, attachments: Attachment[]): Promise<acp.PromptResponse | undefined> {
    this.busy = true;
    let announced = false;
    let answer: acp.PromptResponse | undefined;
    try {
      const { agent, init } = await this.deps.connected();
      const sessionId = await this.ensureSession();
      this.store.dispatch({ type: "userPrompt", text, attachments: summarize(attachments), isCommand: isCommandPrompt(text, this.store.state.commands) });
      announced = true;
      const items = this.store.state.items;
      const promptItem = items[items.length - 1];
      const { blocks, skipped } = await buildPrompt(text, attachments, { promptCapabilities: init.agentCapabilities?.promptCapabilities, readText: this.deps.readText });
      for (const reason of skipped) this.store.dispatch({ type: "notice", severity: "warning", text: reason });
      this.store.dispatch({ type: "turnStarted", at: Date.now() });
      try {
        const response = await agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: blocks });
        answer = response;
        if (this.sessionId === sessionId) {
          // The agent's number for this turn (a skill invocation looks like a command but is a turn).
          const turn = response._meta?.["hermes/turn"];
          if (typeof turn === "number" && promptItem?.kind === "user") this.store.dispatch({ type: "userTurn", id: promptItem.id, turn });
          this.store.dispatch({ type: "turnEnded", stopReason: response.stopReason });
        }
      } catch (error) {
        if (this.sessionId === sessionId) {
          this.store.dispatch({ type: "notice", severity: "error", text: userMessage(error) });
          this.store.dispatch({ type: "turnEnded", stopReason: "error" });
        }
      }
    } catch (error) {
      // Could not even start (agent not available, no model yet): the text stays in the transcript.
      if (!announced) this.store.dispatch({ type: "userPrompt", text, attachments: summarize(attachments), isCommand: false });
      this.store.dispatch(isAuthRequired(error) ? signInNotice(error) : { type: "notice", severity: "error", text: userMessage(error) });
    } finally {
      this.busy = false;
    }
    const forked = answer?._meta?.["hermes/forkedSessionId"];
    if (typeof forked === "string" && forked !== this.sessionId) await this.openRewound(forked);
    else await this.refreshCheckpoints();
    this.resumeQueue();
    return answer;
  }

  /** A rewind (`/rewind`, `/rollback --conversation`) forked the chat: the panel shows the new branch. */
  private async openRewound(sessionId: string): Promise<void> {
    await this.load(sessionId, this.forkTitle(), { keepQueue: true });
    if (this.sessionId !== sessionId) return;
    this.store.dispatch({ type: "notice", severity: "info", text: "Rewound: this is a new branch of the chat. The previous chat is unchanged in History." });
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
