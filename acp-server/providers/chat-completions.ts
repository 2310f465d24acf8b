// ModelProvider for any OpenAI Chat Completions compatible endpoint (OpenAI, OpenRouter,
// DeepSeek, vLLM, llama.cpp, Ollama, LM Studio, ...), built on the official `openai` SDK.
// Type-only: the SDK is heavy, so it is loaded on the first call, not at process start.
import type OpenAI from "openai";
import type { ChatCompletionChunk, ChatCompletionCreateParamsStreaming } from "openai/resources/chat/completions";
import type { Stream } from "openai/streaming";
import {
  mapFinishReason,
  mapUsage,
  reasoningOf,
  toOpenAIMessages,
  toOpenAITools,
  ToolCallAccumulator,
} from "./chat-completions-messages";
import { openAiCacheControl, type CacheOptions } from "./cache-breakpoints";
import { requestJsonBytes } from "./request-json";
import { generatedCallId, loadOpenAIClient, type OpenAIModule } from "./openai-client";
import { SdkProvider, type SdkProviderBase } from "./sdk-provider";
import type { StreamGuard } from "./stream-guard";
import { ProviderError } from "./types";
import type { FinishReason, ModelEvent, ModelRequest, TokenUsage } from "./types";


export interface ChatCompletionsProviderOptions extends SdkProviderBase {
  /**
   * Retries inside the SDK. Default 0: the agent loop retries itself (with backoff,
   * retry-after, notices to the user, then fallback models).
   */
  maxRetries?: number;
  /** Accept a stream that ends without finish_reason (some minimal local servers). */
  lenientFinish?: boolean;
  /** Mark prompt-cache breakpoints ("system and last 3"), for Claude models behind OpenRouter. */
  promptCache?: CacheOptions;
}

export class ChatCompletionsProvider extends SdkProvider<OpenAIModule, OpenAI> {
  constructor(private readonly options: ChatCompletionsProviderOptions) {
    super(options);
  }

  protected async *events(client: OpenAI, request: ModelRequest, guard: StreamGuard): AsyncGenerator<ModelEvent> {
    // The body goes as UTF-8 JSON made from parts encoded once (request-json.ts): the bytes
    // chat.completions.create would send, without re-encoding the history and tool schemas on
    // every call. The SDK sends bytes given with their content-type as they are.
    const body = requestJsonBytes(this.requestBody(request), { messages: "items", tools: "whole" });
    const stream = await guard.race(
      client.post<Stream<ChatCompletionChunk>>("/chat/completions", { body, headers: { "content-type": "application/json" }, stream: true, signal: guard.signal }),
    );
    guard.arm();
    const toolCalls = new ToolCallAccumulator();
    let finish: string | undefined;
    let usage: TokenUsage | undefined;
    let refused = false;
    for await (const chunk of stream) {
      guard.pause();
      // Keep the last usage seen: some servers repeat running totals on every chunk.
      if (chunk.usage) usage = mapUsage(chunk.usage);
      const choice = chunk.choices?.[0];
      if (choice) {
        const delta = choice.delta ?? {};
        const reasoning = reasoningOf(delta);
        if (reasoning) yield { type: "reasoning_delta", text: reasoning };
        if (typeof delta.content === "string" && delta.content !== "") yield { type: "text_delta", text: delta.content };
        // A refusal streams in its own field: it is the model's answer, shown as its message.
        if (typeof delta.refusal === "string" && delta.refusal !== "") {
          refused = true;
          yield { type: "text_delta", text: delta.refusal };
        }
        for (const call of delta.tool_calls ?? []) toolCalls.add(call);
        if (choice.finish_reason) finish = choice.finish_reason;
      }
      guard.arm();
    }
    guard.check();
    // A stream cut off before any finish_reason (and [DONE]) is not a finished answer.
    if (finish === undefined && !this.options.lenientFinish) {
      throw new ProviderError(`${this.provider}: the stream from ${this.options.baseURL} ended without finishing`, { kind: "malformed" });
    }
    for (const call of toolCalls.finish(generatedCallId)) {
      yield { type: "tool_call", call };
    }
    if (usage) yield { type: "usage", usage };
    let reason: FinishReason = finish ? mapFinishReason(finish) : "stop";
    // Some local servers (Ollama, llama.cpp) say "stop" (or nothing) after tool calls.
    if (reason === "stop" && toolCalls.size > 0) reason = "tool_calls";
    // OpenAI ends a refusal with "stop": the refusal field is what says the model declined.
    if (refused && reason === "stop") reason = "content_filter";
    yield { type: "finish", reason };
  }

  protected loadSdk(): Promise<{ module: OpenAIModule; client: OpenAI }> {
    return loadOpenAIClient(this.options, this.options.maxRetries ?? 0);
  }

  /** The request as chat.completions.create takes it (the fields in the order they are sent). */
  private requestBody(request: ModelRequest): ChatCompletionCreateParamsStreaming {
    const body: ChatCompletionCreateParamsStreaming = {
      model: this.model,
      messages: this.options.promptCache
        ? openAiCacheControl(toOpenAIMessages(request.messages), this.options.promptCache)
        : toOpenAIMessages(request.messages),
      stream: true,
      stream_options: { include_usage: true },
    };
    // An empty `tools` array (or parallel_tool_calls without tools) is rejected by OpenAI.
    if (request.tools.length > 0) {
      body.tools = toOpenAITools(request.tools);
      // Explicit because llama.cpp defaults it to false.
      body.parallel_tool_calls = true;
    }
    if (request.maxTokens !== undefined) body.max_tokens = request.maxTokens;
    if (request.temperature !== undefined) body.temperature = request.temperature;
    return body;
  }

}
