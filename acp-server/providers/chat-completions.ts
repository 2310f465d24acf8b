// ModelProvider for any OpenAI Chat Completions compatible endpoint (OpenAI, OpenRouter,
// DeepSeek, vLLM, llama.cpp, Ollama, LM Studio, ...), built on the official `openai` SDK.
import { randomUUID } from "node:crypto";
// Type-only: the SDK is heavy, so it is loaded on the first call, not at process start.
import type OpenAI from "openai";
import type { ChatCompletionCreateParamsStreaming } from "openai/resources/chat/completions";
import {
  mapFinishReason,
  mapUsage,
  reasoningOf,
  toOpenAIMessages,
  toOpenAITools,
  ToolCallAccumulator,
} from "./chat-completions-messages";
import { ProviderError } from "./types";
import type { FinishReason, ModelEvent, ModelProvider, ModelRequest, TokenUsage } from "./types";

type OpenAIModule = typeof import("openai");

export interface ChatCompletionsProviderOptions {
  /** Provider name from config, used in logs and error messages. */
  provider: string;
  model: string;
  /** e.g. https://api.openai.com/v1 or http://127.0.0.1:8080/v1 */
  baseURL: string;
  /** Undefined for local servers that need no key. */
  apiKey?: string;
  /** Environment variable the key comes from, named in the hint of 401/403 errors. */
  apiKeyEnv?: string;
  headers?: Record<string, string>;
  /** Time to wait for response headers, and the longest silence allowed mid-stream. */
  timeoutMs?: number;
  /** SDK retries on connection errors, 408/409/429 and 5xx; only ever before any data streamed. */
  maxRetries?: number;
}

export class ChatCompletionsProvider implements ModelProvider {
  readonly provider: string;
  readonly model: string;
  private sdk?: Promise<{ module: OpenAIModule; client: OpenAI }>;

  constructor(private readonly options: ChatCompletionsProviderOptions) {
    this.provider = options.provider;
    this.model = options.model;
  }

  async *stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelEvent> {
    if (signal.aborted) throw abortError();
    const { module, client } = await this.load();
    if (signal.aborted) throw abortError();

    // One controller for both the caller's abort and our mid-stream idle timeout.
    const controller = new AbortController();
    const onAbort = () => controller.abort();
    signal.addEventListener("abort", onAbort, { once: true });
    const idleMs = this.options.timeoutMs;
    let idleTimer: NodeJS.Timeout | undefined;
    let idleExpired = false;
    const armIdle = () => {
      if (!idleMs) return;
      clearTimeout(idleTimer);
      idleTimer = setTimeout(() => {
        idleExpired = true;
        controller.abort();
      }, idleMs);
    };
    let emitted = false;
    let complete = false;

    try {
      // The SDK's own abort check only runs between retries, after its (unabortable) backoff
      // sleep; racing the signal makes cancel immediate even then.
      const stream = await untilAborted(
        client.chat.completions.create(this.requestBody(request), { signal: controller.signal }),
        controller.signal,
      );
      armIdle();
      const toolCalls = new ToolCallAccumulator();
      let finish: string | undefined;
      let usage: TokenUsage | undefined;
      for await (const chunk of stream) {
        // Paused while we yield, so a slow consumer never counts as server silence.
        clearTimeout(idleTimer);
        // Keep the last usage seen: some servers repeat running totals on every chunk.
        if (chunk.usage) usage = mapUsage(chunk.usage);
        const choice = chunk.choices?.[0];
        if (choice) {
          const delta = choice.delta ?? {};
          const reasoning = reasoningOf(delta);
          if (reasoning) {
            emitted = true;
            yield { type: "reasoning_delta", text: reasoning };
          }
          if (typeof delta.content === "string" && delta.content !== "") {
            emitted = true;
            yield { type: "text_delta", text: delta.content };
          }
          for (const call of delta.tool_calls ?? []) {
            emitted = true;
            toolCalls.add(call);
          }
          if (choice.finish_reason) finish = choice.finish_reason;
        }
        armIdle();
      }
      // On abort the SDK ends the iteration quietly instead of throwing: a truncated stream
      // must not pass for a finished one.
      if (controller.signal.aborted) throw abortError();

      for (const call of toolCalls.finish(() => `call_${randomUUID().replace(/-/g, "").slice(0, 24)}`)) {
        yield { type: "tool_call", call };
      }
      if (usage) yield { type: "usage", usage };
      let reason: FinishReason = finish ? mapFinishReason(finish) : "stop";
      // Some local servers (Ollama, llama.cpp) say "stop" (or nothing) after tool calls.
      if (reason === "stop" && toolCalls.size > 0) reason = "tool_calls";
      complete = true;
      yield { type: "finish", reason };
    } catch (error) {
      if (signal.aborted) throw abortError();
      if (idleExpired) {
        throw new ProviderError(
          `${this.provider}: no data from ${this.options.baseURL} for ${(idleMs ?? 0) / 1000}s; the model server seems stuck`,
          undefined,
          !emitted,
        );
      }
      throw this.toProviderError(error, module, emitted);
    } finally {
      clearTimeout(idleTimer);
      signal.removeEventListener("abort", onAbort);
      // Also reached when the consumer stops iterating early: drop the HTTP request then too.
      if (!complete) controller.abort();
    }
  }

