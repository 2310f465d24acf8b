// A scripted Anthropic Messages server for tests and benchmarks: real HTTP, the real SSE
// event sequence (message_start, ping, content_block_start/delta/stop per block,
// message_delta, message_stop), so the provider under test runs the real SDK code path.
// Usage numbers come from a prompt-cache model (anthropic-cache-sim) unless a reply sets them.
import { createHash } from "node:crypto";
import { AnthropicCacheSim } from "./anthropic-cache-sim";
import { namedEvent, sendJson, splitIntoChunks, startScriptedServer } from "./scripted-http";
import type { BaseReply, RecordedRequest, ScriptedServer, SseStream } from "./scripted-http";

export type { RecordedRequest } from "./scripted-http";

export interface AnthropicToolCall {
  name: string;
  /** An object is sent as JSON in several input_json_delta pieces; a string is sent verbatim. */
  input: unknown;
  /** Defaults to a generated toolu_ id. */
  id?: string;
}

export interface AnthropicUsageOverride {
  input_tokens?: number;
  output_tokens?: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
}

export interface AnthropicReply extends BaseReply {
  /** Streamed as several text_delta events in one text block. */
  text?: string;
  /** A thinking block first: thinking_delta pieces, then one signature_delta. */
  thinking?: string;
  /** The thinking block's signature; defaults to one derived from the thinking text. */
  signature?: string;
  /** A redacted_thinking block (after the thinking block, before the text) with this data. */
  redactedThinking?: string;
  toolCalls?: AnthropicToolCall[];
  /** Overrides the simulated usage field by field. */
  usage?: AnthropicUsageOverride;
  /** Defaults to "tool_use" with toolCalls, else "end_turn". */
  stopReason?: string;
  /** After the content, send `event: error` with this error type (e.g. overloaded_error) and end. */
  streamError?: string;
  /** Computes the reply from the request. */
  handler?: (request: RecordedRequest) => AnthropicReply | Promise<AnthropicReply>;
}

export interface ScriptedAnthropic extends ScriptedServer<AnthropicReply> {
  /** The prompt-cache model every answered request went through (totals, readShare). */
  readonly cache: AnthropicCacheSim;
}

export interface ScriptedAnthropicOptions {
  port?: number;
  fallback?: AnthropicReply;
}

/** The signature the server gives a thinking text when the reply names none. */
export function defaultSignature(thinking: string): string {
  return `sig_${createHash("sha256").update(thinking).digest("base64")}`;
}

const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  529: "overloaded_error",
};

function errorJson(type: string, message: string): unknown {
  return { type: "error", error: { type, message }, request_id: "req_scripted" };
}

export async function startScriptedAnthropic(options: ScriptedAnthropicOptions = {}): Promise<ScriptedAnthropic> {
  const cache = new AnthropicCacheSim();
  let counter = 0;
  const server = await startScriptedServer<AnthropicReply>({
    port: options.port,
    fallback: options.fallback ?? { text: "(no scripted reply)" },
    isModelCall: (method, path) => method === "POST" && (path === "/v1/messages" || path === "/messages"),
    otherRoute(method, path, res) {
      if (method !== "GET" || (path !== "/v1/models" && path !== "/models")) return false;
      sendJson(res, 200, { data: [{ type: "model", id: "scripted-claude", display_name: "Scripted Claude" }], has_more: false });
      return true;
    },
    errorBody: (status, message) =>
      errorJson(ERROR_TYPES[status] ?? (status >= 500 ? "api_error" : "invalid_request_error"), message ?? defaultMessage(status)),
    resolve: (reply, request) => (reply.handler ? reply.handler(request) : reply),
    async respond(reply, request, res, sse) {
      const id = `msg_scripted_${++counter}`;
      const usage = { ...cache.process(request.body), output_tokens: outputTokens(reply), ...reply.usage };
      if (request.body?.stream !== true) return sendJson(res, 200, messageJson(id, reply, request.body, usage), reply.headers);
      await stream(reply, request.body, id, usage, sse);
    },
  });
  return Object.assign(server, { cache });
}

function defaultMessage(status: number): string {
  if (status === 401) return "invalid x-api-key";
  if (status === 429) return "Number of request tokens has exceeded your per-minute rate limit";
  if (status === 529) return "Overloaded";
  return status >= 500 ? "Internal server error" : "Invalid request";
}

type Usage = Required<AnthropicUsageOverride>;

function outputTokens(reply: AnthropicReply): number {
  const tools = (reply.toolCalls ?? []).map((call) => inputJson(call.input)).join("");
  return Math.max(1, Math.ceil(((reply.text ?? "") + (reply.thinking ?? "") + tools).length / 4));
}

