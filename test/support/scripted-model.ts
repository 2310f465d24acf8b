// A scripted OpenAI Chat Completions server for tests and benchmarks. It speaks the real
// wire format (SSE `data: {chunk}\n\n` frames ending in `data: [DONE]`) over real HTTP, so
// the provider under test runs its real SDK code path: no mocking anywhere.
import { after, before } from "node:test";
import { type BaseReply, type RecordedRequest, type ScriptedServer, type SseStream, sendJson, splitIntoChunks, startScriptedServer } from "./scripted-http";

export { splitIntoChunks, type RecordedRequest } from "./scripted-http";

export interface ScriptedToolCall {
  name: string;
  /** An object is sent as JSON.stringify(object); a string is sent verbatim (e.g. broken JSON). */
  arguments: unknown;
  /** Defaults to a generated id; "" sends no id at all (some servers do that). */
  id?: string;
}

export interface ScriptedUsage {
  prompt_tokens: number;
  completion_tokens: number;
  prompt_tokens_details?: { cached_tokens?: number };
  completion_tokens_details?: { reasoning_tokens?: number };
}

export interface ScriptedReply extends BaseReply {
  /** Streamed as several `content` deltas. */
  text?: string;
  /** Streamed first, as `reasoning_content` deltas (DeepSeek / vLLM style). */
  reasoning?: string;
  /** Streamed as `tool_calls` deltas; several calls are interleaved by index. */
  toolCalls?: ScriptedToolCall[];
  /** Final usage chunk (sent when the request asked for stream_options.include_usage). */
  usage?: ScriptedUsage;
  /** Defaults to "tool_calls" when there are toolCalls, else "stop". */
  finishReason?: string;
  /** Computes the reply from the request (for echo-style or stateful scripts). */
  handler?: (request: RecordedRequest) => ScriptedReply | Promise<ScriptedReply>;
}

export interface ScriptedModelOptions {
  /** Model id reported in responses when the request names none, and by GET /v1/models. */
  model?: string;
  /** Used when the queue is empty; defaults to the text "(no scripted reply)". */
  fallback?: ScriptedReply;
  /** Port to listen on (default 0: any free port). */
  port?: number;
}

export type ScriptedModel = ScriptedServer<ScriptedReply>;

const NO_REPLY: ScriptedReply = { text: "(no scripted reply)" };

export async function startScriptedModel(options: ScriptedModelOptions = {}): Promise<ScriptedModel> {
  const defaultModel = options.model ?? "scripted-model";
  let counter = 0;
  return startScriptedServer<ScriptedReply>({
    port: options.port,
    fallback: options.fallback ?? NO_REPLY,
    isModelCall: (method, path) => method === "POST" && (path === "/v1/chat/completions" || path === "/chat/completions"),
    otherRoute: (method, path, res) => {
      if (method !== "GET" || (path !== "/v1/models" && path !== "/models")) return false;
      const created = Math.floor(Date.now() / 1000);
      sendJson(res, 200, { object: "list", data: [{ id: defaultModel, object: "model", created, owned_by: "scripted" }] });
      return true;
    },
    errorBody: errorJson,
    resolve: async (reply, request) => (reply.handler ? reply.handler(request) : reply),
    respond: async (reply, request, res, sse) => {
      const body = request.body;
      const model = typeof body?.model === "string" ? body.model : defaultModel;
      const id = `chatcmpl-scripted-${++counter}`;
      if (body?.stream !== true) return sendJson(res, 200, completionJson(id, model, reply, body), reply.headers);
      await streamReply(sse, id, model, reply, body);
    },
  });
}

