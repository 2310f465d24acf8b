// The chat's session lifecycle and turns over ACP: new / load / fork / delete, prompts with
// their queue, cancel, mode and config pickers, and routing `session/update` to the store.
// No vscode import: the workspace facts it needs are passed in, so it runs in tests against
// the real agent.
import * as acp from "@agentclientprotocol/sdk/unstable";
import { isQueueId, QUEUE_CAPABILITY, QUEUE_ID_META, QUEUE_LIST_METHOD, QUEUE_REMOVE_METHOD } from "../common/queue-wire";
import type { Attachment, SessionSummary } from "../common/panel-state/types";
import type { Connected } from "./agent-host";
import { isAuthRequired, signInNotice } from "./auth-required";
import type { ChatStore } from "./chat-store";
import { fetchCheckpoints } from "./checkpoint-list";
import { listSessions, searchSessions } from "./history";
import { errorMessage, userMessage, type Logger } from "./log";
import { buildPrompt, isCommandPrompt, summarize } from "./prompt-builder";
import { PromptQueue, queueChangedParams } from "./prompt-queue";

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
  /** The `_meta` of the agent's answer to opening a session (new, load): its worktree, if any. */
  sessionMeta?(meta: Record<string, unknown> | null | undefined): void;
  log: Logger;
}

/** A command whose answer may switch the chat to a fork (`/rewind`, `/rollback … --conversation`). */
const mayFork = (text: string) => /^\/(rewind|rollback)\b/i.test(text.trim());

export class ChatSession {
  private readonly queue: PromptQueue;
  /** Prompt requests sent and not answered yet: the running turn, queued prompts (busy while any). */
  private readonly outstanding = new Set<string>();
  /** The prompt whose turn the transcript shows running (a run's key, or a queued prompt's id). */
  private shownTurn: string | undefined;
  private nextRun = 1;
  /** The agent keeps the queue itself (Hermes: `agentCapabilities._meta["hermes/queue"]`). */
  private agentQueues = false;
  /** A command that may switch the chat to a fork runs: prompts typed meanwhile wait here. */
  private forkingCommand = false;
  /** Prompt requests go out in the order they were typed (each waits for the one before to be sent). */
  private lastSend: Promise<unknown> = Promise.resolve();
  /** Updates for a session being opened that arrived before its `sessionOpened`. */
  private early = new Map<string, acp.SessionUpdate[]>();
  private opening = 0;
  private creating: Promise<string> | undefined;
  private forking = false;

  constructor(private readonly deps: ChatSessionDeps) {
    this.queue = new PromptQueue((queue) => this.store.dispatch({ type: "queueChanged", queue }));
  }

  private get busy(): boolean {
    return this.outstanding.size > 0;
  }

