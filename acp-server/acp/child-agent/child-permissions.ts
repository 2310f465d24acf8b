// An external child agent's session/request_permission as Hermes's own question (asked through
// the parent session: delegate/permissions.ts), and the user's answer as the child's option.
import type * as acp from "@agentclientprotocol/sdk/unstable";
import type { PermissionAnswer, ToolCallView } from "../../agent/turn-io";
import type { DisplayContent, Location, PermissionAsk } from "../../tools/context";
import type { ToolKind } from "../../tools/registry";

const ACP_KINDS = new Set<ToolKind>(["read", "edit", "delete", "move", "search", "execute", "think", "fetch", "other"]);

/** An external child's session/request_permission as Hermes's own question. */
export function childAsk(request: acp.RequestPermissionRequest): { call: Omit<ToolCallView, "id" | "requestId" | "name">; ask: PermissionAsk } {
  const toolCall = request.toolCall;
  const kind: ToolKind = toolCall.kind && ACP_KINDS.has(toolCall.kind as ToolKind) ? (toolCall.kind as ToolKind) : "other";
  const title = toolCall.title ?? "a tool call";
  const locations: Location[] = (toolCall.locations ?? []).map((location) => ({ path: location.path, ...(location.line != null ? { line: location.line } : {}) }));
  const content = (toolCall.content ?? []).flatMap(toDisplay);
  // "other": the user's choices are once / for this session / reject; nothing is saved to config.yaml for a child.
  return { call: { title, kind, rawInput: toolCall.rawInput, locations }, ask: { action: "other", title, ...(content.length ? { content } : {}) } };
}

/** The user's answer as one of the child's options (its own ids); no match is a cancel. */
export function childOutcome(answer: PermissionAnswer, options: acp.PermissionOption[]): acp.RequestPermissionResponse {
  const allow = answer === "allow_once" || answer === "allow_session" || answer === "allow_always";
  const preference: acp.PermissionOption["kind"][] = !allow
    ? ["reject_once", "reject_always"]
    : answer === "allow_once"
      ? ["allow_once", "allow_always"]
      : ["allow_always", "allow_once"];
  for (const kind of preference) {
    const option = options.find((candidate) => candidate.kind === kind);
    if (option) return { outcome: { outcome: "selected", optionId: option.optionId } };
  }
  return { outcome: { outcome: "cancelled" } };
}

function toDisplay(item: acp.ToolCallContent): DisplayContent[] {
  if (item.type === "diff") return [{ type: "diff", path: item.path, oldText: item.oldText ?? null, newText: item.newText }];
  if (item.type === "content" && item.content.type === "text") return [{ type: "text", text: item.content.text }];
  return [];
}
