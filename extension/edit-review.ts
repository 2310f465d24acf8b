// Per-hunk review of the agent's file writes. An `fs/write_text_file` is held (its answer
// waits) while the panel shows the hunks; when every hunk is decided, the accepted ones are
// written and the agent is told which were kept, or gets an error when none were. A
// cancelled turn, a closed session or a crashed agent drops what is still held.
// An edit the user already decided in its permission card (permissions.ts) is not asked again:
// when its write arrives with exactly the text the card showed, the decided hunks are written.
// No vscode import: reading and writing the file are passed in.
import * as acp from "@agentclientprotocol/sdk/unstable";
import type { ChatAction } from "../common/panel-state/actions";
import type { ReviewHunk } from "../common/panel-state/types";
import { applyHunks, computeHunks, type Hunk } from "./diff-hunks";
import { REVIEW_META, type ReviewMeta } from "../common/review-meta";

export const REJECTED_MESSAGE = "The user rejected this edit";

export interface HeldEdit {
  id: string;
  path: string;
  oldText: string;
  newText: string;
  isNewFile: boolean;
  /** What was written, once it was (after a partial accept it differs from `newText`). */
  landedText?: string;
  /** Hunks accepted and in total, once decided. */
  accepted?: number;
  total?: number;
}

/** An edit decided hunk by hunk in its permission card, before its write arrived. */
export interface DecidedEdit {
  /** The permission card's id: "Open diff" on it shows what landed. */
  id: string;
  path: string;
  /** The texts the card showed; null: a new file. */
  oldText: string | null;
  newText: string;
  hunks: Hunk[];
  decisions: ReviewHunk["decision"][];
}

/** `_meta["hermes/review"]` of a write's answer: the split, and per hunk where it is and its first lines. */
export function reviewMeta(hunks: readonly Hunk[], decisions: readonly ReviewHunk["decision"][]): ReviewMeta {
  const accepted = decisions.filter((d) => d === "accepted").length;
  return {
    accepted,
    rejected: hunks.length - accepted,
    hunks: hunks.map((hunk, i) => ({
      accepted: decisions[i] === "accepted",
      line: firstChangedLine(hunk),
      removed: hunk.lines.filter((l) => l.op === "-").slice(0, 3).map((l) => l.text.slice(0, 400)),
      added: hunk.lines.filter((l) => l.op === "+").slice(0, 3).map((l) => l.text.slice(0, 400)),
    })),
  };
}

/** 1-based line, in the old text, where the hunk's change starts (an insertion: the line it goes before). */
export function firstChangedLine(hunk: Hunk): number {
  // With context lines around every change, only an empty old file has an empty old range.
  let line = Math.max(1, hunk.oldStart);
  for (const l of hunk.lines) {
    if (l.op !== " ") break;
    line++;
  }
  return line;
}

interface Pending extends HeldEdit {
  hunks: Hunk[];
  decisions: ReviewHunk["decision"][];
  resolve(response: acp.WriteTextFileResponse): void;
  reject(error: Error): void;
}

export interface ReviewTarget {
  path: string;
  displayPath: string;
  /** Undefined when the file does not exist yet. */
  oldText: string | undefined;
  newText: string;
}

export type WriteFile = (path: string, text: string, isNewFile: boolean) => Promise<void>;

/** Ids are unique in the extension host, not per chat: a diff editor or a late message naming one reaches one chat's card only. */
let nextId = 1;

export class EditReviews {
  private readonly pending = new Map<string, Pending>();
  /** Recent reviews stay readable for "Open diff" after they are resolved. */
  private readonly done = new Map<string, HeldEdit>();
  /** Edits decided in their permission card, by path, waiting for their write. */
  private readonly decided = new Map<string, DecidedEdit>();

  constructor(
    private readonly dispatch: (action: ChatAction) => void,
    private readonly write: WriteFile,
    /** An edit was written (the diff editor then shows what landed). */
    private readonly landed: (edit: HeldEdit) => void = () => {},
    /** Its reviews' ids start with this (two EditReviews of one chat must not share ids). */
    private readonly idPrefix = "review",
  ) {}

  get size(): number {
    return this.pending.size;
  }

  /** The user decided this edit in its permission card; its write is not held again. */
  approve(edit: DecidedEdit): void {
    this.decided.set(edit.path, edit);
  }

