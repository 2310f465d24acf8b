// The panel's actions on a past user message, built from Hermes's own commands so the user
// sees the same preview and choices as with /rollback in any client:
// - "Restore checkpoint": `/rollback N` (files only) or `/rollback N --conversation` (files,
//   then the chat rewound into a new branch that the panel opens). The agent asks first with a
//   permission request carrying a diff per file; nothing changes without a yes.
// - "Edit and resend": the files go back to before that message (the same asked /rollback, for
//   the first turn from that message on that changed files), the chat is forked before it
//   (the old branch stays in History), and the edited text is sent in the fork. A restore the
//   user cancels stops there, and the edited text goes back to the composer: nothing is lost.
// No vscode import: it runs against the real agent in tests.
import { checkpointOf, restoreTargetFrom } from "../common/panel-state/checkpoints";
import type { ChatSession } from "./chat-session";
import type { ChatStore } from "./chat-store";

export interface CheckpointActionDeps {
  session: ChatSession;
  store: ChatStore;
  /** Puts `text` back in the composer (an edit that was not sent). */
  restoreDraft: (text: string) => void;
}

export async function restoreCheckpoint(deps: CheckpointActionDeps, turn: number, conversation: boolean): Promise<void> {
  const { session, store } = deps;
  if (!session.idle) return say(store, "warning", "Wait for the current turn to finish (or stop it) before restoring a checkpoint.");
  await session.refreshCheckpoints();
  if (!checkpointOf(store.state.checkpoints, turn)) {
    return say(store, "warning", `Message ${turn} has no checkpoint any more (it was pruned, or checkpoints are off); nothing was changed.`);
  }
  // The agent's answer opens the rewound branch when there is one (ChatSession.run).
  await session.runNow(`/rollback ${turn}${conversation ? " --conversation" : ""}`);
}

export async function editAndResend(deps: CheckpointActionDeps, turn: number, text: string): Promise<void> {
  const { session, store } = deps;
  if (!text.trim()) return;
  if (!session.idle) {
    deps.restoreDraft(text);
    return say(store, "warning", "Wait for the current turn to finish (or stop it) before editing a message; your text is in the composer.");
  }
  await session.refreshCheckpoints();
  const checkpoints = store.state.checkpoints;
  if (!checkpoints?.supported) {
    deps.restoreDraft(text);
    return say(store, "warning", "This agent cannot rewind a chat; your text is in the composer.");
  }
  const target = restoreTargetFrom(checkpoints, turn);
  if (target) {
    const answer = await session.runNow(`/rollback ${target.turn}`);
    const outcome = answer?._meta?.["hermes/restore"];
    if (outcome !== "restored" && outcome !== "nothing") {
      deps.restoreDraft(text);
      const why = outcome === "cancelled" ? "the restore was cancelled" : "the files could not be restored";
      return say(store, "info", `Edit and resend stopped: ${why}, so nothing was sent. Your edited text is in the composer.`);
    }
  }
  if (!(await session.fork(turn - 1))) {
    deps.restoreDraft(text);
    return say(store, "error", "Edit and resend stopped: the chat could not be rewound. Your edited text is in the composer.");
  }
  const filesNote = checkpoints.enabled ? "" : ` Files were not restored: checkpoints are off (${checkpoints.reason ?? "unknown reason"}).`;
  say(store, "info", `Rewound to before message ${turn}: this is a new branch of the chat (the previous one is unchanged in History).${filesNote}`);
  await session.send(text);
}

function say(store: ChatStore, severity: "info" | "warning" | "error", text: string): void {
  store.dispatch({ type: "notice", severity, text });
}
