// Wires the chats together: one agent (process + ACP connection), the editor services it uses
// (files, terminals, the diff editor), the open chats (chat-tabs.ts: each its own ChatState,
// session, permission cards and edit reviews) and the panels attached to the one shown. Agent
// requests go to the chat of the session they name. Messages from the panels are received and
// handled in panel-messages.ts.
import type * as acp from "@agentclientprotocol/sdk/unstable";
import { stat } from "node:fs/promises";
import * as vscode from "vscode";
import type { ChatAction } from "../common/panel-state/actions";
import { WORKTREE_META } from "../common/worktree-meta";
import { AgentHost } from "./agent-host";
import { AgentProcess, agentCommand } from "./agent-process";
import { isAuthRequired, signInNotice, signInOffered } from "./auth-required";
import type { ChatSession } from "./chat-session";
import { notifyBackground } from "./background-notices";
import type { ChatStore, PanelSink } from "./chat-store";
import type { ChatTab } from "./chat-tab";
import { cardsById, routeToChats, tabOf } from "./chat-routing";
import { ChatTabs, reopenChats, savedChatsOf } from "./chat-tabs";
import { DiffDecisions } from "./diff-decisions";
import { DiffView } from "./diff-view";
import { EditorFiles, writeDocument } from "./editor-files";
import { EditorTerminals } from "./editor-terminals";
import { errorMessage, userMessage } from "./log";
import { KnowledgeActions } from "./knowledge";
import { OutputDocuments } from "./output-documents";
import { isSpillFile, sweepSpills } from "./output-spill";
import type { PermissionBroker } from "./permissions";
import type { QuestionBroker } from "./questions";
import { signIn, signOut } from "./sign-in";
import { agentSettings, initialMode, reviewEdits, traceEnabled, workspaceCwd, workspaceExtraRoots } from "./settings";
import { documentText, openLink } from "./workspace-actions";
import { discardWorktree, reviewAndApply } from "./worktree-review";

/** The chat open before this change of the extension (one chat per window): still read on a reload. */
const LAST_SESSION_KEY = "hermes.lastSessionId";
/** The open chats' sessions and the one shown (chat-tabs.ts `SavedChats`): a window reload reopens them. */
const OPEN_CHATS_KEY = "hermes.openChats";
/** After activation, when old spilled output is swept (not on the way to the first chat). */
const SPILL_SWEEP_DELAY_MS = 10_000;

/** A webview showing the chat: the sidebar view or an editor tab. */
export interface AttachedPanel extends PanelSink {
  readonly visible: boolean;
}

export class ChatController implements vscode.Disposable {
  /** The open chats; the panels show the active one. Every chat has its own state, cards and reviews. */
  readonly tabs: ChatTabs;
  readonly diffView = new DiffView();
  /** "Open diff" on edits, and deciding them from the diff editor (in the chat that holds the card). */
  readonly diffDecisions: DiffDecisions;
  readonly outputDocuments = new OutputDocuments();
  readonly terminals = new EditorTerminals();
  /** Which chat ran each editor-terminal command (its card and "Show all" are that chat's). */
  private readonly terminalTabs = new Map<string, ChatTab>();
  readonly agent: AgentHost;
  /** "What Hermes knows" (memory entries, skills): read and changed through the agent. */
  readonly knowledge: KnowledgeActions;
  private readonly panels = new Map<AttachedPanel, { ready: boolean; detach: () => void }>();
  private readonly disposables: vscode.Disposable[] = [];
  private started: Promise<void> | undefined;
  private turnRunning = false;
  /** The agent's last connection state, for chats opened after it. */
  private connection: Extract<ChatAction, { type: "connection" }> | undefined;