function inputJson(input: unknown): string {
  return typeof input === "string" ? input : JSON.stringify(input ?? {});
}

function toolId(call: AnthropicToolCall, index: number, messageId: string): string {
  return call.id ?? `toolu_${createHash("sha256").update(`${messageId}:${index}`).digest("hex").slice(0, 24)}`;
}

/** The reply's content blocks, whole; tool_use blocks also carry the JSON text to stream. */
function contentBlocks(reply: AnthropicReply, messageId: string): { block: Record<string, unknown>; json?: string }[] {
  const blocks: { block: Record<string, unknown>; json?: string }[] = [];
  if (reply.thinking !== undefined) {
    blocks.push({ block: { type: "thinking", thinking: reply.thinking, signature: reply.signature ?? defaultSignature(reply.thinking) } });
  }
  if (reply.redactedThinking !== undefined) blocks.push({ block: { type: "redacted_thinking", data: reply.redactedThinking } });
  if (reply.text !== undefined) blocks.push({ block: { type: "text", text: reply.text, citations: null } });
  (reply.toolCalls ?? []).forEach((call, i) => {
    const json = inputJson(call.input);
    let input: unknown = {};
    try {
      input = JSON.parse(json);
    } catch {
      // broken JSON on purpose: only the streamed form can carry it
    }
    blocks.push({ block: { type: "tool_use", id: toolId(call, i, messageId), name: call.name, input, caller: { type: "direct" } }, json });
  });
  return blocks;
}

function stopReasonOf(reply: AnthropicReply): string {
  return reply.stopReason ?? (reply.toolCalls?.length ? "tool_use" : "end_turn");
}

function messageJson(id: string, reply: AnthropicReply, body: any, usage: Usage): unknown {
  return {
    id,
    type: "message",
    role: "assistant",
    model: body?.model ?? "scripted-claude",
    content: contentBlocks(reply, id).map(({ block }) => block),
    stop_reason: stopReasonOf(reply),
    stop_sequence: null,
    usage,
  };
}

async function stream(reply: AnthropicReply, body: any, id: string, usage: Usage, sse: SseStream): Promise<void> {
  const start = { ...usage, output_tokens: 1 };
  const frames = [
    namedEvent("message_start", {
      type: "message_start",
      message: { id, type: "message", role: "assistant", model: body?.model ?? "scripted-claude", content: [], stop_reason: null, stop_sequence: null, usage: start },
    }),
    namedEvent("ping", { type: "ping" }),
  ];
  contentBlocks(reply, id).forEach(({ block, json }, index) => frames.push(...blockFrames(block, index, json)));

  const closing = reply.streamError
    ? [namedEvent("error", errorJson(reply.streamError, reply.streamError === "overloaded_error" ? "Overloaded" : reply.streamError))]
    : [
        namedEvent("message_delta", { type: "message_delta", delta: { stop_reason: stopReasonOf(reply), stop_sequence: null }, usage }),
        namedEvent("message_stop", { type: "message_stop" }),
      ];
  sse.open();
  await sse.play(frames, closing);
}

/** start, the deltas of the block's content in pieces, stop: as the API streams each block. */
function blockFrames(block: Record<string, unknown>, index: number, json = ""): string[] {
  const delta = (payload: object) => namedEvent("content_block_delta", { type: "content_block_delta", index, delta: payload });
  const frames: string[] = [];
  const open = (content_block: object) => frames.push(namedEvent("content_block_start", { type: "content_block_start", index, content_block }));
  switch (block.type) {
    case "thinking":
      open({ type: "thinking", thinking: "", signature: "" });
      for (const piece of splitIntoChunks(block.thinking as string)) frames.push(delta({ type: "thinking_delta", thinking: piece }));
      frames.push(delta({ type: "signature_delta", signature: block.signature }));
      break;
    case "text":
      open({ type: "text", text: "", citations: null });
      for (const piece of splitIntoChunks(block.text as string)) frames.push(delta({ type: "text_delta", text: piece }));
      break;
    case "tool_use":
      // The input arrives as JSON text in pieces (the first one empty, as the API does).
      open({ ...block, input: {} });
      frames.push(delta({ type: "input_json_delta", partial_json: "" }));
      for (let i = 0, chars = Array.from(json); i < chars.length; i += 7) {
        frames.push(delta({ type: "input_json_delta", partial_json: chars.slice(i, i + 7).join("") }));
      }
      break;
    default:
      open(block); // redacted_thinking arrives whole
  }
  frames.push(namedEvent("content_block_stop", { type: "content_block_stop", index }));
  return frames;
}
