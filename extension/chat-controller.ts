// Wires the chat together: one agent (process + ACP connection), the editor services it uses
// (files, terminals, permissions, edit review), the authoritative ChatState and the panels
// attached to it. Messages from the panels are received and handled in panel-messages.ts.
import type * as acp from "@agentclientprotocol/sdk/unstable";
import { stat } from "node:fs/promises";
import * as vscode from "vscode";
import type { ChatAction } from "../common/panel-state/actions";
import { AgentHost } from "./agent-host";
import { AgentProcess, agentCommand } from "./agent-process";
import { isAuthRequired, signInNotice, signInOffered } from "./auth-required";
import { ChatSession } from "./chat-session";
import { ChatStore, type PanelSink } from "./chat-store";
import { DiffDecisions } from "./diff-decisions";
import { DiffView } from "./diff-view";
import { EditReviews } from "./edit-review";
import { EditorFiles, writeDocument } from "./editor-files";
import { EditorTerminals } from "./editor-terminals";
import { errorMessage, userMessage } from "./log";
import { KnowledgeActions } from "./knowledge";
import { OutputDocuments } from "./output-documents";
import { isSpillFile, OutputSpill, sweepSpills } from "./output-spill";
import { PermissionBroker } from "./permissions";
import { QuestionBroker } from "./questions";
import { signIn, signOut } from "./sign-in";
import { TerminalFeed } from "./terminal-feed";
import { agentSettings, initialMode, reviewEdits, traceEnabled, workspaceCwd, workspaceExtraRoots } from "./settings";
import { documentText, openLink } from "./workspace-actions";

const LAST_SESSION_KEY = "hermes.lastSessionId";
/** After activation, when old spilled output is swept (not on the way to the first chat). */
const SPILL_SWEEP_DELAY_MS = 10_000;

/** A webview showing the chat: the sidebar view or an editor tab. */
export interface AttachedPanel extends PanelSink {
  readonly visible: boolean;
}

export class ChatController implements vscode.Disposable {
  readonly store = new ChatStore();
  readonly reviews: EditReviews;
  readonly permissions: PermissionBroker;
  readonly questions: QuestionBroker;
  readonly diffView = new DiffView();
  /** "Open diff" on edits, and deciding them from the diff editor. */
  readonly diffDecisions: DiffDecisions = new DiffDecisions(this);
  /** Every editor-terminal command's whole output, for "Show all" (the state keeps the tail). */
  readonly outputSpill = new OutputSpill(() => this.store.state.sessionId);
  readonly outputDocuments = new OutputDocuments();
  private readonly terminalFeed = new TerminalFeed((action) => this.store.dispatch(action), undefined, this.outputSpill);
  readonly terminals = new EditorTerminals(this.terminalFeed);
  readonly session: ChatSession;
  readonly agent: AgentHost;
  /** "What Hermes knows" (memory entries, skills): read and changed through the agent. */
  readonly knowledge: KnowledgeActions;
  private readonly panels = new Set<AttachedPanel>();
  private readonly disposables: vscode.Disposable[] = [];
  private started: Promise<void> | undefined;
  private turnRunning = false;