  constructor(
    readonly extensionUri: vscode.Uri,
    readonly log: vscode.LogOutputChannel,
    /** Remembers the open chats, so a window reload reopens them. */
    private readonly memento?: vscode.Memento,
  ) {
    const anyPanelVisible = () => [...this.panels.keys()].some((p) => p.visible);
    this.tabs = new ChatTabs(
      {
        connected: () => this.agent.connected(),
        cwd: workspaceCwd,
        extraRoots: workspaceExtraRoots,
        initialMode,
        readText: documentText,
        notify: async (title, options) => vscode.window.showInformationMessage(title, { modal: false }, ...options),
        panelVisible: anyPanelVisible,
        perHunk: () => reviewEdits() === "perHunk",
        writeDocument,
        landed: (edit) => {
          this.diffDecisions.landed(edit).catch((error: unknown) => this.log.warn(`showing the applied diff failed: ${errorMessage(error)}`));
        },
        openUrl: (url) => void openLink(url).catch((error: unknown) => log.warn(`opening ${new URL(url).host} failed: ${String(error)}`)),
        log,
      },
      {
        opened: (tab) => {
          if (this.connection) tab.store.dispatch(this.connection);
        },
        background: (tab, event) =>
          notifyBackground(tab, event, anyPanelVisible(), (id) => {
            if (this.tabs.get(id)) this.showChat(id);
          }),
        switched: (_from, to) => this.movePanels(to),
        listChanged: () => this.postChats(),
      },
    );
    // The diff editor decides the card it was opened on, in whichever chat holds it.
    const cards = cardsById(this.tabs);
    const tabs = this.tabs;
    this.diffDecisions = new DiffDecisions({ log, diffView: this.diffView, store: { onChange: (listener) => tabs.onChange(listener) }, ...cards });
    const process = new AgentProcess(() => agentCommand(extensionUri.fsPath, agentSettings()), log);
    this.agent = new AgentHost(
      process,
      {
        ...routeToChats(this.tabs, (tab) => new EditorFiles(tab.reviews, reviewEdits)),
        elicitationModes: this.tabs.active.questions.modes,
        terminal: {
          create: (params) => {
            const tab = tabOf(this.tabs, params.sessionId);
            const created = this.terminals.create(params, tab.terminalFeed);
            this.terminalTabs.set(created.terminalId, tab);
            return created;
          },
          output: (params) => this.withFullOutput(params.terminalId, this.terminals.output(params)),
          waitForExit: (params) => this.terminals.waitForExit(params),
          kill: (params) => this.terminals.kill(params),
          release: (params) => this.terminals.release(params),
        },
      },
      { log, trace: traceEnabled },
    );
    this.knowledge = new KnowledgeActions({ dispatch: (action) => this.dispatch(action), connected: () => this.agent.connected(), cwd: workspaceCwd, log });
    this.watchAgent();
    // Output spilled by windows long closed (or crashed): swept once activation is over.
    const sweep = setTimeout(() => sweepSpills(), SPILL_SWEEP_DELAY_MS);
    this.disposables.push(
      { dispose: () => clearTimeout(sweep) },
      this.diffView.register(),
      this.diffDecisions.register(),
      this.outputDocuments.register(),
      {
        dispose: this.tabs.onChange((_state, action) => {
          if (action.type === "turnStarted" || action.type === "turnEnded" || action.type === "sessionOpened" || action.type === "sessionLoaded") this.setTurnRunning(this.store.state.turn.running);
          if (action.type === "sessionOpened" || action.type === "sessionClosed") this.saveOpenChats();
        }),
      },
    );
  }

  /** The shown chat's state. */
  get store(): ChatStore {
    return this.tabs.active.store;
  }

  get session(): ChatSession {
    return this.tabs.active.session;
  }

  get permissions(): PermissionBroker {
    return this.tabs.active.permissions;
  }

  get questions(): QuestionBroker {
    return this.tabs.active.questions;
  }

  /** The shown chat's held edits (the agent's writes and a worktree review's files), by review id. */
  get reviews(): ChatTab["reviewsById"] {
    return this.tabs.active.reviewsById;
  }

  /** First view shown: start the agent and reopen the chats open before a reload, or open one (once). */
  start(): Promise<void> {
    this.started ??= (async () => {
      try {
        const saved = savedChatsOf(this.memento?.get<unknown>(OPEN_CHATS_KEY));
        const last = this.memento?.get<string>(LAST_SESSION_KEY);
        await reopenChats(this.tabs, saved ?? (last ? { sessions: [last], active: last } : undefined), this.log);
      } catch (error) {
        this.started = undefined;
        // No usable model yet: say what is missing and offer the sign-in, not a bare error. Every
        // panel that becomes ready tries again: the same notice is not stacked under itself.
        if (!isAuthRequired(error)) this.dispatch({ type: "notice", severity: "error", text: `Hermes could not start: ${userMessage(error)}` });
        else if (!signInOffered(this.store.state)) this.dispatch(signInNotice(error));
      }
    })();
    return this.started;
  }

