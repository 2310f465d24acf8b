// A permission question the journal holds with no answer and no finished card: the agent's
// process ended while the user was being asked (a window reload stops it cleanly, a crash does
// not). Replay shows the tool call as it ended, cancelled, instead of dropping it. ACP's
// tool call status has no "cancelled" (v1), so the card is "failed" on the wire with
// `_meta["hermes/cancelled"]`, and its text says what happened; `_meta["hermes/permission"]`
// carries the question, for a client (Hermes's panel) that shows the permission card too.
import type * as acp from "@agentclientprotocol/sdk/unstable";
import type { PermissionAskRecord } from "../sessions/types";
import { toLocations, toToolCallContent } from "./updates";

/** Why the question went unanswered: a clean shutdown (the editor closed or reloaded), or the process died. */
export type UnansweredCause = "shutdown" | "stopped";

/** What `_meta["hermes/permission"]` holds on such a card. */
export interface CancelledPermissionMeta {
  title: string;
  content: acp.ToolCallContent[];
  outcome: "cancelled";
  cause: UnansweredCause;
  /** What did not happen, in words: "the command did not run". */
  result: string;
  /** What was asked about: "execute", "edit", … or "clarify" (the clarify tool's question to the user). */
  action: string;
}

const RESULT: Record<string, string> = {
  execute: "the command did not run",
  edit: "the edit was not made",
  delete: "nothing was deleted",
  clarify: "the question went unanswered",
};

export function cancelledPermissionUpdate(ask: PermissionAskRecord, cause: UnansweredCause): acp.SessionUpdate {
  const result = RESULT[ask.action] ?? "it did not run";
  const why = cause === "shutdown" ? "the editor closed or reloaded before you answered" : "the agent stopped before you answered";
  const permission: CancelledPermissionMeta = { title: ask.title, content: toToolCallContent(ask.content), outcome: "cancelled", cause, result, action: ask.action };
  return {
    sessionUpdate: "tool_call",
    toolCallId: ask.call.id,
    title: ask.call.title,
    kind: ask.call.kind as acp.ToolKind,
    status: "failed",
    locations: toLocations(ask.call.locations),
    rawInput: ask.call.rawInput,
    content: toToolCallContent([{ type: "text", text: `Cancelled: ${why}; ${result}.` }]),
    _meta: { "hermes/cancelled": true, "hermes/permission": permission },
  };
}

/** Still waiting, as far as a replay can tell (the session may be mid-turn in its owner process). */
export function waitingCallUpdate(ask: PermissionAskRecord, status: "pending" | "in_progress"): acp.SessionUpdate {
  return {
    sessionUpdate: "tool_call",
    toolCallId: ask.call.id,
    title: ask.call.title,
    kind: ask.call.kind as acp.ToolKind,
    status,
    locations: toLocations(ask.call.locations),
    rawInput: ask.call.rawInput,
  };
}
