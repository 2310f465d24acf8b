// Asks the user through session/request_permission and maps the chosen option back. No
// answer within the timeout, a cancelled outcome, an unknown option or a client error are
// all a denial: the tool reports that the user did not allow it, and the turn goes on. A
// rejection with the user's words (`_meta["hermes/reason"]`) is thrown as a UserRejection, so
// the model reads them as the tool's result. An edit whose diff is exactly the write that follows
// through the editor says so (`_meta["hermes/partialAccept"]`): Hermes's panel then lets the user
// accept it hunk by hunk in this one card, and the write's answer reports what landed. Other
// clients see a standard request with the diff.
import * as acp from "@agentclientprotocol/sdk/unstable";
import { permissionContent } from "../agent/permission-content";
import { UserRejection, type PermissionAnswer, type ToolCallView } from "../agent/turn-io";
import type { PermissionAsk } from "../tools/context";
import type { Logger } from "../util/log";
import { redactDeep } from "../util/redact";
import { toLocations, toToolCallContent } from "./updates";

const ACTION_NOUN: Record<PermissionAsk["action"], string> = {
  read: "reads like this",
  edit: "edits like this",
  execute: "commands like this",
  delete: "deletions like this",
  other: "actions like this",
};

function permissionOptions(ask: PermissionAsk): acp.PermissionOption[] {
  // Outside the sandbox is granted once at a time: no session-wide or saved approval.
  if (ask.unsandboxed) {
    return [
      { optionId: "allow_once", name: "Run once outside the sandbox", kind: "allow_once" },
      { optionId: "reject_once", name: "Reject", kind: "reject_once" },
    ];
  }
  if (ask.askEachTime) {
    return [
      { optionId: "allow_once", name: "Allow once", kind: "allow_once" },
      { optionId: "reject_once", name: "Reject", kind: "reject_once" },
    ];
  }
  if (ask.outsideFolders) {
    const where = ask.outsideFolders.length === 1 ? ask.outsideFolders[0] : "these folders";
    return [
      { optionId: "allow_once", name: "Allow once", kind: "allow_once" },
      { optionId: "allow_session", name: `Allow ${ACTION_NOUN[ask.action]} in ${where} for this session`, kind: "allow_always" },
      { optionId: "reject_once", name: "Reject", kind: "reject_once" },
    ];
  }
  if (ask.web) {
    return [
      { optionId: "allow_once", name: "Allow once", kind: "allow_once" },
      { optionId: "allow_session", name: `Allow fetches from ${ask.web.host} for this session`, kind: "allow_always" },
      { optionId: "allow_always", name: `Always allow ${ask.web.host} (saved to config.yaml)`, kind: "allow_always" },
      { optionId: "reject_once", name: "Reject", kind: "reject_once" },
      { optionId: "reject_always", name: `Always reject ${ask.web.host} (saved to config.yaml)`, kind: "reject_always" },
    ];
  }
  const savable = ask.action === "execute" || ask.action === "edit";
  // The scope in words: a wider answer covers exactly what the card names (security/approval-scope.ts).
  const what = ask.approvalScope ?? ACTION_NOUN[ask.action];
  return [
    { optionId: "allow_once", name: "Allow once", kind: "allow_once" },
    { optionId: "allow_session", name: `Allow ${what} for this session`, kind: "allow_always" },
    ...(savable ? [{ optionId: "allow_always", name: ask.approvalScope ? `Always allow ${what} (saved to config.yaml)` : "Always allow (saved to config.yaml)", kind: "allow_always" as const }] : []),
    { optionId: "reject_once", name: "Reject", kind: "reject_once" },
    ...(savable ? [{ optionId: "reject_always", name: ask.approvalScope ? `Always reject ${what} (saved to config.yaml)` : "Always reject (saved to config.yaml)", kind: "reject_always" as const }] : []),
  ];
}

const ANSWERS: Record<string, PermissionAnswer> = {
  allow_once: "allow_once",
  allow_session: "allow_session",
  allow_always: "allow_always",
  reject_once: "reject",
  reject_always: "reject_always",
};

export async function requestPermission(
  client: acp.AgentContext,
  sessionId: string,
  call: ToolCallView,
  ask: PermissionAsk,
  signal: AbortSignal,
  options: { timeoutMs: number; log: Logger; /** The session's writes go through the client's fs/write_text_file. */ editorWrites?: boolean },
): Promise<PermissionAnswer> {
  const content = permissionContent(ask);
  // What the user is shown is redacted; the approved call still runs with its real input.
  const toolCall: acp.ToolCallUpdate = redactDeep<acp.ToolCallUpdate>({
    toolCallId: call.id,
    title: ask.title,
    kind: call.kind,
    status: "pending",
    rawInput: call.rawInput,
    ...(content.length ? { content: toToolCallContent(content) } : {}),
    ...(call.locations.length ? { locations: toLocations(call.locations) } : {}),
    // Which tool asks, by its Hermes name: a script's --allowed-tools answers by it.
    _meta: { "hermes/tool": call.name },
  });
  // On cancel or timeout, stop waiting at once: the turn must go on (or end) promptly.
  const stop = AbortSignal.any([signal, AbortSignal.timeout(options.timeoutMs)]);
  let response: acp.RequestPermissionResponse;
  try {
    response = await client.request(
      acp.methods.client.session.requestPermission,
      {
        sessionId,
        toolCall,
        // Redacted too: a scoped option quotes the command, which may hold a token.
        options: redactDeep(permissionOptions(ask)),
        ...(ask.partialAccept && options.editorWrites ? { _meta: { "hermes/partialAccept": true } } : {}),
      },
      { cancellationSignal: stop, stopWaitingOnCancel: true },
    );
  } catch (error) {
    if (!signal.aborted) options.log.warn(stop.aborted ? "permission request timed out; treated as a denial" : "permission request failed; treated as a denial", { sessionId, error });
    return "reject";
  }
  if (response.outcome.outcome !== "selected") return "reject";
  const answer = ANSWERS[response.outcome.optionId] ?? "reject";
  const reason = rejectionReason(response);
  if (reason && (answer === "reject" || answer === "reject_always")) throw new UserRejection(reason, answer === "reject_always");
  return answer;
}

/** Longest reason passed on to the model. */
const MAX_REASON_CHARS = 2000;

/**
 * The user's words with a rejection. ACP's outcome has no free-text field, so a client puts them
 * in the response's `_meta` under "hermes/reason" (the VS Code panel does).
 */
export function rejectionReason(response: acp.RequestPermissionResponse): string | undefined {
  const raw = response._meta?.["hermes/reason"];
  if (typeof raw !== "string") return undefined;
  const text = raw.trim();
  if (!text) return undefined;
  return text.length > MAX_REASON_CHARS ? `${text.slice(0, MAX_REASON_CHARS)}…` : text;
}