  constructor(
    readonly extensionUri: vscode.Uri,
    readonly log: vscode.LogOutputChannel,
    /** Remembers the open session, so a window reload reopens it. */
    private readonly memento?: vscode.Memento,
  ) {
    const dispatch = (action: ChatAction) => this.store.dispatch(action);
    this.reviews = new EditReviews(dispatch, writeDocument, (edit) => {
      this.diffDecisions.landed(edit).catch((error: unknown) => this.log.warn(`showing the applied diff failed: ${errorMessage(error)}`));
    });
    this.permissions = new PermissionBroker(
      dispatch,
      async (title, options) => vscode.window.showInformationMessage(title, { modal: false }, ...options),
      () => [...this.panels].some((p) => p.visible),
      // One decision per edit: hunks decided in the permission card are what its write applies.
      { perHunk: () => reviewEdits() === "perHunk", decided: (edit) => this.reviews.approve(edit) },
    );
    this.questions = new QuestionBroker(dispatch, (url) => void openLink(url).catch((error: unknown) => log.warn(`opening ${new URL(url).host} failed: ${String(error)}`)));
    const files = new EditorFiles(this.reviews, reviewEdits);
    const process = new AgentProcess(() => agentCommand(extensionUri.fsPath, agentSettings()), log);
    this.agent = new AgentHost(
      process,
      {
        update: (notification) => this.session.onUpdate(notification),
        queueChanged: (params) => this.session.onQueueChanged(params),
        requestPermission: (params, signal) => this.permissions.request(params, signal),
        elicitation: (params, signal) => this.questions.request(params, signal),
        elicitationModes: this.questions.modes,
        fs: { read: (params) => files.read(params), write: (params, signal) => files.write(params, signal) },
        terminal: {
          create: (params) => this.terminals.create(params),
          output: (params) => this.withFullOutput(params.terminalId, this.terminals.output(params)),
          waitForExit: (params) => this.terminals.waitForExit(params),
          kill: (params) => this.terminals.kill(params),
          release: (params) => this.terminals.release(params),
        },
      },
      { log, trace: traceEnabled },
    );
    this.session = new ChatSession({
      store: this.store,
      connected: () => this.agent.connected(),
      cwd: workspaceCwd,
      extraRoots: workspaceExtraRoots,
      initialMode,
      readText: documentText,
      cancelPending: (note) => {
        this.permissions.cancelAll(note);
        this.questions.cancelAll(note);
        this.reviews.cancelAll();
      },
      sessionDeleted: (sessionId) => this.outputSpill.removeSession(sessionId),
      log,
    });
    this.knowledge = new KnowledgeActions({ dispatch, connected: () => this.agent.connected(), cwd: workspaceCwd, log });
    this.watchAgent();
    // Output spilled by windows long closed (or crashed): swept once activation is over.
    const sweep = setTimeout(() => sweepSpills(), SPILL_SWEEP_DELAY_MS);
    this.disposables.push(
      { dispose: () => clearTimeout(sweep) },
      this.diffView.register(),
      this.diffDecisions.register(),
      this.outputDocuments.register(),
      { dispose: this.store.onChange((state) => this.setTurnRunning(state.turn.running)) },
      {
        dispose: this.store.onChange((state, action) => {
          if (action.type === "sessionOpened" || action.type === "sessionClosed") void this.memento?.update(LAST_SESSION_KEY, state.sessionId ?? undefined);
        }),
      },
    );
  }

  /** First view shown: start the agent and open a session (once). */
  start(): Promise<void> {
    this.started ??= (async () => {
      try {
        const last = this.memento?.get<string>(LAST_SESSION_KEY);
        if (last) await this.session.restore(last);
        else await this.session.ensureSession();
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

  dispatch(action: ChatAction): void {
    this.store.dispatch(action);
  }

  /** A webview joined; returns its detach. It gets state once it says `ready`. */
  attach(panel: AttachedPanel): () => void {
    this.panels.add(panel);
    const detach = this.store.attach(panel);
    return () => {
      this.panels.delete(panel);
      detach();
    };
  }

  /** "Show all" of an editor terminal's output: the whole of it, read-only in an editor. */
  async openTerminalOutput(terminalId: string, title: string): Promise<void> {
    const file = await this.outputSpill.file(terminalId);
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
    const file = await this.outputSpill.file(terminalId);
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
    this.session.agentLost("Cancelled: the agent restarted before you answered");
    this.terminals.disposeAll();
    await restarted;
  }

  showLog(): void {
    this.log.show(true);
  }

  private watchAgent(): void {
    this.agent.on("status", (status, message, agent) => this.dispatch({ type: "connection", status, message, agent }));
    this.agent.on("crashed", (_exit, delayMs) => {
      // Whatever the dead agent was waiting for can no longer be answered.
      this.session.agentLost("Cancelled: the agent stopped unexpectedly before you answered");
      this.terminals.disposeAll();
      const text = `The agent stopped unexpectedly. Restarting in ${Math.round(delayMs / 1000)} s; the session will be reloaded.`;
      this.dispatch({ type: "notice", severity: "warning", text });
      void vscode.window.showWarningMessage(`Hermes: ${text}`, "Show Log").then((choice) => choice && this.showLog());
    });
    this.agent.on("reconnected", () => {
      this.session.reload().catch((error: unknown) => this.log.error(`reloading the session failed: ${errorMessage(error)}`));
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
    this.session.agentLost();
    this.terminals.disposeAll();
    await stopped;
  }

  dispose(): void {
    for (const disposable of this.disposables) disposable.dispose();
    this.terminals.disposeAll();
    this.terminalFeed.dispose();
    // The open chat's outputs stay for a window reload, which reopens it.
    this.outputSpill.dispose(this.store.state.sessionId);
    this.store.dispose();
  }
}
