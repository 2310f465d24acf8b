// session/request_permission as an inline card in the panel. When no panel is visible a
// notification asks as well; whichever answers first wins. Cancelling a turn answers every
// pending request "cancelled". No vscode import: the notification is passed in.
//
// One decision per edit: when the agent marks an edit's request `_meta["hermes/partialAccept"]`
// (its diff is exactly the write that follows through fs/write_text_file) and edits are reviewed
// per hunk, the card shows the hunks and the user accepts all, rejects all, or decides each one.
// The agent gets a plain allow (some hunk accepted) or reject (none); the decided hunks go to
// EditReviews, which writes only those when the write arrives and tells the agent which landed.
import type * as acp from "@agentclientprotocol/sdk/unstable";
import type { ChatAction } from "../common/panel-state/actions";
import type { ReviewHunk } from "../common/panel-state/types";
import { computeHunks, type Hunk } from "./diff-hunks";
import type { DecidedEdit } from "./edit-review";
import { notificationText } from "./notification-text";

export type Notify = (title: string, optionNames: string[]) => Promise<string | undefined>;

/** How edits decided in the card reach their write. */
export interface EditDecisionHooks {
  /** True when edits are reviewed per hunk (`hermes.review.edits`). */
  perHunk(): boolean;
  /** The user allowed the edit with these hunk decisions. */
  decided(edit: DecidedEdit): void;
}

type Decision = ReviewHunk["decision"];

/** The edit a card decides hunk by hunk. */
export interface CardEdit {
  path: string;
  oldText: string | null;
  newText: string;
  hunks: Hunk[];
  decisions: Decision[];
}

interface Pending {
  options: acp.PermissionOption[];
  resolve(response: acp.RequestPermissionResponse): void;
  edit?: CardEdit;
  /** Other diffs the card showed (apply_patch's files): allowed, a write of exactly that text is not asked again. */
  shown?: CardEdit[];
}

/** Ids are unique in the extension host, not per chat: a diff editor or a late message naming one reaches one chat's card only. */
let nextId = 1;

export class PermissionBroker {
  private readonly pending = new Map<string, Pending>();

  constructor(
    private readonly dispatch: (action: ChatAction) => void,
    private readonly notify: Notify,
    private readonly panelVisible: () => boolean,
    private readonly edits?: EditDecisionHooks,
  ) {}

  get size(): number {
    return this.pending.size;
  }

  request(params: acp.RequestPermissionRequest, signal?: AbortSignal): Promise<acp.RequestPermissionResponse> {
    const id = `perm-${nextId++}`;
    const perHunk = this.edits?.perHunk() === true;
    const edit = perHunk ? cardEdit(params) : undefined;
    const shown = perHunk && !edit ? shownEdits(params) : [];
    const answer = new Promise<acp.RequestPermissionResponse>((resolve) =>
      this.pending.set(id, { options: params.options, resolve, ...(edit ? { edit } : {}), ...(shown.length ? { shown } : {}) }),
    );
    // The reducer's types come from the stable schema; the unstable one is a superset.
    this.dispatch({
      type: "permissionRequested",
      id,
      toolCall: params.toolCall,
      options: params.options,
      ...(edit ? { hunks: edit.hunks.map((hunk) => ({ ...hunk, decision: "pending" as const })) } : {}),
    });
    signal?.addEventListener("abort", () => this.resolve(id, "cancelled"), { once: true });
    if (!this.panelVisible()) {
      // The command to approve, as it is, and never a link (notification-text.ts).
      const title = params.toolCall.title ? `Hermes: ${notificationText(params.toolCall.title)}` : "Hermes needs your permission";
      this.notify(title, params.options.map((o) => o.name)).then(
        (name) => {
          const option = params.options.find((o) => o.name === name);
          if (option) this.answer(id, option.optionId);
        },
        () => {},
      );
    }
    return answer;
  }

  /**
   * The panel's (or the notification's) answer; false when that request is no longer open.
   * `reason`: the user's words with a rejection, for the model. ACP's outcome has no text field,
   * so it travels in the response's `_meta` ("hermes/reason"); it is ignored with an allow.
   */
  answer(id: string, optionId: string, reason?: string): boolean {
    const entry = this.pending.get(id);
    const option = entry?.options.find((o) => o.optionId === optionId);
    if (!entry || !option) return false;
    const words = option.kind.startsWith("reject") ? reason?.trim() : undefined;
    return this.resolve(id, optionId, words || undefined);
  }

  /** The edit a waiting card decides hunk by hunk ("Open diff" shows its proposal). */
  edit(id: string): CardEdit | undefined {
    return this.pending.get(id)?.edit;
  }

