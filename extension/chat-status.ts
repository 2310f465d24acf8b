// What a chat's tab says about it (running / waiting for the user / idle / failed), and which of
// its changes deserve a notification while it is in the background. Pure functions of the chat's
// ChatState and the action just applied, so they are tested without VS Code or an agent.
import type { ChatTabInfo } from "../common/panel-protocol";
import type { ChatAction } from "../common/panel-state/actions";
import type { ChatState } from "../common/panel-state/types";

export type ChatStatus = ChatTabInfo["status"];

/** A permission card, a question or a held edit still waiting for the user's answer. */
export function waitsForUser(state: ChatState): boolean {
  return state.items.some(
    (item) => ((item.kind === "permission" || item.kind === "question") && item.outcome === undefined) || (item.kind === "review" && item.status === "pending"),
  );
}

/** Actions that can change what a chat's tab shows (its title, status): the others (streamed chunks) are not looked at. */
export function affectsTab(action: ChatAction): boolean {
  if (action.type === "update") return action.update.sessionUpdate === "session_info_update";
  return TAB_ACTIONS.has(action.type);
}

const TAB_ACTIONS = new Set<ChatAction["type"]>([
  "connection", "sessionOpened", "sessionLoaded", "sessionClosed", "userPrompt", "turnStarted", "turnEnded",
  "permissionRequested", "permissionResolved", "questionAsked", "questionResolved", "reviewRequested", "reviewResolved",
]);

export function chatStatus(state: ChatState): ChatStatus {
  if (waitsForUser(state)) return "waiting";
  if (state.turn.running || state.loading) return "running";
  if (state.turn.lastStopReason === "error") return "failed";
  return "idle";
}

/** The chat's title, or until it has one (Hermes names it after its first turn) its first prompt. */
export function tabTitle(state: ChatState): { title?: string } {
  if (state.title) return { title: state.title };
  const first = state.items.find((item) => item.kind === "user");
  const line = first?.kind === "user" ? first.text.trim().split("\n")[0]?.slice(0, 120) : undefined;
  return line ? { title: line } : {};
}

/** Why a background chat should tell the user: it finished its turn, or it asks something. */
export type BackgroundEvent = { kind: "finished"; failed: boolean } | { kind: "permission" } | { kind: "question" } | { kind: "review" };

export function backgroundEvent(action: ChatAction): BackgroundEvent | undefined {
  switch (action.type) {
    case "turnEnded":
      // A stop the user asked for is not news.
      return action.stopReason === "cancelled" ? undefined : { kind: "finished", failed: action.stopReason === "error" };
    case "permissionRequested":
      return { kind: "permission" };
    case "questionAsked":
      return { kind: "question" };
    case "reviewRequested":
      return { kind: "review" };
    default:
      return undefined;
  }
}

/** The notification's text for a background chat's event. */
export function backgroundMessage(title: string | undefined, event: BackgroundEvent): string {
  const name = `"${title?.trim() || "New chat"}"`;
  if (event.kind === "permission") return `Hermes: ${name} needs your permission.`;
  if (event.kind === "question") return `Hermes: ${name} asks you something.`;
  if (event.kind === "review") return `Hermes: ${name} has an edit for you to review.`;
  return event.failed ? `Hermes: ${name} stopped with an error.` : `Hermes: ${name} finished its turn.`;
}
