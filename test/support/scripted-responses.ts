// A scripted OpenAI Responses API server (POST /v1/responses) for tests. It streams the real
// event sequence (`event: <type>\ndata: {type, sequence_number, ...}` frames: created,
// in_progress, output items with their parts and deltas, then completed / incomplete /
// failed) over real HTTP, so the provider under test runs its real SDK code path.
import type http from "node:http";
import { namedEvent, sendJson, splitIntoChunks, startScriptedServer } from "./scripted-http";
import type { BaseReply, RecordedRequest, ScriptedServer } from "./scripted-http";

export interface ScriptedResponsesToolCall {
  name: string;
  /** An object is sent as JSON.stringify(object); a string is sent verbatim (e.g. broken JSON). */
  arguments: unknown;
  /** The call_id; defaults to a generated one. */
  id?: string;
}

export interface ScriptedResponsesUsage {
  input_tokens: number;
  output_tokens: number;
  input_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number };
  output_tokens_details?: { reasoning_tokens?: number };
}

export interface ScriptedResponsesReply extends BaseReply {
  /** Streamed as output_text deltas of one assistant message item. */
  text?: string;
  /** Reasoning summary text; an array streams several summary parts. */
  reasoningSummary?: string | string[];
  /** Emits a reasoning output item carrying this encrypted_content (first, as real models do). */
  encryptedReasoning?: string;
  /** One function_call output item each, streamed one after the other. */
  toolCalls?: ScriptedResponsesToolCall[];
  /** Usage in response.completed; defaults to a rough estimate. */
  usage?: ScriptedResponsesUsage;
  /** Ends with response.incomplete for this reason instead of response.completed. */
  incomplete?: "max_output_tokens" | "content_filter";
  /** Ends with response.failed carrying this error instead of response.completed. */
  failed?: { code: string; message: string };
  /** Ends with a bare `error` event (as proxies and overload errors do) instead of completing. */
  errorEvent?: { code: string | null; message: string };
  /** Computes the reply from the request (for echo-style or stateful scripts). */
  handler?: (request: RecordedRequest) => ScriptedResponsesReply | Promise<ScriptedResponsesReply>;
}

export type ScriptedResponses = ScriptedServer<ScriptedResponsesReply>;

export interface ScriptedResponsesOptions {
  /** Model id reported when the request names none, and by GET /v1/models. */
  model?: string;
  /** Used when the queue is empty; defaults to the text "(no scripted reply)". */
  fallback?: ScriptedResponsesReply;
  port?: number;
}

export async function startScriptedResponses(options: ScriptedResponsesOptions = {}): Promise<ScriptedResponses> {
  const defaultModel = options.model ?? "scripted-model";
  let counter = 0;
  return startScriptedServer<ScriptedResponsesReply>({
    port: options.port,
    fallback: options.fallback ?? { text: "(no scripted reply)" },
    isModelCall: (method, path) => method === "POST" && (path === "/v1/responses" || path === "/responses"),
    otherRoute(method, path, res) {
      if (method !== "GET" || (path !== "/v1/models" && path !== "/models")) return false;
      sendJson(res, 200, { object: "list", data: [{ id: defaultModel, object: "model", created: 0, owned_by: "scripted" }] });
      return true;
    },
    errorBody,
    resolve: (reply, request) => (reply.handler ? reply.handler(request) : reply),
    async respond(reply, request, res: http.ServerResponse, sse) {
      const n = ++counter;
      const body = request.body ?? {};
      const script = buildScript(reply, body, n, typeof body.model === "string" ? body.model : defaultModel);
      if (body.stream !== true) return sendJson(res, 200, script.final, reply.headers);
      sse.open();
      await sse.play(script.content, script.closing);
    },
  });
}

type Json = Record<string, unknown>;