  /** Holds a write until the user decided every hunk; resolves with the write's answer. */
  async hold(target: ReviewTarget, signal?: AbortSignal): Promise<acp.WriteTextFileResponse> {
    const oldText = target.oldText ?? "";
    const isNewFile = target.oldText === undefined;
    const decided = this.decided.get(target.path);
    this.decided.delete(target.path);
    // Only the very text the user decided on: anything else (it changed meanwhile, or the card
    // showed a redacted or partial preview) is reviewed here like an edit nobody asked about.
    if (decided && decided.oldText === (target.oldText ?? null) && decided.newText === target.newText) {
      return this.writeDecided(decided, target.path, isNewFile);
    }
    const hunks = computeHunks(oldText, target.newText);
    if (hunks.length === 0) {
      // Nothing to review (same text, or an empty new file): write straight away.
      if (isNewFile || oldText !== target.newText) await this.write(target.path, target.newText, isNewFile);
      return {};
    }
    const id = `${this.idPrefix}-${nextId++}`;
    return new Promise<acp.WriteTextFileResponse>((resolve, reject) => {
      this.pending.set(id, {
        id,
        path: target.path,
        oldText,
        newText: target.newText,
        isNewFile,
        hunks,
        decisions: hunks.map(() => "pending"),
        resolve,
        reject,
      });
      this.dispatch({
        type: "reviewRequested",
        review: { id, path: target.path, displayPath: target.displayPath, isNewFile, hunks: hunks.map((h) => ({ ...h, decision: "pending" })) },
      });
      signal?.addEventListener("abort", () => this.cancel(id), { once: true });
    });
  }

  /** The hunks of a review still waiting for decisions (the diff editor's per-change actions). */
  pendingHunks(id: string): Hunk[] | undefined {
    return this.pending.get(id)?.hunks;
  }

  /** A held or recently resolved edit, for the diff editor. */
  get(id: string): HeldEdit | undefined {
    return this.pending.get(id) ?? this.done.get(id);
  }

  decide(id: string, hunk: number, decision: ReviewHunk["decision"]): Promise<void> {
    const entry = this.pending.get(id);
    if (!entry || hunk >= entry.hunks.length) return Promise.resolve();
    entry.decisions[hunk] = decision;
    this.dispatch({ type: "reviewHunkDecided", id, hunk, decision });
    return this.settleIfDecided(entry);
  }

  decideAll(id: string, decision: "accepted" | "rejected"): Promise<void> {
    const entry = this.pending.get(id);
    if (!entry) return Promise.resolve();
    entry.decisions.forEach((current, hunk) => {
      if (current === decision) return;
      entry.decisions[hunk] = decision;
      this.dispatch({ type: "reviewHunkDecided", id, hunk, decision });
    });
    return this.settleIfDecided(entry);
  }

  /** Drops every held edit: the agent gets an error, the cards show "cancelled". */
  cancelAll(): void {
    this.decided.clear();
    for (const id of [...this.pending.keys()]) this.cancel(id);
  }

  private async writeDecided(edit: DecidedEdit, path: string, isNewFile: boolean): Promise<acp.WriteTextFileResponse> {
    const accepted = edit.decisions.flatMap((d, i) => (d === "accepted" ? [i] : []));
    const oldText = edit.oldText ?? "";
    const text = applyHunks(oldText, edit.newText, edit.hunks, accepted);
    await this.write(path, text, isNewFile);
    this.remember({ id: edit.id, path, oldText, newText: edit.newText, isNewFile, landedText: text, accepted: accepted.length, total: edit.hunks.length });
    return { _meta: { [REVIEW_META]: reviewMeta(edit.hunks, edit.decisions) } };
  }

  private remember(edit: HeldEdit): void {
    this.done.set(edit.id, edit);
    if (this.done.size > 50) this.done.delete(this.done.keys().next().value as string);
    if (edit.landedText !== undefined) this.landed(edit);
  }

  private cancel(id: string): void {
    const entry = this.finish(id, "cancelled");
    entry?.reject(new acp.RequestError(-32800, "The edit was cancelled before the user reviewed it"));
  }

  private async settleIfDecided(entry: Pending): Promise<void> {
    if (entry.decisions.includes("pending")) return;
    const accepted = entry.decisions.flatMap((d, i) => (d === "accepted" ? [i] : []));
    const rejected = entry.decisions.length - accepted.length;
    if (accepted.length === 0) {
      this.finish(entry.id, "rejected");
      entry.reject(new acp.RequestError(-32603, REJECTED_MESSAGE, { [REVIEW_META]: { accepted: 0, rejected } satisfies ReviewMeta }));
      return;
    }
    // Taken out of `pending` before the write, so a second decision cannot apply it twice.
    this.pending.delete(entry.id);
    const text = applyHunks(entry.oldText, entry.newText, entry.hunks, accepted);
    try {
      await this.write(entry.path, text, entry.isNewFile);
    } catch (error) {
      this.pending.set(entry.id, entry);
      this.finish(entry.id, "cancelled");
      entry.reject(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    this.pending.set(entry.id, entry);
    this.finish(entry.id, "applied", text);
    entry.resolve({ _meta: { [REVIEW_META]: reviewMeta(entry.hunks, entry.decisions) } });
  }

  private finish(id: string, status: "applied" | "rejected" | "cancelled", landedText?: string): Pending | undefined {
    const entry = this.pending.get(id);
    if (!entry) return undefined;
    this.pending.delete(id);
    const accepted = entry.decisions.filter((d) => d === "accepted").length;
    this.remember({
      id,
      path: entry.path,
      oldText: entry.oldText,
      newText: entry.newText,
      isNewFile: entry.isNewFile,
      ...(landedText !== undefined ? { landedText, accepted, total: entry.hunks.length } : {}),
    });
    this.dispatch({ type: "reviewResolved", id, status });
    return entry;
  }
}