  /**
   * A new chat in a tab of its own, shown; the others keep running. `worktree`: in its own git
   * worktree (`branch`: its name, else Hermes picks one).
   */
  async newChat(options: { worktree?: { branch?: string } } = {}): Promise<void> {
    // The shown chat is still empty (nothing said, nothing asked): it becomes the new one.
    const current = this.tabs.active;
    const reuse = !options.worktree && current.store.state.items.length === 0 && current.session.idle;
    const tab = reuse ? current : this.tabs.open();
    this.tabs.show(tab.id);
    const worktree = options.worktree ? { [WORKTREE_META]: options.worktree.branch ? { branch: options.worktree.branch } : true } : undefined;
    await tab.session.newChat(worktree);
    this.focusComposer();
  }

  /** Shows another open chat; the one left keeps running in the background. */
  showChat(id: string): void {
    this.tabs.show(id);
    this.saveOpenChats();
  }

  async closeChat(id: string): Promise<void> {
    const closing = this.tabs.get(id);
    for (const [terminalId, tab] of this.terminalTabs) if (tab === closing) this.terminalTabs.delete(terminalId);
    await this.tabs.close(id);
    this.saveOpenChats();
    // The last chat closed: the panel shows a fresh one, ready to type in.
    if (!this.store.state.sessionId) await this.session.ensureSession().catch((error: unknown) => this.log.warn(`opening a chat failed: ${errorMessage(error)}`));
  }

  /**
   * Opens a session from History: the chat showing it already, else the shown chat when it is
   * empty, else a new tab (a running chat is never replaced).
   */
  async openSession(sessionId: string, title?: string): Promise<void> {
    const open = this.tabs.bySession(sessionId);
    if (open) {
      this.showChat(open.id);
      if (this.store.state.history.open) this.dispatch({ type: "history", open: false });
      return;
    }
    const current = this.tabs.active;
    const tab = current.store.state.items.length === 0 && current.session.idle ? current : this.tabs.open();
    this.tabs.show(tab.id);
    await tab.session.load(sessionId, title);
  }

  /** "Review & apply" of the shown worktree chat (worktree-review.ts). */
  async reviewWorktree(): Promise<void> {
    const tab = this.tabs.active;
    await reviewAndApply(tab, () => this.agent.connected());
    this.tabs.announce();
  }

  /** "Discard" of the shown worktree chat: Hermes asks in the chat first. */
  async discardWorktree(): Promise<void> {
    await discardWorktree(this.tabs.active, () => this.agent.connected());
    this.tabs.announce();
  }

  async deleteSession(sessionId: string): Promise<void> {
    await this.tabs.deleteSession(sessionId);
    this.saveOpenChats();
  }

  private saveOpenChats(): void {
    if (!this.memento) return;
    const saved = this.tabs.saved();
    void this.memento.update(OPEN_CHATS_KEY, saved);
    void this.memento.update(LAST_SESSION_KEY, saved.active);
  }

  /** Every panel now shows `to`: it leaves the other chat's state and gets a snapshot of `to`'s. */
  private movePanels(to: ChatTab): void {
    for (const [panel, entry] of this.panels) {
      entry.detach();
      entry.detach = to.store.attach(panel);
      if (entry.ready) to.store.ready(panel);
    }
    this.setTurnRunning(to.store.state.turn.running);
  }

  /** The tab strip to every ready panel. */
  private postChats(): void {
    const message = { type: "chats" as const, chats: this.tabs.list(), active: this.tabs.active.id };
    for (const [panel, entry] of this.panels) if (entry.ready) panel.post(message);
  }

  dispatch(action: ChatAction): void {
    this.store.dispatch(action);
  }

  /** A webview joined; returns its detach. It gets state once it says `ready`. */
  attach(panel: AttachedPanel): () => void {
    this.panels.set(panel, { ready: false, detach: this.store.attach(panel) });
    return () => {
      this.panels.get(panel)?.detach();
      this.panels.delete(panel);
    };
  }

  /** The panel (re)built its view: the shown chat's whole state, then the tab strip. */
  panelReady(panel: AttachedPanel): void {
    const entry = this.panels.get(panel);
    if (entry) entry.ready = true;
    this.store.ready(panel);
    panel.post({ type: "chats", chats: this.tabs.list(), active: this.tabs.active.id });
  }

  /** "Show all" of an editor terminal's output: the whole of it, read-only in an editor. */
  async openTerminalOutput(terminalId: string, title: string): Promise<void> {
    const file = await this.terminalTabs.get(terminalId)?.outputSpill.file(terminalId);
    if (!file) {
      void vscode.window.showInformationMessage("The full output of that command is no longer available.");
      return;
    }
    await this.outputDocuments.open(file, title);
  }

