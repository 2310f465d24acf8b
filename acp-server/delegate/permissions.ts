// A child's permission requests reach the user through the parent session, on the parent's
// delegate_task call, with the child named in the title. One prompt at a time per delegate_task
// call (several children may ask at once). Nothing is approved without the user unless
// delegation.auto_approve is set.
import type * as acp from "@agentclientprotocol/sdk/unstable";
import type { DelegationCall, PermissionAnswer, ToolCallView } from "../agent/turn-io";
import type { DisplayContent, Location, PermissionAsk } from "../tools/context";
import type { ToolKind } from "../tools/registry";

export type AskParent = (call: ToolCallView, ask: PermissionAsk, signal: AbortSignal) => Promise<PermissionAnswer>;

/** Asks the user on behalf of children of one delegate_task call, one question at a time. */
export function parentAsker(
  parent: DelegationCall,
  autoApprove: boolean,
  /** Runs right before the user is asked (the card is brought up to date). */
  beforeAsk: () => void = () => {},
): (label: string, call: Omit<ToolCallView, "id" | "requestId" | "name">, ask: PermissionAsk, signal: AbortSignal) => Promise<PermissionAnswer> {
  let queue: Promise<unknown> = Promise.resolve();
  return (label, call, ask, signal) => {
    if (autoApprove) return Promise.resolve("allow_once");
    const title = `${label}: ${ask.title}`;
    // The request names the parent's card (the one the editor shows); the child's call is the content.
    const view: ToolCallView = { ...parent.call, title, kind: call.kind, rawInput: call.rawInput, locations: call.locations };
    const answer = queue.then(() => {
      if (signal.aborted) return "reject" as const;
      beforeAsk();
      return parent.host.askUser(view, { ...ask, title }, signal);
    });
    queue = answer.catch(() => {}); // expected: the queue only orders the questions; the caller gets the same rejection from `answer`
    return answer;
  };
}

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