  async warmUp(): Promise<void> {
    await this.load();
  }

  private load(): Promise<{ module: OpenAIModule; client: OpenAI }> {
    this.sdk ??= import("openai").then((module) => ({
      module,
      client: new module.default({
        // The SDK refuses to start without a key; local servers ignore this placeholder.
        apiKey: this.options.apiKey ?? "not-needed",
        baseURL: this.options.baseURL,
        defaultHeaders: this.options.headers,
        timeout: this.options.timeoutMs,
        maxRetries: this.options.maxRetries ?? 2,
        // Never leak OPENAI_ORG_ID / OPENAI_PROJECT_ID from the environment to other vendors.
        ...(this.provider === "openai" ? {} : { organization: null, project: null }),
        // stdout carries the ACP JSON-RPC stream: the SDK's logs (OPENAI_LOG=debug) go to stderr.
        logger: { error: console.error, warn: console.error, info: console.error, debug: console.error },
      }),
    }));
    return this.sdk;
  }

  private requestBody(request: ModelRequest): ChatCompletionCreateParamsStreaming {
    const body: ChatCompletionCreateParamsStreaming = {
      model: this.model,
      messages: toOpenAIMessages(request.messages),
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

  /** Turns SDK and network failures into one message the user can act on. */
  private toProviderError(error: unknown, sdk: OpenAIModule, emitted: boolean): ProviderError {
    const { provider, model, baseURL, apiKeyEnv } = this.options;
    // After partial output a blind retry would repeat text the user already saw.
    const retry = (retryable: boolean) => retryable && !emitted;
    if (error instanceof sdk.APIConnectionTimeoutError) {
      return new ProviderError(`${provider}: request to ${baseURL} timed out`, undefined, retry(true));
    }
    if (error instanceof sdk.APIConnectionError) {
      const code = errorCode(error.cause);
      const why =
        code === "ECONNREFUSED" ? "is the server running?"
        : code === "ENOTFOUND" || code === "EAI_AGAIN" ? "host not found; check base_url"
        : describe(error.cause);
      return new ProviderError(`${provider}: could not reach ${baseURL}: ${why}`, undefined, retry(true));
    }
    if (error instanceof sdk.APIError) {
      const serverMessage = serverMessageOf(error);
      const status = error.status;
      if (status === undefined) {
        // An `{"error": ...}` event inside an otherwise successful stream.
        return new ProviderError(`${provider}: the model stream reported an error: ${serverMessage}`, undefined, false);
      }
      const hints: Record<number, string> = {
        401: `check the API key${apiKeyEnv ? ` (${apiKeyEnv})` : ""}`,
        403: `check the API key${apiKeyEnv ? ` (${apiKeyEnv})` : ""} and that it may use model "${model}"`,
        404: `check the model name "${model}" and base_url ${baseURL}`,
        429: "rate limited; wait a moment and retry",
      };
      const hint = hints[status] ?? (status >= 500 ? "the model server failed; retry later" : undefined);
      const retryable = status === 408 || status === 409 || status === 429 || status >= 500;
      const message = `${provider}: HTTP ${status}: ${serverMessage}${hint ? `; ${hint}` : ""}`;
      return new ProviderError(message, status, retry(retryable));
    }
    if (error instanceof SyntaxError) {
      return new ProviderError(`${provider}: malformed data in the stream from ${baseURL}: ${error.message}`, undefined, false);
    }
    // Typically undici's "terminated": the connection dropped mid-response.
    return new ProviderError(`${provider}: connection to ${baseURL} failed: ${describe(error)}`, undefined, retry(true));
  }
}

function abortError(): Error {
  const error = new Error("The model request was cancelled");
  error.name = "AbortError";
  return error;
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError());
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/** The server's own words: `{error:{message}}`, Ollama's `{error:"..."}`, or the raw text. */
function serverMessageOf(error: { error?: unknown; message: string; status?: number }): string {
  const body = error.error;
  if (typeof body === "string" && body) return body;
  const inner = (body as { message?: unknown } | undefined)?.message;
  if (typeof inner === "string" && inner) return inner;
  // The SDK prefixes its message with the status ("500 ..."); drop the duplicate.
  const text = error.message.replace(/^\d{3}\s+/, "");
  return text && text !== "status code (no body)" ? text : "(no error message)";
}

/** Node network errors hide their code in a cause chain or an AggregateError. */
function errorCode(error: unknown, depth = 0): string | undefined {
  if (!error || typeof error !== "object" || depth > 5) return undefined;
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === "string") return code;
  if (Array.isArray(errors)) for (const inner of errors) {
    const found = errorCode(inner, depth + 1);
    if (found) return found;
  }
  return errorCode(cause, depth + 1);
}

function describe(error: unknown): string {
  const cause = (error as { cause?: unknown } | undefined)?.cause;
  const base = error instanceof Error ? error.message : String(error);
  return cause instanceof Error && cause.message && cause.message !== base ? `${base} (${cause.message})` : base;
}