/** The frames of one reply: content (everything up to the end) and the closing event. */
function buildScript(reply: ScriptedResponsesReply, body: Json, n: number, model: string) {
  let sequence = 0;
  const frame = (type: string, data: Json) => namedEvent(type, { type, sequence_number: sequence++, ...data });
  const base = responseObject(`resp_scripted_${n}`, model, body);
  const start = { ...base, status: "in_progress", output: [], usage: null };
  const items: Json[] = [];
  const content = [frame("response.created", { response: start }), frame("response.in_progress", { response: start })];

  const summaries = typeof reply.reasoningSummary === "string" ? [reply.reasoningSummary] : (reply.reasoningSummary ?? []);
  if (summaries.length > 0 || reply.encryptedReasoning !== undefined) {
    const output_index = items.length;
    const id = `rs_${n}_${output_index}`;
    content.push(frame("response.output_item.added", { output_index, item: { id, type: "reasoning", summary: [] } }));
    for (const [summary_index, text] of summaries.entries()) {
      const where = { item_id: id, output_index, summary_index };
      content.push(frame("response.reasoning_summary_part.added", { ...where, part: { type: "summary_text", text: "" } }));
      for (const delta of splitIntoChunks(text)) content.push(frame("response.reasoning_summary_text.delta", { ...where, delta }));
      content.push(frame("response.reasoning_summary_text.done", { ...where, text }));
      content.push(frame("response.reasoning_summary_part.done", { ...where, part: { type: "summary_text", text } }));
    }
    const item: Json = { id, type: "reasoning", summary: summaries.map((text) => ({ type: "summary_text", text })) };
    if (reply.encryptedReasoning !== undefined) item.encrypted_content = reply.encryptedReasoning;
    items.push(item);
    content.push(frame("response.output_item.done", { output_index, item }));
  }

  if (reply.text) {
    const output_index = items.length;
    const id = `msg_${n}_${output_index}`;
    const text = reply.text;
    const where = { item_id: id, output_index, content_index: 0 };
    const part = (t: string) => ({ type: "output_text", text: t, annotations: [] });
    content.push(frame("response.output_item.added", { output_index, item: { id, type: "message", status: "in_progress", role: "assistant", content: [] } }));
    content.push(frame("response.content_part.added", { ...where, part: part("") }));
    for (const delta of splitIntoChunks(text)) content.push(frame("response.output_text.delta", { ...where, delta, logprobs: [] }));
    content.push(frame("response.output_text.done", { ...where, text, logprobs: [] }));
    content.push(frame("response.content_part.done", { ...where, part: part(text) }));
    const item = { id, type: "message", status: "completed", role: "assistant", content: [part(text)] };
    items.push(item);
    content.push(frame("response.output_item.done", { output_index, item }));
  }

  for (const [i, call] of (reply.toolCalls ?? []).entries()) {
    const output_index = items.length;
    const id = `fc_${n}_${output_index}`;
    const args = typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments ?? {});
    const head = { id, type: "function_call", call_id: call.id ?? `call_${n}_${i}`, name: call.name };
    content.push(frame("response.output_item.added", { output_index, item: { ...head, status: "in_progress", arguments: "" } }));
    for (const delta of splitArgs(args)) content.push(frame("response.function_call_arguments.delta", { item_id: id, output_index, delta }));
    content.push(frame("response.function_call_arguments.done", { item_id: id, output_index, name: call.name, arguments: args }));
    const item = { ...head, status: "completed", arguments: args };
    items.push(item);
    content.push(frame("response.output_item.done", { output_index, item }));
  }

  const usage = usageJson(reply, body);
  const final: Json =
    reply.failed ? { ...base, status: "failed", output: items, error: reply.failed, usage: null }
    : reply.incomplete ? { ...base, status: "incomplete", output: items, incomplete_details: { reason: reply.incomplete }, usage }
    : { ...base, status: "completed", output: items, usage };
  const closing = [
    reply.errorEvent ? frame("error", { code: reply.errorEvent.code, message: reply.errorEvent.message, param: null })
    : reply.failed ? frame("response.failed", { response: final })
    : reply.incomplete ? frame("response.incomplete", { response: final })
    : frame("response.completed", { response: final }),
  ];
  return { content, closing, final };
}

function responseObject(id: string, model: string, body: Json): Json {
  return {
    id,
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    model,
    error: null,
    incomplete_details: null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    reasoning: body.reasoning ?? null,
    store: body.store ?? true,
    temperature: body.temperature ?? 1,
    tool_choice: "auto",
    tools: body.tools ?? [],
    top_p: 1,
    metadata: {},
  };
}

/** JSON arguments cut at fixed widths, so pieces split strings and keys mid-token like real models. */
function splitArgs(args: string): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < args.length; i += 7) pieces.push(args.slice(i, i + 7));
  return pieces;
}

function usageJson(reply: ScriptedResponsesReply, body: Json): Json {
  const given = reply.usage;
  // Rough 4-characters-per-token estimate: enough for code that sums usage.
  const input = given?.input_tokens ?? Math.ceil(JSON.stringify(body.input ?? []).length / 4);
  const output =
    given?.output_tokens ?? Math.ceil(((reply.text ?? "").length + JSON.stringify(reply.toolCalls ?? []).length) / 4);
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: 0, ...given?.input_tokens_details },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: 0, ...given?.output_tokens_details },
    total_tokens: input + output,
  };
}

function errorBody(status: number, message?: string): unknown {
  const defaults: Record<number, [string, string, string | null]> = {
    400: ["Bad request", "invalid_request_error", null],
    401: ["Incorrect API key provided", "invalid_request_error", "invalid_api_key"],
    403: ["Permission denied", "permission_error", null],
    404: ["The model does not exist", "invalid_request_error", "model_not_found"],
    429: ["Rate limit reached", "rate_limit_error", "rate_limit_exceeded"],
  };
  const [text, type, code] = defaults[status] ?? ["The server had an error while processing your request", "server_error", null];
  return { error: { message: message ?? text, type, param: null, code } };
}
