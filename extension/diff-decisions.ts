// "Open diff" on an edit and deciding it from VS Code's diff editor. While the edit waits (its
// permission card, or a held review), the diff shows the proposal and its title bar carries
// "Accept Edit" / "Reject Edit"; the editor's context menu accepts or rejects the change under
// the cursor (VS Code offers extensions no per-hunk buttons inside a diff editor). Once the edit
// landed, the diff compares the file as it was with what was actually written, and a proposal
// tab still open is replaced by that.
import path from "node:path";
import * as vscode from "vscode";
import type { ChatStore } from "./chat-store";
import { hunkAtLine, type Hunk } from "./diff-hunks";
import type { DiffView } from "./diff-view";
import type { EditReviews, HeldEdit } from "./edit-review";
import type { PermissionBroker } from "./permissions";

/** True while the active editor is the diff of an edit that waits for a decision (package.json menus). */
const CONTEXT_KEY = "hermes.editDecision";

interface Decision {
  hunks: Hunk[];
  acceptAll(): unknown;
  rejectAll(): unknown;
  decide(hunk: number, decision: "accepted" | "rejected"): unknown;
}

/**
 * What the decisions use of the chat: the ChatController that owns them passes itself. Named
 * here, not imported as the controller's class, so the controller and this file do not import
 * each other.
 */
export interface DiffDecisionsChat {
  readonly log: vscode.LogOutputChannel;
  readonly store: Pick<ChatStore, "onChange">;
  readonly permissions: Pick<PermissionBroker, "edit" | "answerKind" | "decideHunk">;
  readonly reviews: Pick<EditReviews, "get" | "pendingHunks" | "decide" | "decideAll">;
  readonly diffView: DiffView;
}

export class DiffDecisions implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private active = false;

  constructor(private readonly chat: DiffDecisionsChat) {}

  register(): vscode.Disposable {
    const command = (id: string, run: () => unknown) =>
      vscode.commands.registerCommand(id, async () => {
        try {
          await run();
        } catch (error) {
          this.chat.log.error(`${id} failed: ${error instanceof Error ? error.message : String(error)}`);
        }
        this.refresh();
      });
    this.disposables.push(
      command("hermes.acceptEdit", () => this.current()?.decision.acceptAll()),
      command("hermes.rejectEdit", () => this.current()?.decision.rejectAll()),
      command("hermes.acceptChange", () => this.decideAtCursor("accepted")),
      command("hermes.rejectChange", () => this.decideAtCursor("rejected")),
      vscode.window.tabGroups.onDidChangeTabs(() => this.refresh()),
      vscode.window.tabGroups.onDidChangeTabGroups(() => this.refresh()),
      vscode.window.onDidChangeActiveTextEditor(() => this.refresh()),
      { dispose: this.chat.store.onChange(() => this.refresh()) },
    );
    return this;
  }

  /** "Open diff" from the panel: a waiting edit (by its card's id), a landed one, or an edit tool call's diff. */
  async open(id: string): Promise<boolean> {
    const waiting = this.chat.permissions.edit(id);
    if (waiting) {
      await this.chat.diffView.open(waiting.path, waiting.newText, { oldText: waiting.oldText ?? "", decisionId: id, title: proposalTitle(waiting.path) });
      this.refresh();
      return true;
    }
    const held = this.chat.reviews.get(id);
    if (!held) return false;
    if (held.landedText !== undefined) await this.openLanded(held);
    else await this.chat.diffView.open(held.path, held.newText, { oldText: held.oldText, ...(this.chat.reviews.pendingHunks(id) ? { decisionId: id, title: proposalTitle(held.path) } : {}) });
    this.refresh();
    return true;
  }

  /** An edit was written: a tab still showing its proposal now shows what landed. */
  async landed(edit: HeldEdit): Promise<void> {
    const tab = this.proposalTabs().find((t) => t.id === edit.id)?.tab;
    if (!tab) return;
    await this.openLanded(edit);
    await vscode.window.tabGroups.close(tab, true).then(undefined, () => undefined);
  }

  private async openLanded(edit: HeldEdit): Promise<void> {
    const name = path.basename(edit.path);
    const part = edit.accepted !== undefined && edit.total !== undefined && edit.accepted < edit.total ? ` (${edit.accepted} of ${edit.total} changes)` : "";
    await this.chat.diffView.open(edit.path, edit.landedText ?? edit.newText, { oldText: edit.oldText, title: `${name}: before ↔ applied${part}` });
  }

  private decision(id: string): Decision | undefined {
    const { permissions, reviews } = this.chat;
    const edit = permissions.edit(id);
    if (edit) {
      return {
        hunks: edit.hunks,
        acceptAll: () => permissions.answerKind(id, "allow_once"),
        rejectAll: () => permissions.answerKind(id, "reject_once"),
        decide: (hunk, decision) => permissions.decideHunk(id, hunk, decision),
      };
    }
    const hunks = reviews.pendingHunks(id);
    if (!hunks) return undefined;
    return {
      hunks,
      acceptAll: () => reviews.decideAll(id, "accepted"),
      rejectAll: () => reviews.decideAll(id, "rejected"),
      decide: (hunk, decision) => reviews.decide(id, hunk, decision),
    };
  }

  /** The waiting edit whose diff is the active tab. */
  private current(): { decision: Decision; modified: vscode.Uri } | undefined {
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    if (!(input instanceof vscode.TabInputTextDiff)) return undefined;
    const id = this.chat.diffView.decisionOf(input.modified);
    const decision = id === undefined ? undefined : this.decision(id);
    return decision ? { decision, modified: input.modified } : undefined;
  }

  private proposalTabs(): { id: string; tab: vscode.Tab }[] {
    return vscode.window.tabGroups.all.flatMap((group) =>
      group.tabs.flatMap((tab) => {
        const id = tab.input instanceof vscode.TabInputTextDiff ? this.chat.diffView.decisionOf(tab.input.modified) : undefined;
        return id === undefined ? [] : [{ id, tab }];
      }),
    );
  }

  private decideAtCursor(decision: "accepted" | "rejected"): void {
    const current = this.current();
    const editor = vscode.window.activeTextEditor;
    if (!current || !editor) return;
    const side = editor.document.uri.toString() === current.modified.toString() ? "new" : "old";
    const hunk = hunkAtLine(current.decision.hunks, editor.selection.active.line + 1, side);
    if (hunk === undefined) {
      void vscode.window.showInformationMessage("Put the cursor on a change to accept or reject it.");
      return;
    }
    current.decision.decide(hunk, decision);
  }

  private refresh(): void {
    const active = this.current() !== undefined;
    if (active === this.active) return;
    this.active = active;
    void vscode.commands.executeCommand("setContext", CONTEXT_KEY, active);
  }

  dispose(): void {
    for (const disposable of this.disposables) disposable.dispose();
  }
}

function proposalTitle(file: string): string {
  return `${path.basename(file)} ↔ proposed by Hermes`;
}
