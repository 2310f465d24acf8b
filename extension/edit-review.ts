// Per-hunk review of the agent's file writes. An `fs/write_text_file` is held (its answer
// waits) while the panel shows the hunks; when every hunk is decided, the accepted ones are
// written and the agent is told how many were kept, or gets an error when none were. A
// cancelled turn, a closed session or a crashed agent drops what is still held.
// No vscode import: reading and writing the file are passed in.
import * as acp from "@agentclientprotocol/sdk/unstable";
import type { ChatAction } from "../webview-ui/state/actions";
import type { ReviewHunk } from "../webview-ui/state/types";
import { applyHunks, computeHunks, type Hunk } from "./diff-hunks";

export const REJECTED_MESSAGE = "The user rejected this edit";

export interface HeldEdit {
  id: string;
  path: string;
  oldText: string;
  newText: string;
  isNewFile: boolean;
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

export class EditReviews {
  private readonly pending = new Map<string, Pending>();
  /** Recent reviews stay readable for "Open diff" after they are resolved. */
  private readonly done = new Map<string, HeldEdit>();
  private next = 1;

  constructor(
    private readonly dispatch: (action: ChatAction) => void,
    private readonly write: WriteFile,
  ) {}

  get size(): number {
    return this.pending.size;
  }

  /** Holds a write until the user decided every hunk; resolves with the write's answer. */
  async hold(target: ReviewTarget, signal?: AbortSignal): Promise<acp.WriteTextFileResponse> {
    const oldText = target.oldText ?? "";
    const isNewFile = target.oldText === undefined;
    const hunks = computeHunks(oldText, target.newText);
    if (hunks.length === 0) {
      // Nothing to review (same text, or an empty new file): write straight away.
      if (isNewFile || oldText !== target.newText) await this.write(target.path, target.newText, isNewFile);
      return {};
    }
    const id = `review-${this.next++}`;
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
    for (const id of [...this.pending.keys()]) this.cancel(id);
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
      entry.reject(new acp.RequestError(-32603, REJECTED_MESSAGE, { "hermes/review": { accepted: 0, rejected } }));
      return;
    }
    // Taken out of `pending` before the write, so a second decision cannot apply it twice.
    this.pending.delete(entry.id);
    try {
      await this.write(entry.path, applyHunks(entry.oldText, entry.newText, entry.hunks, accepted), entry.isNewFile);
    } catch (error) {
      this.pending.set(entry.id, entry);
      this.finish(entry.id, "cancelled");
      entry.reject(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    this.pending.set(entry.id, entry);
    this.finish(entry.id, "applied");
    entry.resolve({ _meta: { "hermes/review": { accepted: accepted.length, rejected } } });
  }

  private finish(id: string, status: "applied" | "rejected" | "cancelled"): Pending | undefined {
    const entry = this.pending.get(id);
    if (!entry) return undefined;
    this.pending.delete(id);
    this.done.set(id, { id, path: entry.path, oldText: entry.oldText, newText: entry.newText, isNewFile: entry.isNewFile });
    if (this.done.size > 50) this.done.delete(this.done.keys().next().value as string);
    this.dispatch({ type: "reviewResolved", id, status });
    return entry;
  }
}
