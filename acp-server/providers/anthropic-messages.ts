// ModelProvider for the Anthropic Messages API (api.anthropic.com and compatible servers),
// built on the official `@anthropic-ai/sdk`, reading the raw SSE event stream.
// Type-only: the SDK is heavy, so it is loaded on the first call, not at process start.
import { sdkLogger } from "../util/log";
import type Anthropic from "@anthropic-ai/sdk";
import type { MessageCreateParamsStreaming, RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages/messages";
import {
  mapStopReason,
  mapUsage,
  toAnthropicConversation,
  toAnthropicTools,
  toolNamesUsed,
  type AnthropicUsageCounts,
} from "./anthropic-messages-mapping";
import { withAnthropicBreakpoints, type CacheTtl } from "./cache-breakpoints";
import { SdkProvider, type SdkProviderBase } from "./sdk-provider";
import type { StreamGuard } from "./stream-guard";
import { ProviderError } from "./types";
import type { FinishReason, ModelEvent, ModelRequest, ReplayBlock, ToolCallRequest } from "./types";
import { createKeepAliveFetch } from "./http-fetch";

type AnthropicModule = typeof import("@anthropic-ai/sdk");

/**
 * Config URLs end in /v1 like every other provider's, but the Anthropic SDK appends
 * /v1/messages itself: a trailing /v1 is stripped before it reaches the SDK (see sdkBaseURL).
 */
export interface AnthropicMessagesProviderOptions extends SdkProviderBase {
  /** Output cap (the API requires one); ModelRequest.maxTokens overrides it. */
  maxTokens: number;
  /** Extended thinking; max_tokens is raised above the budget when needed. */
  thinking?: { budgetTokens: number };
  /** Prompt caching breakpoints ("system and last 3"); default { ttl: "5m" }, false for none. */
  cache?: { ttl: CacheTtl } | false;
}

/** The SDK wants the host root (it adds /v1/messages); config gives .../v1. */
export function sdkBaseURL(baseURL: string): string {
  return baseURL.replace(/\/+$/, "").replace(/\/v1$/, "");
}

type OpenBlock =
  | { type: "text" }
  | { type: "thinking"; thinking: string; signature: string }
  | { type: "redacted_thinking"; data: string }
  | { type: "tool_use"; id: string; name: string; json: string; input: unknown }
  | { type: "other" };

export class AnthropicMessagesProvider extends SdkProvider<AnthropicModule, Anthropic> {
  constructor(private readonly options: AnthropicMessagesProviderOptions) {
    super(options);
  }

  protected async *events(client: Anthropic, request: ModelRequest, guard: StreamGuard): AsyncGenerator<ModelEvent> {
    const stream = await guard.race(client.messages.create(this.requestBody(request), { signal: guard.signal }));
    guard.arm();
    // Blocks by stream index, in order; thinking and tool_use ones are kept to the end.
    const blocks = new Map<number, OpenBlock>();
    let usage: AnthropicUsageCounts = {};
    let stopReason: string | null | undefined;
    let stopped = false;
    for await (const event of stream as AsyncIterable<RawMessageStreamEvent>) {
      guard.pause();
      switch (event.type) {
        case "message_start":
          usage = { ...event.message.usage };
          break;
        case "content_block_start": {
          const block = event.content_block;
          if (block.type === "text") {
            blocks.set(event.index, { type: "text" });
            if (block.text) yield { type: "text_delta", text: block.text };
          } else if (block.type === "thinking") {
            blocks.set(event.index, { type: "thinking", thinking: block.thinking ?? "", signature: block.signature ?? "" });
            if (block.thinking) yield { type: "reasoning_delta", text: block.thinking };
          } else if (block.type === "redacted_thinking") {
            blocks.set(event.index, { type: "redacted_thinking", data: block.data });
          } else if (block.type === "tool_use") {
            blocks.set(event.index, { type: "tool_use", id: block.id, name: block.name, json: "", input: block.input });
          } else {
            blocks.set(event.index, { type: "other" }); // server tools etc.: not requested by Hermes
          }
          break;
        }
        case "content_block_delta": {
          const block = blocks.get(event.index);
          const delta = event.delta;
          if (delta.type === "text_delta") {
            if (delta.text) yield { type: "text_delta", text: delta.text };
          } else if (delta.type === "thinking_delta") {
            if (block?.type === "thinking") block.thinking += delta.thinking;
            if (delta.thinking) yield { type: "reasoning_delta", text: delta.thinking };
          } else if (delta.type === "signature_delta") {
            if (block?.type === "thinking") block.signature += delta.signature;
          } else if (delta.type === "input_json_delta") {
            if (block?.type === "tool_use") block.json += delta.partial_json;
          }
          break;
        }
        case "message_delta":
          stopReason = event.delta.stop_reason ?? stopReason;
          // Cumulative counts; fields the delta leaves null keep message_start's values.
          for (const [key, value] of Object.entries(event.usage ?? {})) {
            if (value !== null && value !== undefined) (usage as Record<string, unknown>)[key] = value;
          }
          break;
        case "message_stop":
          stopped = true;
          break;
        // content_block_stop needs nothing: blocks are complete once message_stop arrives.
      }
      guard.arm();
    }
    guard.check();
    // Without message_stop the answer was cut off; retrying is the loop's call.
    if (!stopped) {
      throw new ProviderError(`${this.provider}: the stream from ${this.options.baseURL} ended before message_stop`, { kind: "malformed" });
    }
    const { replay, calls } = finalBlocks(blocks);
    for (const block of replay) yield { type: "replay", block };
    // Tool calls only now, after the stream is known complete: a cut-off stream must not
    // leave tool_use blocks in the history that never get a tool_result.
    for (const call of calls) yield { type: "tool_call", call };
    yield { type: "usage", usage: mapUsage(usage) };
    let reason: FinishReason = mapStopReason(stopReason);
    if (reason === "stop" && calls.length > 0) reason = "tool_calls";
    yield { type: "finish", reason };
  }

  protected loadSdk(): Promise<{ module: AnthropicModule; client: Anthropic }> {
    return import("@anthropic-ai/sdk").then((module) => ({
      module,
      client: new module.default({
        // Always explicit: without a key the SDK would fall back to ANTHROPIC_API_KEY and its
        // on-disk credential profiles, which must not leak to another configured server.
        apiKey: this.options.apiKey ?? "not-needed",
        baseURL: sdkBaseURL(this.options.baseURL),
        defaultHeaders: this.options.headers,
        timeout: this.options.timeoutMs,
        // The agent loop retries itself (backoff, retry-after, notices, fallback models).
        maxRetries: 0,
        // stdout carries the ACP JSON-RPC stream: the SDK's logs go to the redacting logger
        // (stderr and the log file), never console: debug lines carry headers.
        logger: sdkLogger("anthropic-sdk"),
        // Keep-alive http(s) instead of the global fetch's heavier machinery (http-fetch.ts).
        fetch: createKeepAliveFetch(),
      }),
    }));
  }

  /** The request body; deterministic for equal input, so cached prefixes stay byte-identical. */
  private requestBody(request: ModelRequest): MessageCreateParamsStreaming {
    let conversation = toAnthropicConversation(request.messages);
    const cache = this.options.cache ?? { ttl: "5m" as const };
    if (cache) conversation = withAnthropicBreakpoints(conversation, cache);
    const thinking = this.options.thinking;
    let maxTokens = request.maxTokens ?? this.options.maxTokens;
    // max_tokens includes the thinking budget and must exceed it: keep the requested cap for the answer.
    if (thinking && maxTokens <= thinking.budgetTokens) maxTokens += thinking.budgetTokens;
    const body: MessageCreateParamsStreaming = {
      model: this.model,
      max_tokens: maxTokens,
      messages: conversation.messages,
      stream: true,
    };
    if (conversation.system.length > 0) body.system = conversation.system;
    if (request.tools.length > 0) {
      body.tools = toAnthropicTools(request.tools);
    } else {
      // A history with tool_use blocks is refused unless tools are declared; for a call that
      // must answer without tools, declare the used ones and forbid them.
      const used = toolNamesUsed(conversation.messages);
      if (used.length > 0) {
        body.tools = used.map((name) => ({ name, input_schema: { type: "object" as const } }));
        body.tool_choice = { type: "none" };
      }
    }
    if (thinking) body.thinking = { type: "enabled", budget_tokens: thinking.budgetTokens };
    // request.temperature is deliberately dropped: API version 2026-10-21 (what this SDK
    // speaks) answers 400 to temperature/top_p/top_k, even at their default values.
    return body;
  }

}

/** Replay blocks (thinking, in stream order) and whole tool calls from the finished stream. */
function finalBlocks(blocks: Map<number, OpenBlock>): { replay: ReplayBlock[]; calls: ToolCallRequest[] } {
  const replay: ReplayBlock[] = [];
  const calls: ToolCallRequest[] = [];
  for (const [, block] of [...blocks.entries()].sort(([a], [b]) => a - b)) {
    if (block.type === "thinking") {
      replay.push({ format: "anthropic_messages", data: { type: "thinking", thinking: block.thinking, signature: block.signature } });
    } else if (block.type === "redacted_thinking") {
      replay.push({ format: "anthropic_messages", data: { type: "redacted_thinking", data: block.data } });
    } else if (block.type === "tool_use") {
      calls.push({ id: block.id, name: block.name, arguments: toolArguments(block) });
    }
  }
  return { replay, calls };
}

/** The streamed JSON verbatim; a server that sent the input whole at block start is serialized. */
function toolArguments(block: Extract<OpenBlock, { type: "tool_use" }>): string {
  if (block.json.trim() !== "") return block.json;
  const input = block.input;
  if (input !== null && typeof input === "object" && Object.keys(input).length > 0) return JSON.stringify(input);
  return "{}";
}
