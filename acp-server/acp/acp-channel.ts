// The editor as one session's app layer sees it (runtime/client-channel.ts), over ACP: updates
// are session/update notifications, files go through fs/* when the client serves them,
// commands through terminal/*, questions through session/request_permission or elicitation.
// Built per request: the client's capabilities decide which of its services are used.
import * as acp from "@agentclientprotocol/sdk/unstable";
import { randomUUID } from "node:crypto";
import type { ChoiceQuestion, ClientChannel } from "../runtime/client-channel";
import type { LiveSession } from "../runtime/live-session";
import { clientSandboxesTerminals } from "../security/sandbox/wire";
import { LocalFileAccess } from "../tools/local-files";
import type { FileAccess } from "../tools/context";
import type { Logger } from "../util/log";
import { askClarify } from "./clarify-request";
import { askElicitation, completeElicitation, elicitationModes } from "./elicitation-request";
import { ClientFileAccess } from "./client-files";
import { ClientShellRunner } from "./client-shell";
import { requestPermission } from "./permission-request";
import { AcpTurnObserver } from "./turn-observer";
import { toLocations, toToolCallContent } from "./updates";

export function acpChannel(client: acp.AgentContext, session: LiveSession, capabilities: acp.ClientCapabilities, log: Logger): ClientChannel {
  const fs = capabilities.fs ?? {};
  const sessionId = session.id;
  const sandboxes = clientSandboxesTerminals(capabilities._meta);
  const elicitation = elicitationModes(capabilities);
  return {
    sessionId,
    editorWrites: fs.writeTextFile === true,
    // The client advertised `session.compaction`: compressions are shown as compaction_update.
    output: () => new AcpTurnObserver(client, session, log, !!capabilities.session?.compaction),
    files: (): FileAccess => (fs.readTextFile || fs.writeTextFile ? new ClientFileAccess(client, sessionId, fs) : new LocalFileAccess()),
    ...(capabilities.terminal
      ? { terminals: { sandboxes, runner: (sandbox, passthrough) => new ClientShellRunner(client, sessionId, sandbox, passthrough) } }
      : {}),
    askUser: (call, ask, signal, options) => requestPermission(client, sessionId, call, ask, signal, { ...options, log }),
    clarify: (call, question, signal, options) => askClarify(client, sessionId, capabilities, call, question, signal, { ...options, log }),
    elicitation,
    elicit: (call, ask, signal) => askElicitation(client, sessionId, elicitation, call, ask, signal, log),
    completeElicitation: (elicitationId) => completeElicitation(client, elicitation, elicitationId, log),
    choose: (question, signal) => choose(client, session, question, signal, log),
  };
}

/** A question with its own options, shown as a pending tool card that ends with the answer. */
async function choose(client: acp.AgentContext, session: LiveSession, question: ChoiceQuestion, signal: AbortSignal, log: Logger): Promise<string> {
  const toolCallId = `${question.purpose}-${randomUUID()}`;
  const content = toToolCallContent(question.content);
  const locations = toLocations(question.locations);
  const card = { toolCallId, title: question.title, kind: "edit" as const, status: "pending" as const, content, locations };
  const output = new AcpTurnObserver(client, session, log);
  output.send({ sessionUpdate: "tool_call", ...card });
  const options: acp.PermissionOption[] = question.options.map((option) => ({ optionId: option.id, name: option.name, kind: option.kind }));
  const stop = AbortSignal.any([signal, AbortSignal.timeout(question.timeoutMs)]);
  let choice = question.fallback;
  try {
    const response: acp.RequestPermissionResponse = await client.request(
      acp.methods.client.session.requestPermission,
      { sessionId: session.id, toolCall: card, options },
      { cancellationSignal: stop, stopWaitingOnCancel: true },
    );
    const { outcome } = response;
    if (outcome.outcome === "selected" && options.some((option) => option.optionId === outcome.optionId)) choice = outcome.optionId;
  } catch (error) {
    log.warn("a question to the user failed; its fallback answer applies", { sessionId: session.id, title: question.title, fallback: question.fallback, error });
  }
  output.send({ sessionUpdate: "tool_call_update", toolCallId, status: choice === question.fallback ? "failed" : "completed" });
  await output.flush();
  return choice;
}
