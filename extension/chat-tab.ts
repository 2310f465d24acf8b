// One open chat of the panel: its own state, session, permission and question cards, held edits,
// terminal feed and spilled output. Nothing here is shared with the other chats, so several run
// their turns at once and a background chat's cards, reviews and queue stay its own.
// No vscode import: what needs the editor (notifications, writing documents) is passed in.
import { worktreeInfoOf, type WorktreeInfo } from "../common/worktree-meta";
import type { Connected } from "./agent-host";
import { ChatSession } from "./chat-session";
import { ChatStore } from "./chat-store";
import { EditReviews, type HeldEdit, type WriteFile } from "./edit-review";
import type { Logger } from "./log";
import { OutputSpill } from "./output-spill";
import { PermissionBroker, type Notify } from "./permissions";
import { QuestionBroker } from "./questions";
import { TerminalFeed } from "./terminal-feed";

/** What every chat of the window shares: the agent, the workspace, the editor's services. */
export interface ChatTabDeps {
  connected: () => Promise<Connected>;
  cwd: () => string;
  extraRoots?: () => string[];
  initialMode: () => string | undefined;
  readText: (uri: string) => Promise<string>;
  /** Asks a permission outside the panel (when no panel shows). */
  notify: Notify;
  panelVisible: () => boolean;
  /** Edits reviewed hunk by hunk (`hermes.review.edits`). */
  perHunk: () => boolean;
  writeDocument: WriteFile;
  /** An edit was written (the diff editor then shows what landed). */
  landed?: (edit: HeldEdit) => void;
  openUrl?: (url: string) => void;
  log: Logger;
}


const WORKTREE_REVIEW_PREFIX = "worktree-review";

export class ChatTab {
  readonly store = new ChatStore();
  readonly reviews: EditReviews;
  /**
   * "Review & apply" of a worktree chat (worktree-review.ts): its files held hunk by hunk like
   * edits, but a decided file is written nowhere; the accepted hunks go to Hermes, which applies them.
   */
  readonly worktreeReviews: EditReviews;
  readonly permissions: PermissionBroker;
  readonly questions: QuestionBroker;
  readonly session: ChatSession;
  /** Every editor-terminal command's whole output, for "Show all" (the state keeps the tail). */
  readonly outputSpill = new OutputSpill(() => this.store.state.sessionId);
  readonly terminalFeed: TerminalFeed;
  /** The git worktree it works in (the agent says so on session/new and load). */
  worktree: WorktreeInfo | undefined;
  /** Something happened while another chat was shown. */
  unseen = false;

  constructor(
    /** The panel's name for this chat (its session may change: a fork, a rewind, History). */
    readonly id: string,
    deps: ChatTabDeps,
  ) {
    const dispatch = this.store.dispatch.bind(this.store);
    this.reviews = new EditReviews(dispatch, deps.writeDocument, deps.landed);
    this.worktreeReviews = new EditReviews(dispatch, async () => undefined, undefined, WORKTREE_REVIEW_PREFIX);
    this.permissions = new PermissionBroker(dispatch, deps.notify, deps.panelVisible, {
      perHunk: deps.perHunk,
      // One decision per edit: hunks decided in the permission card are what its write applies.
      decided: (edit) => this.reviews.approve(edit),
    });
    this.questions = new QuestionBroker(dispatch, deps.openUrl);
    this.terminalFeed = new TerminalFeed(dispatch, undefined, this.outputSpill);
    this.session = new ChatSession({
      store: this.store,
      connected: deps.connected,
      cwd: deps.cwd,
      extraRoots: deps.extraRoots,
      initialMode: deps.initialMode,
      readText: deps.readText,
      cancelPending: (note) => {
        this.permissions.cancelAll(note);
        this.questions.cancelAll(note);
        this.reviews.cancelAll();
      },
      sessionDeleted: (sessionId) => this.outputSpill.removeSession(sessionId),
      sessionMeta: (meta) => (this.worktree = worktreeInfoOf(meta)),
      log: deps.log,
    });
  }

  /** The held edits a review id belongs to (the agent's writes, or a worktree review's files). */
  get reviewsById(): Pick<EditReviews, "get" | "pendingHunks" | "decide" | "decideAll"> {
    const of = (id: string) => (id.startsWith(`${WORKTREE_REVIEW_PREFIX}-`) ? this.worktreeReviews : this.reviews);
    return {
      get: (id) => of(id).get(id),
      pendingHunks: (id) => of(id).pendingHunks(id),
      decide: (id, hunk, decision) => of(id).decide(id, hunk, decision),
      decideAll: (id, decision) => of(id).decideAll(id, decision),
    };
  }

  get sessionId(): string | null {
    return this.store.state.sessionId;
  }

  /** The chat's tab closes: whatever it still waits for is answered "cancelled", its running turn stopped. */
  async close(): Promise<void> {
    this.permissions.cancelAll();
    this.questions.cancelAll();
    this.reviews.cancelAll();
    this.worktreeReviews.cancelAll();
    if (!this.session.idle) await this.session.cancel();
  }

  dispose(keepSpill: boolean): void {
    this.terminalFeed.dispose();
    this.outputSpill.dispose(keepSpill ? this.sessionId : null);
    this.store.dispose();
  }
}