  /** The agent, and whether it queues prompts itself. */
  private async connection(): Promise<Connected> {
    const connected = await this.deps.connected();
    this.agentQueues = !!connected.init.agentCapabilities?._meta?.[QUEUE_CAPABILITY];
    return connected;
  }

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
      this.noticeQueuedStart(notification.update);
    } else if (this.opening > 0) {
      const list = this.early.get(notification.sessionId) ?? [];
      list.push(notification.update);
      this.early.set(notification.sessionId, list);
    }
  }

  /** The echo of a prompt this panel queued: its turn starts now (the agent's queue reached it). */
  private noticeQueuedStart(update: acp.SessionUpdate): void {
    if (update.sessionUpdate !== "user_message_chunk") return;
    const id = update._meta?.[QUEUE_ID_META];
    if (!isQueueId(id)) return;
    const items = this.store.state.items;
    const last = items[items.length - 1];
    // Only its first chunk starts it; the others (attachments) join the same message.
    if (!this.queue.started(id, last?.kind === "user" ? last.id : undefined)) return;
    this.shownTurn = id;
    this.store.dispatch({ type: "turnStarted", at: Date.now() });
  }

  /** `_hermes/queue/changed`: the agent's queue for a session; the open one's is shown. */
  onQueueChanged(raw: unknown): void {
    const params = queueChangedParams(raw);
    if (!params) return this.deps.log.warn(`ignored a malformed queue update: ${JSON.stringify(raw)?.slice(0, 200)}`);
    if (params.sessionId === this.sessionId) this.queue.agentChanged(params.prompts);
  }

  /**
   * The session prompts go to: the one being opened (New Chat clicked, a reload's restore), else
   * the open one, else a new one. A prompt typed while a new chat opens belongs to that chat.
   */
  async ensureSession(): Promise<string> {
    if (this.creating) return this.creating;
    if (this.sessionId) return this.sessionId;
    return this.newChat();
  }

  /** Reopens `sessionId` (the chat open before a window reload); a new chat when that fails. */
  async restore(sessionId: string, title?: string): Promise<string> {
    if (this.creating) return this.creating;
    if (this.sessionId) return this.sessionId;
    return this.opened(
      (async () => {
        await this.load(sessionId, title, { quiet: true });
        return this.store.state.sessionId === sessionId && this.store.state.items.length > 0 ? sessionId : this.openNew();
      })(),
    );
  }

  /** Marks a chat as being opened until `opening` settles: prompts typed meanwhile wait for it. */
  private opened(opening: Promise<string>): Promise<string> {
    this.creating = opening;
    const settled = () => {
      if (this.creating === opening) this.creating = undefined;
    };
    opening.then(settled, settled);
    return opening;
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

  /**
   * New Chat: one at a time (a second click while one opens gets the same chat). `meta`: the
   * session/new `_meta` (`"hermes/worktree"`: the chat in its own git worktree).
   */
  async newChat(meta?: Record<string, unknown>): Promise<string> {
    return this.creating ?? this.opened(this.openNew(meta));
  }

  private async openNew(meta?: Record<string, unknown>): Promise<string> {
    const { agent, init } = await this.connection();
    await this.leaveCurrent();
    this.opening++;
    let response: acp.NewSessionResponse;
    try {
      response = await agent.request(acp.methods.agent.session.new, { cwd: this.deps.cwd(), mcpServers: [], ...this.roots(init), ...(meta ? { _meta: meta } : {}) });
    } finally {
      this.opening--;
    }
    this.deps.sessionMeta?.(response._meta);
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
    const { agent, init } = await this.connection();
    if (!options.keepQueue) await this.leaveCurrent();
    this.store.dispatch({ type: "sessionOpened", sessionId, title, loading: true });
    // Kept: what waits here is shown again (the agent's list is the new session's, told by the agent).
    if (options.keepQueue) this.queue.clearAgentList();
    let loaded: acp.LoadSessionResponse | undefined;
    try {
      loaded = await agent.request(acp.methods.agent.session.load, { sessionId, cwd: this.deps.cwd(), mcpServers: [], ...this.roots(init) });
    } catch (error) {
      if (options.quiet) this.deps.log.warn(`could not reopen session ${sessionId}: ${errorMessage(error)}`);
      else this.store.dispatch({ type: "notice", severity: "error", text: `Could not open the session: ${userMessage(error)}` });
    }
    if (loaded) this.deps.sessionMeta?.(loaded._meta);
    this.store.dispatch({ type: "sessionLoaded", modes: loaded?.modes as never, configOptions: loaded?.configOptions as never });
    if (loaded) await this.refreshCheckpoints();
    this.resumeQueue();
  }

  /** Which prompts of the open session have a checkpoint (after a load, a new chat, each turn). */
  async refreshCheckpoints(): Promise<void> {
    const sessionId = this.sessionId;
    if (!sessionId) return;
    try {
      const { agent } = await this.connection();
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
    const { agent, init } = await this.connection();
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
    const { agent } = await this.connection();
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
      const { agent } = await this.connection();
      return { ok: true, sessions: await searchSessions(agent, query, this.deps.cwd()) };
    } catch (error) {
      this.deps.log.warn(`history search failed: ${errorMessage(error)}`);
      return { ok: false, sessions: [] };
    }
  }

  private async refreshHistory(): Promise<void> {
    try {
      const { agent } = await this.connection();
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
    await this.submit(text, attachments);
  }

  /** Sends `text` alone (an edited message), not with the composer's attachments. */
  async send(text: string): Promise<void> {
    await this.submit(text, []);
  }

  private async submit(text: string, attachments: Attachment[]): Promise<void> {
    if (this.agentQueues && /^\/queue(\s|$)/i.test(text.trim())) return this.queueCommand(text.trim());
    // A chat is being opened: the prompt is its first (run waits for it), not the old chat's.
    if (this.creating) {
      await this.run(text, attachments);
      return;
    }
    const sessionId = this.sessionId;
    if (this.store.state.loading || this.forkingCommand || (this.busy && (!this.agentQueues || !sessionId))) {
      this.queue.hold(text, attachments);
      return;
    }
    if (!this.busy || !sessionId) {
      await this.run(text, attachments);
      return;
    }
    this.sendQueued(sessionId, text, attachments);
  }

  /**
   * A prompt for the agent's queue (it runs after the turns before it): named, so its echo says
   * when it starts; its request answers when it has run, or `cancelled` when it was dropped.
   */
  private sendQueued(sessionId: string, text: string, attachments: Attachment[]): void {
    const prompt = this.queue.send(sessionId, text, attachments);
    this.outstanding.add(prompt.id);
    this.afterEarlierSends(async () => {
      // Removed before it went out: it never does.
      if (prompt.removed) return { response: Promise.resolve<acp.PromptResponse>({ stopReason: "cancelled" }) };
      const { agent, init } = await this.connection();
      const { blocks, skipped } = await buildPrompt(text, attachments, { promptCapabilities: init.agentCapabilities?.promptCapabilities, readText: this.deps.readText });
      for (const reason of skipped) this.store.dispatch({ type: "notice", severity: "warning", text: reason });
      return { response: agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: blocks, _meta: { [QUEUE_ID_META]: prompt.id } }) };
    })
      .then(({ response }) => response)
      .then(
        (response) => this.queuedAnswered(prompt.id, response),
        (error: unknown) => this.queuedAnswered(prompt.id, undefined, error),
      )
      .catch((error: unknown) => this.deps.log.error(`a queued prompt's answer: ${errorMessage(error)}`));
  }

  private async queuedAnswered(id: string, response: acp.PromptResponse | undefined, error?: unknown): Promise<void> {
    this.outstanding.delete(id);
    const prompt = this.queue.get(id);
    // Forgotten: another session was opened meanwhile.
    if (!prompt) return;
    if (!prompt.started) {
      // It never ran. Removed by the user: gone. Stopped with the turn before it (session/cancel
      // drops the agent's queue), refused or lost with the agent: it waits here and is sent again
      // once nothing runs, as the next prompt (nothing typed is lost).
      this.queue.answered(id, !prompt.removed && (response === undefined || response.stopReason === "cancelled"));
      if (error !== undefined) this.deps.log.warn(`a queued prompt was not taken: ${errorMessage(error)}`);
      this.resumeQueue();
      return;
    }
    this.queue.answered(id);
    if (response) await this.turnAnswered(id, prompt.sessionId, prompt.itemId, response);
    else if (this.sessionId === prompt.sessionId) this.turnFailed(id, error);
    this.resumeQueue();
  }

  /** `/queue` and `/queue clear` typed in the panel: the agent's queue, the one shown above the composer. */
  private async queueCommand(text: string): Promise<void> {
    const argument = text.slice("/queue".length).trim().toLowerCase();
    const say = (severity: "info" | "error", message: string) => this.store.dispatch({ type: "notice", severity, text: message });
    if (argument && argument !== "clear") return say("error", `/queue takes no argument or "clear", not "${argument}".`);
    const sessionId = this.sessionId;
    if (!sessionId) {
      this.queue.clear();
      return say("info", argument ? "The queue is empty: nothing to clear." : "The queue is empty.");
    }
    try {
      // After the prompts typed before it reached the agent: the list has them.
      const { answer } = await this.afterEarlierSends(async () => {
        const { agent } = await this.connection();
        // Every prompt typed before is with the agent now: its answer `cancelled` is final.
        if (argument) this.queue.clear();
        return { answer: agent.request<{ text?: unknown }>(argument ? QUEUE_REMOVE_METHOD : QUEUE_LIST_METHOD, { sessionId }) };
      });
      const { text: said } = await answer;
      // The agent's listing is written for a chat (`code`); a notice shows plain text.
      say("info", typeof said === "string" ? said.replace(/`([^`\n]+)`/g, "$1") : "Done.");
    } catch (error) {
      say("error", `/queue failed: ${userMessage(error)}`);
    }
  }

  /**
   * Guidance for the running turn (/steer), sent at once rather than queued; the agent shows it in
   * the transcript where the turn applies it. With no turn running it is an ordinary prompt.
   */
  async steer(text: string): Promise<void> {
    const sessionId = this.sessionId;
    if (!sessionId || !this.busy) return this.prompt(text);
    try {
      const { agent } = await this.connection();
      await agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: `/steer ${text}` }] });
    } catch (error) {
      this.store.dispatch({ type: "notice", severity: "error", text: `Could not steer the turn: ${userMessage(error)}` });
    }
  }

  /** Drops every queued prompt: the agent's queue (as `/queue clear`, which says how many) and any held here. */
  async clearQueue(): Promise<void> {
    if (this.agentQueues && this.sessionId) return this.queueCommand("/queue clear");
    this.queue.clear();
  }

  /** Removes a queued prompt: one held here at once, one in the agent's queue through `_hermes/queue/remove`. */
  cancelQueued(id: string): void {
    if (this.queue.remove(id)) return;
    const sessionId = this.sessionId;
    if (!sessionId) return;
    this.afterEarlierSends(async () => {
      const { agent } = await this.connection();
      return { answer: agent.request(QUEUE_REMOVE_METHOD, { sessionId, id }) };
    })
      .then(({ answer }) => answer)
      .catch((error: unknown) => this.deps.log.warn(`removing a queued prompt failed: ${errorMessage(error)}`));
  }

  async cancel(): Promise<void> {
    this.deps.cancelPending();
    const sessionId = this.sessionId;
    if (!sessionId || !this.busy) return;
    try {
      const { agent } = await this.connection();
      await agent.notify(acp.methods.agent.session.cancel, { sessionId });
    } catch (error) {
      this.deps.log.warn(`session/cancel failed: ${errorMessage(error)}`);
    }
  }

  async setMode(modeId: string): Promise<void> {
    const sessionId = this.sessionId;
    if (!sessionId) return;
    try {
      const { agent } = await this.connection();
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
      const { agent } = await this.connection();
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
    this.outstanding.clear();
    this.shownTurn = undefined;
    if (sessionId) await this.load(sessionId, this.store.state.title, { keepQueue: true });
  }

  /** The agent went away mid-turn: the turn is over; `note` says why on the cards it left open. */
  agentLost(note?: string): void {
    this.deps.cancelPending(note);
    this.shownTurn = undefined;
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
    const key = `run-${this.nextRun++}`;
    this.outstanding.add(key);
    const forking = mayFork(text);
    if (forking) this.forkingCommand = true;
    let announced = false;
    let answer: acp.PromptResponse | undefined;
    try {
      const sent = await this.afterEarlierSends(async () => {
        const { agent, init } = await this.connection();
        const sessionId = await this.ensureSession();
        this.store.dispatch({ type: "userPrompt", text, attachments: summarize(attachments), isCommand: isCommandPrompt(text, this.store.state.commands) });
        announced = true;
        const items = this.store.state.items;
        const promptItem = items[items.length - 1];
        const { blocks, skipped } = await buildPrompt(text, attachments, { promptCapabilities: init.agentCapabilities?.promptCapabilities, readText: this.deps.readText });
        for (const reason of skipped) this.store.dispatch({ type: "notice", severity: "warning", text: reason });
        this.store.dispatch({ type: "turnStarted", at: Date.now() });
        this.shownTurn = key;
        return { sessionId, itemId: promptItem?.kind === "user" ? promptItem.id : undefined, response: agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: blocks }) };
      });
      try {
        answer = await sent.response;
      } catch (error) {
        if (this.sessionId === sent.sessionId) this.turnFailed(key, error);
      }
      if (answer) await this.turnAnswered(key, sent.sessionId, sent.itemId, answer, () => (forking ? (this.forkingCommand = false) : undefined));
    } catch (error) {
      // Could not even start (agent not available, no model yet): the text stays in the transcript.
      if (!announced) this.store.dispatch({ type: "userPrompt", text, attachments: summarize(attachments), isCommand: false });
      this.store.dispatch(isAuthRequired(error) ? signInNotice(error) : { type: "notice", severity: "error", text: userMessage(error) });
    } finally {
      this.outstanding.delete(key);
      if (forking) this.forkingCommand = false;
    }
    if (!answer) await this.refreshCheckpoints();
    this.resumeQueue();
    return answer;
  }

  /**
   * A prompt's turn answered: its number on its message, the turn's end (unless a later turn
   * already shows), then the rewound fork it made or the refreshed checkpoints. `beforeOpening`
   * runs before a fork is opened (a rewind's held prompts go to the fork).
   */
  private async turnAnswered(key: string, sessionId: string, itemId: string | undefined, response: acp.PromptResponse, beforeOpening?: () => void): Promise<void> {
    if (this.sessionId === sessionId) {
      // The agent's number for this turn (a skill invocation looks like a command but is a turn).
      const turn = response._meta?.["hermes/turn"];
      if (typeof turn === "number" && itemId) this.store.dispatch({ type: "userTurn", id: itemId, turn });
      if (this.shownTurn === key) {
        this.shownTurn = undefined;
        this.store.dispatch({ type: "turnEnded", stopReason: response.stopReason });
      }
    }
    const forked = response._meta?.["hermes/forkedSessionId"];
    if (typeof forked === "string" && forked !== this.sessionId) {
      this.outstanding.delete(key);
      beforeOpening?.();
      await this.openRewound(forked);
    } else await this.refreshCheckpoints();
  }

  private turnFailed(key: string, error: unknown): void {
    this.store.dispatch({ type: "notice", severity: "error", text: userMessage(error) });
    if (this.shownTurn !== key) return;
    this.shownTurn = undefined;
    this.store.dispatch({ type: "turnEnded", stopReason: "error" });
  }

  /** Runs `send` (which puts a prompt request on the wire) after every earlier prompt's was put there. */
  private afterEarlierSends<T>(send: () => Promise<T>): Promise<T> {
    const sent = this.lastSend.then(send);
    this.lastSend = sent.catch(() => undefined); // expected: only orders the sends; the caller gets the same rejection from `sent`
    return sent;
  }

  /** A rewind (`/rewind`, `/rollback --conversation`) forked the chat: the panel shows the new branch. */
  private async openRewound(sessionId: string): Promise<void> {
    await this.load(sessionId, this.forkTitle(), { keepQueue: true });
    if (this.sessionId !== sessionId) return;
    this.store.dispatch({ type: "notice", severity: "info", text: "Rewound: this is a new branch of the chat. The previous chat is unchanged in History." });
  }

  /**
   * Sends what waits here once nothing runs and no session is loading: the first as the next
   * prompt, the rest to the agent's queue behind it (an agent that does not queue: one at a time,
   * each when the one before has ended).
   */
  private resumeQueue(): void {
    if (this.busy || this.store.state.loading || this.forkingCommand || this.queue.heldCount === 0) return;
    if (!this.agentQueues) {
      const next = this.queue.takeNextHeld();
      if (next) void this.run(next.text, next.attachments);
      return;
    }
    for (const prompt of this.queue.takeHeld()) void this.submit(prompt.text, prompt.attachments);
  }

  /** Before switching sessions: stop the running turn and forget the old session's queue. */
  private async leaveCurrent(): Promise<void> {
    this.deps.cancelPending();
    this.queue.forget();
    this.shownTurn = undefined;
    if (this.busy) await this.cancel();
  }
}
