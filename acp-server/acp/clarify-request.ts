// The clarify tool's question, asked through whatever the client offers:
// - form elicitation (`elicitation/create`, stable since ACP schema 1.21) when the client
//   advertises `elicitation.form`: one property, a titled single-select enum or a string;
// - otherwise, for choices, a session/request_permission whose options are the choices (every
//   ACP client can answer that), plus "Skip";
// - otherwise (free text and no elicitation) the question becomes the turn's reply.
// Dismissing, declining, a timeout or a client error are "no answer" results, never a failed turn.
import * as acp from "@agentclientprotocol/sdk/unstable";
import type { ToolCallView } from "../agent/turn-io";
import type { ClarifyAnswer, ClarifyQuestion } from "../tools/context";
import type { Logger } from "../util/log";
import { redactSecrets } from "../util/redact";

/** The one form field the question is asked with. */
export const ANSWER_FIELD = "answer";
const SKIP_OPTION = "skip";
/** Longest free-text answer passed on to the model. */
const MAX_ANSWER_CHARS = 4000;

export interface ClarifyOptions {
  timeoutMs: number;
  log: Logger;
}

export function canElicitForm(capabilities: acp.ClientCapabilities): boolean {
  const elicitation = (capabilities as { elicitation?: { form?: unknown } | null }).elicitation;
  return elicitation?.form !== undefined && elicitation.form !== null;
}

export async function askClarify(
  client: acp.AgentContext,
  sessionId: string,
  capabilities: acp.ClientCapabilities,
  call: ToolCallView,
  question: ClarifyQuestion,
  signal: AbortSignal,
  options: ClarifyOptions,
): Promise<ClarifyAnswer> {
  if (canElicitForm(capabilities)) return elicit(client, sessionId, call, question, signal, options);
  if (question.choices) return askAsPermission(client, sessionId, call, question, signal, options);
  return { kind: "in_chat" };
}

/** The form: a titled enum (each choice's label and description) or one free-text field. */
export function elicitationRequest(sessionId: string, toolCallId: string, question: ClarifyQuestion): acp.CreateElicitationRequest {
  const field: acp.ElicitationPropertySchema = question.choices
    ? {
        type: "string",
        title: "Answer",
        oneOf: question.choices.map((choice) => ({ const: choice.label, title: choice.label, ...(choice.description ? { description: choice.description } : {}) })),
      }
    : { type: "string", title: "Answer", minLength: 1, maxLength: MAX_ANSWER_CHARS };
  return {
    sessionId,
    toolCallId,
    mode: "form",
    message: redactSecrets(question.question),
    requestedSchema: { type: "object", properties: { [ANSWER_FIELD]: field }, required: [ANSWER_FIELD] },
  };
}

async function elicit(
  client: acp.AgentContext,
  sessionId: string,
  call: ToolCallView,
  question: ClarifyQuestion,
  signal: AbortSignal,
  options: ClarifyOptions,
): Promise<ClarifyAnswer> {
  const asked = await boundedAsk(
    (stop) => client.request(acp.methods.client.elicitation.create, elicitationRequest(sessionId, call.id, question), { cancellationSignal: stop, stopWaitingOnCancel: true }),
    signal,
    options,
    (error) => options.log.warn("elicitation/create failed; the question went unanswered", { sessionId, error }),
  );
  if (!asked.ok) return asked.answer;
  const response = asked.response;
  if (response.action === "decline") return { kind: "no_answer", why: "declined" };
  if (response.action !== "accept") return { kind: "no_answer", why: "dismissed" };
  // The client should have checked the form; the agent checks again (a choice must be one offered).
  const content = (response as { content?: Record<string, unknown> | null }).content;
  const value = content?.[ANSWER_FIELD];
  const text = typeof value === "string" ? value.trim() : "";
  if (!text) return { kind: "no_answer", why: "dismissed" };
  if (question.choices) {
    const choice = question.choices.find((each) => each.label === text);
    if (!choice) {
      options.log.warn("elicitation answer is not one of the choices; treated as no answer", { sessionId });
      return { kind: "no_answer", why: "failed" };
    }
    return { kind: "answered", answer: choice.label };
  }
  return { kind: "answered", answer: text.length > MAX_ANSWER_CHARS ? `${text.slice(0, MAX_ANSWER_CHARS)}…` : text };
}

/** A permission-style request: one option per choice (their descriptions in the card), and Skip. */
export function choicesAsPermission(sessionId: string, call: ToolCallView, question: ClarifyQuestion): acp.RequestPermissionRequest {
  const choices = question.choices ?? [];
  const described = choices.map((choice, index) => `${index + 1}. **${choice.label}**${choice.description ? `: ${choice.description}` : ""}`);
  return {
    sessionId,
    toolCall: {
      toolCallId: call.id,
      title: redactSecrets(question.question),
      kind: "other",
      status: "pending",
      content: [{ type: "content", content: { type: "text", text: redactSecrets(`${question.question}\n\n${described.join("\n")}`) } }],
    },
    options: [
      ...choices.map((choice, index): acp.PermissionOption => ({ optionId: `choice_${index}`, name: choice.label, kind: "allow_once" })),
      { optionId: SKIP_OPTION, name: "Skip (let the agent decide)", kind: "reject_once" },
    ],
  };
}

async function askAsPermission(
  client: acp.AgentContext,
  sessionId: string,
  call: ToolCallView,
  question: ClarifyQuestion,
  signal: AbortSignal,
  options: ClarifyOptions,
): Promise<ClarifyAnswer> {
  const asked = await boundedAsk(
    (stop) => client.request(acp.methods.client.session.requestPermission, choicesAsPermission(sessionId, call, question), { cancellationSignal: stop, stopWaitingOnCancel: true }),
    signal,
    options,
    (error) => options.log.warn("the question (as a permission request) failed; it went unanswered", { sessionId, error }),
  );
  if (!asked.ok) return asked.answer;
  const response = asked.response;
  if (response.outcome.outcome !== "selected") return { kind: "no_answer", why: "dismissed" };
  const optionId = response.outcome.optionId;
  if (optionId === SKIP_OPTION) return { kind: "no_answer", why: "declined" };
  const index = /^choice_(\d+)$/.exec(optionId)?.[1];
  const choice = index === undefined ? undefined : question.choices?.[Number(index)];
  return choice ? { kind: "answered", answer: choice.label } : { kind: "no_answer", why: "failed" };
}

type NoAnswer = Extract<ClarifyAnswer, { kind: "no_answer" }>;

/**
 * One request to the client, stopped by the turn's signal (which still throws: the turn is
 * cancelled) or by the clarify timeout; a timeout or a client error is a "no answer" result.
 */
async function boundedAsk<T>(
  send: (stop: AbortSignal) => Promise<T>,
  signal: AbortSignal,
  options: ClarifyOptions,
  onFailure: (error: unknown) => void,
): Promise<{ ok: true; response: T } | { ok: false; answer: NoAnswer }> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  try {
    return { ok: true, response: await send(AbortSignal.any([signal, timeout])) };
  } catch (error) {
    if (signal.aborted) throw error;
    if (timeout.aborted) return { ok: false, answer: { kind: "no_answer", why: "timed_out" } };
    onFailure(error);
    return { ok: false, answer: { kind: "no_answer", why: "failed" } };
  }
}
