// Asks the user through session/request_permission and maps the chosen option back.
import * as acp from "@agentclientprotocol/sdk/unstable";
import type { PermissionAnswer, ToolCallView } from "../agent/turn-io";
import type { PermissionAsk } from "../tools/context";
import { toLocations, toToolCallContent } from "./updates";

const ACTION_NOUN: Record<PermissionAsk["action"], string> = {
  edit: "edits",
  execute: "commands",
  delete: "deletions",
  other: "actions like this",
};

export function permissionOptions(ask: PermissionAsk): acp.PermissionOption[] {
  return [
    { optionId: "allow_once", name: "Allow", kind: "allow_once" },
    { optionId: "allow_always", name: `Always allow ${ACTION_NOUN[ask.action]} in this session`, kind: "allow_always" },
    { optionId: "reject", name: "Reject", kind: "reject_once" },
  ];
}

export async function requestPermission(
  client: acp.AgentContext,
  sessionId: string,
  call: ToolCallView,
  ask: PermissionAsk,
  signal: AbortSignal,
): Promise<PermissionAnswer> {
  const pending = client.request(
    acp.methods.client.session.requestPermission,
    {
      sessionId,
      toolCall: {
        toolCallId: call.id,
        title: ask.title,
        kind: call.kind,
        status: "pending",
        rawInput: call.rawInput,
        ...(ask.content ? { content: toToolCallContent(ask.content) } : {}),
        ...(call.locations.length ? { locations: toLocations(call.locations) } : {}),
      },
      options: permissionOptions(ask),
    },
    // On cancel, stop waiting at once: the turn must answer "cancelled" promptly.
    { cancellationSignal: signal, stopWaitingOnCancel: true },
  );
  let response: acp.RequestPermissionResponse;
  try {
    response = await pending;
  } catch (error) {
    if (signal.aborted) return "reject";
    throw error;
  }
  if (response.outcome.outcome !== "selected") return "reject";
  const chosen = response.outcome.optionId;
  return chosen === "allow_once" || chosen === "allow_always" ? chosen : "reject";
}