  /**
   * One hunk decided in the card (or the diff editor). Once every hunk is decided the card is
   * answered: allowed once when any hunk is accepted, rejected when none is.
   */
  decideHunk(id: string, hunk: number, decision: Decision): boolean {
    const entry = this.pending.get(id);
    const edit = entry?.edit;
    if (!entry || !edit || hunk < 0 || hunk >= edit.hunks.length) return false;
    edit.decisions[hunk] = decision;
    this.dispatch({ type: "permissionHunkDecided", id, hunk, decision });
    if (edit.decisions.includes("pending")) return true;
    const kind = edit.decisions.includes("accepted") ? "allow_once" : "reject_once";
    const option = entry.options.find((o) => o.kind === kind) ?? entry.options.find((o) => o.kind.startsWith(kind.split("_")[0]));
    return option ? this.answer(id, option.optionId) : true;
  }

  /** Answers with the first option of a kind (the diff editor's "Accept all" / "Reject all"). */
  answerKind(id: string, kind: "allow_once" | "reject_once"): boolean {
    const option = this.pending.get(id)?.options.find((o) => o.kind === kind);
    return option ? this.answer(id, option.optionId) : false;
  }

  /**
   * Answers every open request "cancelled" (turn cancelled, session closed, agent gone); `note`
   * says why on the card when it was not the user's doing ("Cancelled: the agent restarted…").
   */
  cancelAll(note?: string): void {
    for (const id of [...this.pending.keys()]) this.resolve(id, "cancelled", undefined, note);
  }

  private resolve(id: string, outcome: string, reason?: string, note?: string): boolean {
    const entry = this.pending.get(id);
    if (!entry) return false;
    this.pending.delete(id);
    const allowed = entry.options.find((o) => o.optionId === outcome)?.kind.startsWith("allow") === true;
    if (entry.edit) this.settleEdit(id, entry.edit, allowed);
    if (allowed) entry.shown?.forEach((shown, i) => this.edits?.decided({ id: `${id}#${i}`, ...shown }));
    if (outcome === "cancelled") entry.resolve({ outcome: { outcome: "cancelled" } });
    else entry.resolve({ outcome: { outcome: "selected", optionId: outcome }, ...(reason ? { _meta: { "hermes/reason": reason } } : {}) });
    const kind = entry.options.find((o) => o.optionId === outcome)?.kind;
    this.dispatch({ type: "permissionResolved", id, outcome, ...(kind ? { optionKind: kind } : {}), ...(reason ? { reason } : {}), ...(note ? { note } : {}) });
    return true;
  }

  /**
   * An allow accepts the hunks still undecided (rejected ones stay rejected); a reject or a cancel
   * rejects them all. The panel shows the final decisions; EditReviews gets an allowed edit.
   */
  private settleEdit(id: string, edit: CardEdit, allowed: boolean): void {
    edit.decisions.forEach((current, hunk) => {
      const decision = allowed ? (current === "pending" ? "accepted" : current) : "rejected";
      if (decision === current) return;
      edit.decisions[hunk] = decision;
      this.dispatch({ type: "permissionHunkDecided", id, hunk, decision });
    });
    if (allowed && edit.decisions.includes("accepted")) this.edits?.decided({ id, path: edit.path, oldText: edit.oldText, newText: edit.newText, hunks: edit.hunks, decisions: edit.decisions });
  }
}

/** Every diff of a request, each wholly accepted if the request is allowed (a write of other text is still reviewed). */
function shownEdits(params: acp.RequestPermissionRequest): CardEdit[] {
  return (params.toolCall.content ?? []).flatMap((c) => {
    if (c.type !== "diff") return [];
    const hunks = computeHunks(c.oldText ?? "", c.newText);
    return hunks.length ? [{ path: c.path, oldText: c.oldText ?? null, newText: c.newText, hunks, decisions: hunks.map(() => "accepted" as const) }] : [];
  });
}

/** The edit of a request Hermes marked as decidable by hunk: one diff, the very text it writes next. */
function cardEdit(params: acp.RequestPermissionRequest): CardEdit | undefined {
  if (params._meta?.["hermes/partialAccept"] !== true) return undefined;
  const diffs = (params.toolCall.content ?? []).filter((c): c is Extract<acp.ToolCallContent, { type: "diff" }> => c.type === "diff");
  const diff = diffs[0];
  if (diffs.length !== 1 || !diff) return undefined;
  const oldText = diff.oldText ?? null;
  const hunks = computeHunks(oldText ?? "", diff.newText);
  if (hunks.length === 0) return undefined;
  return { path: diff.path, oldText, newText: diff.newText, hunks, decisions: hunks.map(() => "pending") };
}