async function streamReply(sse: SseStream, id: string, model: string, reply: ScriptedReply, body: RecordedRequest["body"]): Promise<void> {
  const includeUsage = body?.stream_options?.include_usage === true;
  const created = Math.floor(Date.now() / 1000);
  const frame = (choices: unknown[], usage?: unknown) => {
    // Real OpenAI sends `usage: null` on every chunk once include_usage is on.
    const chunk = { id, object: "chat.completion.chunk", created, model, system_fingerprint: null, choices };
    return `data: ${JSON.stringify(includeUsage ? { ...chunk, usage: usage ?? null } : chunk)}\n\n`;
  };
  const deltaFrame = (delta: object, finishReason: string | null = null) => frame([{ index: 0, delta, logprobs: null, finish_reason: finishReason }]);

  const content = [deltaFrame({ role: "assistant", content: "" })];
  for (const piece of splitIntoChunks(reply.reasoning ?? "")) content.push(deltaFrame({ reasoning_content: piece }));
  for (const piece of splitIntoChunks(reply.text ?? "")) content.push(deltaFrame({ content: piece }));
  for (const toolDelta of toolCallDeltas(reply.toolCalls ?? [], id)) content.push(deltaFrame({ tool_calls: [toolDelta] }));

  const finish = reply.finishReason ?? (reply.toolCalls?.length ? "tool_calls" : "stop");
  const closing = [deltaFrame({}, finish)];
  if (includeUsage) closing.push(frame([], usageJson(reply, body)));
  closing.push("data: [DONE]\n\n");
  sse.open();
  await sse.play(content, closing);
}

/** Tool call deltas: id + name first, then argument pieces, round-robin across calls by index. */
function toolCallDeltas(calls: ScriptedToolCall[], responseId: string): object[] {
  const perCall = calls.map((call, index) => {
    const args = typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments ?? {});
    const id = call.id ?? `call_${responseId.slice(-6)}_${index}`;
    const head = { index, ...(id ? { id } : {}), type: "function", function: { name: call.name, arguments: "" } };
    const rest = splitArgs(args).map((piece) => ({ index, function: { arguments: piece } }));
    return [head, ...rest];
  });
  const out: object[] = [];
  for (let step = 0; perCall.some((d) => step < d.length); step++) {
    for (const deltas of perCall) if (step < deltas.length) out.push(deltas[step]);
  }
  return out;
}

/** JSON arguments cut at fixed widths, so pieces split strings and keys mid-token like real models. */
function splitArgs(args: string): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < args.length; i += 7) pieces.push(args.slice(i, i + 7));
  return pieces;
}

function usageJson(reply: ScriptedReply, body: RecordedRequest["body"]): object {
  const usage = reply.usage ?? {
    // Rough 4-characters-per-token estimate: enough for code that sums usage.
    prompt_tokens: Math.ceil(JSON.stringify(body?.messages ?? []).length / 4),
    completion_tokens: Math.ceil(
      ((reply.text ?? "").length + (reply.reasoning ?? "").length + (reply.toolCalls ? JSON.stringify(reply.toolCalls).length : 0)) / 4,
    ),
  };
  return { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens };
}

function completionJson(id: string, model: string, reply: ScriptedReply, body: RecordedRequest["body"]): object {
  const toolCalls = (reply.toolCalls ?? []).map((call, index) => ({
    id: call.id ?? `call_${id.slice(-6)}_${index}`,
    type: "function",
    function: {
      name: call.name,
      arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments ?? {}),
    },
  }));
  const message: Record<string, unknown> = { role: "assistant", content: reply.text ?? null, refusal: null };
  if (reply.reasoning) message.reasoning_content = reply.reasoning;
  if (toolCalls.length) message.tool_calls = toolCalls;
  return {
    id,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message,
        logprobs: null,
        finish_reason: reply.finishReason ?? (toolCalls.length ? "tool_calls" : "stop"),
      },
    ],
    usage: usageJson(reply, body),
  };
}

function errorJson(status: number, message?: string): object {
  const defaults: Record<number, [string, string]> = {
    400: ["Bad request", "invalid_request_error"],
    401: ["Incorrect API key provided", "invalid_request_error"],
    403: ["Permission denied", "permission_error"],
    404: ["The model does not exist", "invalid_request_error"],
    429: ["Rate limit reached", "rate_limit_error"],
  };
  const [text, type] = defaults[status] ?? ["The server had an error while processing your request", "server_error"];
  return { error: { message: message ?? text, type, param: null, code: null } };
}

/** One scripted model for a whole test file: started before the tests, closed after. */
export function useScriptedModel(options?: ScriptedModelOptions): () => ScriptedModel {
  let model: ScriptedModel | undefined;
  before(async () => {
    model = await startScriptedModel(options);
  });
  after(async () => {
    await model?.close();
  });
  return () => {
    if (!model) throw new Error("the scripted model starts in before(); use it inside a test");
    return model;
  };
}
