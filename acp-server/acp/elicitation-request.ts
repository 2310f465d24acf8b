// An elicitation (runtime/client-channel.ts `elicit`) over ACP 1.21: `elicitation/create` in form
// or URL mode, scoped to the session and, when a tool asks, its tool call; and the agent's
// `elicitation/complete` once a URL-mode flow has ended. Asked only in a mode the client
// advertised (`clientCapabilities.elicitation.form` / `.url`); otherwise, and when the client
// fails the request, the answer is a decline or cancel with the reason, never a thrown error:
// only the caller's signal (the turn's cancellation) throws, and it withdraws the request.
import * as acp from "@agentclientprotocol/sdk/unstable";
import type { ToolCallView } from "../agent/turn-io";
import type { ElicitationAnswer, ElicitationAsk, ElicitationModes, ElicitationValue } from "../tools/elicitation";
import type { Logger } from "../util/log";
import { redactSecrets } from "../util/redact";

export function elicitationModes(capabilities: acp.ClientCapabilities): ElicitationModes {
  const elicitation = (capabilities as { elicitation?: { form?: unknown; url?: unknown } | null }).elicitation;
  return { form: elicitation?.form != null, url: elicitation?.url != null };
}

export async function askElicitation(
  client: acp.AgentContext,
  sessionId: string,
  modes: ElicitationModes,
  call: ToolCallView | undefined,
  ask: ElicitationAsk,
  signal: AbortSignal,
  log: Logger,
): Promise<ElicitationAnswer> {
  if (!modes[ask.mode]) return { action: "decline", reason: `the editor does not support ${ask.mode}-mode elicitation` };
  const scope = { sessionId, ...(call ? { toolCallId: call.id } : {}) };
  const message = redactSecrets(ask.message);
  const request: acp.CreateElicitationRequest =
    ask.mode === "form"
      ? { ...scope, mode: "form", message, requestedSchema: ask.requestedSchema as acp.ElicitationSchema }
      : { ...scope, mode: "url", message, url: ask.url, elicitationId: ask.elicitationId };
  let response: acp.CreateElicitationResponse;
  try {
    response = await client.request(acp.methods.client.elicitation.create, request, { cancellationSignal: signal, stopWaitingOnCancel: true });
  } catch (error) {
    if (signal.aborted) throw error;
    log.warn("elicitation/create failed; treated as cancelled", { sessionId, mode: ask.mode, error });
    return { action: "cancel", reason: `the editor could not ask: ${(error as Error)?.message ?? String(error)}` };
  }
  if (response.action === "decline") return { action: "decline" };
  if (response.action !== "accept") return { action: "cancel" };
  const content = (response as { content?: Record<string, ElicitationValue> | null }).content;
  return content ? { action: "accept", content } : { action: "accept" };
}

/** `elicitation/complete`: the URL-mode flow `elicitationId` ended (the client may close its prompt). */
export async function completeElicitation(client: acp.AgentContext, modes: ElicitationModes, elicitationId: string, log: Logger): Promise<void> {
  if (!modes.url) return;
  await client.notify(acp.methods.client.elicitation.complete, { elicitationId }).catch((error: unknown) => log.warn("elicitation/complete could not be sent", { elicitationId, error }));
}
