// "Review & apply" and "Discard" of a chat that works in its own git worktree. Review & apply
// asks Hermes for the chat's changes against its start (`_hermes/worktree/changes`), holds each
// file for review hunk by hunk like an edit (cards in the chat, "Open diff" in VS Code's diff
// editor), and once every file is decided sends the accepted hunks by index
// (`_hermes/worktree/apply`): Hermes applies them into the main checkout whole or not at all,
// and names the files when it refuses. Nothing is applied while a file is undecided, and a
// review that was cancelled applies nothing. Discard is `/worktree discard` (Hermes asks first).
// No vscode import: tested against the real agent.
import path from "node:path";
import { WORKTREE_METHODS } from "../common/hermes-methods";
import { worktreeApplyResultSchema, worktreeChangesSchema, type WorktreeApplyParams, type WorktreeChange } from "../common/worktree-review";
import type { Connected } from "./agent-host";
import type { ChatTab } from "./chat-tab";
import { REJECTED_MESSAGE } from "./edit-review";
import { userMessage } from "./log";

export type ReviewOutcome = "applied" | "refused" | "nothing" | "cancelled" | "unavailable";

export async function reviewAndApply(tab: ChatTab, connected: () => Promise<Connected>): Promise<ReviewOutcome> {
  const say = (severity: "info" | "warning" | "error", text: string) => tab.store.dispatch({ type: "notice", severity, text });
  const sessionId = tab.sessionId;
  if (!sessionId) return "unavailable";
  if (!tab.session.idle) {
    say("warning", "Wait for the chat's turn to finish (or stop it) before reviewing its changes.");
    return "unavailable";
  }
  const { agent } = await connected();
  const changes = worktreeChangesSchema.parse(await agent.request(WORKTREE_METHODS.changes, { sessionId }));
  if (!changes.worktree) {
    tab.worktree = undefined;
    say("warning", "This chat no longer works in a worktree: there is nothing to apply.");
    return "unavailable";
  }
  const repo = changes.worktree.repo;
  const reviewable = changes.files.filter((file) => !file.unreviewable);
  const whole = changes.files.filter((file) => file.unreviewable).map((file) => file.path);
  if (reviewable.length === 0) {
    say("info", whole.length ? `Only files the panel cannot show changed (${whole.join(", ")}): /worktree apply brings them.` : "Nothing to apply: the chat changed nothing since it started.");
    return "nothing";
  }
  say(
    "info",
    `Review this chat's changes against its start (${reviewable.length} file${reviewable.length === 1 ? "" : "s"}): accept or reject each change. What you accept goes into ${repo} once every file is decided.` +
      (whole.length ? ` Not shown here (binary or large; /worktree apply brings them): ${whole.join(", ")}.` : ""),
  );
  const decided = await Promise.all(reviewable.map((file) => decideFile(tab, repo, file)));
  // A decided card reads "Applied" once its hunks are decided; it says "Cancelled" when nothing came of it.
  const notApplied = () => {
    for (const entry of decided) if (typeof entry === "object") tab.store.dispatch({ type: "reviewResolved", id: entry.card, status: "cancelled" });
  };
  if (decided.includes("cancelled")) {
    notApplied();
    say("warning", "The review was cancelled: nothing was applied.");
    return "cancelled";
  }
  const files = decided.flatMap((entry) => (typeof entry === "object" ? [entry.choice] : []));
  if (files.length === 0) {
    say("info", "Every change was rejected: nothing was applied.");
    return "nothing";
  }
  try {
    const result = worktreeApplyResultSchema.parse(await agent.request(WORKTREE_METHODS.apply, { sessionId, files } satisfies WorktreeApplyParams));
    if (result.status !== "applied") notApplied();
    // A refusal is told in the chat by Hermes (and kept in its record); the rest is said here.
    if (result.status !== "refused") say("info", result.message);
    return result.status;
  } catch (error) {
    notApplied();
    say("error", `Could not apply the chat's changes: ${userMessage(error)}`);
    return "refused";
  }
}

/** One file held for review: its accepted hunks (and its card), "rejected" (none accepted) or "cancelled". */
async function decideFile(tab: ChatTab, repo: string, file: WorktreeChange): Promise<{ choice: WorktreeApplyParams["files"][number]; card: string } | "rejected" | "cancelled"> {
  const target = path.join(repo, file.path);
  try {
    await tab.worktreeReviews.hold({ path: target, displayPath: file.path, oldText: file.oldText ?? undefined, newText: file.newText ?? "" });
  } catch (error) {
    return error instanceof Error && error.message === REJECTED_MESSAGE ? "rejected" : "cancelled";
  }
  // The decisions are the card's: the last review of this file in the chat.
  const card = tab.store.state.items.findLast((item) => item.kind === "review" && item.path === target);
  if (card?.kind !== "review") return "cancelled";
  const accepted = card.hunks.flatMap((hunk, i) => (hunk.decision === "accepted" ? [i] : []));
  return { choice: { path: file.path, version: file.version, accepted }, card: card.id };
}

/** "Discard": Hermes asks in the chat (a permission card naming what is lost), then removes the worktree and branch. */
export async function discardWorktree(tab: ChatTab, connected: () => Promise<Connected>): Promise<void> {
  const sessionId = tab.sessionId;
  if (!sessionId) return;
  await tab.session.runNow("/worktree discard");
  const { agent } = await connected();
  const changes = worktreeChangesSchema.parse(await agent.request(WORKTREE_METHODS.changes, { sessionId }));
  if (!changes.worktree) tab.worktree = undefined;
}