  /**
   * "Show all" of a card whose whole output the agent spilled to a file: only the path the agent
   * named for that tool call (never one the panel sends), and only a plain file in the temp folder.
   */
  async openFullOutput(toolCallId: string): Promise<void> {
    const at = this.store.state.index[toolCallId];
    const item = at === undefined ? undefined : this.store.state.items[at];
    const file = item?.kind === "tool" ? item.fullOutput : undefined;
    if (!file || !(await isSpillFile(file))) {
      void vscode.window.showInformationMessage("The full output of that command is no longer available.");
      return;
    }
    await this.outputDocuments.open(file, item?.kind === "tool" ? item.title : "Command output");
  }

  /**
   * A terminal/output answer that lost its beginning names the spill file of the whole output
   * (`_meta["hermes/fullOutput"]`): Hermes puts it in the card and its journal, so "Show all"
   * still opens it after a window reload.
   */
  private async withFullOutput(terminalId: string, response: acp.TerminalOutputResponse): Promise<acp.TerminalOutputResponse> {
    if (!response.truncated) return response;
    const file = await this.terminalTabs.get(terminalId)?.outputSpill.file(terminalId);
    const size = file ? await stat(file).then((info) => info.size, () => undefined) : undefined;
    if (!file || size === undefined) return response;
    return { ...response, _meta: { ...response._meta, "hermes/fullOutput": { path: file, bytes: size } } };
  }

  /** Puts the caret in the composer of every attached panel. */
  focusComposer(): void {
    this.store.broadcast({ type: "focusComposer" });
  }

  /** "Sign in…" (the notice's button, or the command): then the chat starts as if nothing had failed. */
  async signIn(): Promise<void> {
    if (!(await signIn(() => this.agent.connected(), () => agentCommand(this.extensionUri.fsPath, agentSettings())))) return;
    if (this.store.state.sessionId) return;
    this.started = undefined;
    await this.start();
  }

  signOut(): Promise<void> {
    return signOut(() => this.agent.connected());
  }

  async restartAgent(): Promise<void> {
    // The connection goes first (restart() drops it at once): an open question must not be
    // answered "cancelled", which the agent would record as the user's decision. The agent
    // journals it as cut by the shutdown; the cards say the agent restarted.
    const restarted = this.agent.restart();
    for (const tab of this.tabs.all) tab.session.agentLost("Cancelled: the agent restarted before you answered");
    this.terminals.disposeAll();
    await restarted;
  }

  showLog(): void {
    this.log.show(true);
  }

  private watchAgent(): void {
    // Every chat shows the agent's state (a chat opened later gets the last one when it is made).
    this.agent.on("status", (status, message, agent) => {
      this.connection = { type: "connection", status, message, agent };
      for (const tab of this.tabs.all) tab.store.dispatch(this.connection);
    });
    this.agent.on("crashed", (_exit, delayMs) => {
      // Whatever the dead agent was waiting for can no longer be answered.
      for (const tab of this.tabs.all) tab.session.agentLost("Cancelled: the agent stopped unexpectedly before you answered");
      this.terminals.disposeAll();
      const text = `The agent stopped unexpectedly. Restarting in ${Math.round(delayMs / 1000)} s; the session will be reloaded.`;
      this.dispatch({ type: "notice", severity: "warning", text });
      void vscode.window.showWarningMessage(`Hermes: ${text}`, "Show Log").then((choice) => choice && this.showLog());
    });
    this.agent.on("reconnected", () => {
      for (const tab of this.tabs.all) tab.session.reload().catch((error: unknown) => this.log.error(`reloading the session failed: ${errorMessage(error)}`));
    });
  }

  private setTurnRunning(running: boolean): void {
    if (running === this.turnRunning) return;
    this.turnRunning = running;
    void vscode.commands.executeCommand("setContext", "hermes.turnRunning", running);
  }

  async shutdown(): Promise<void> {
    // The connection closes first (stop() drops it before it waits): a question still open must
    // not be answered "cancelled" on the way out. The agent journals it as cancelled by the
    // shutdown, and the reloaded window shows "Cancelled: the window reloaded".
    const stopped = this.agent.stop();
    for (const tab of this.tabs.all) tab.session.agentLost();
    this.terminals.disposeAll();
    await stopped;
  }

  dispose(): void {
    for (const disposable of this.disposables) disposable.dispose();
    this.terminals.disposeAll();
    // The open chats' outputs stay for a window reload, which reopens them.
    this.tabs.dispose();
  }
}
