// The provider-neutral conversation and the normalized event stream every API mode
// (Chat Completions now; Anthropic Messages and Responses next) turns its wire format into.
// The agent loop only ever sees these types.
import { AgentError } from "../util/agent-error";

export type UserPart =
  | { type: "text"; text: string }
  | { type: "image"; mimeType: string; data: string /* base64 */ };

export interface ToolCallRequest {
  /** Provider-assigned id, echoed back with the result. */
  id: string;
  name: string;
  /** Raw JSON text exactly as the model produced it; parsed and validated by the tool runner. */
  arguments: string;
}

/** The wire formats Hermes speaks. */
export type ApiFormat = "chat_completions" | "anthropic_messages" | "codex_responses";

/**
 * Provider-specific output that must go back to the same API verbatim on the next call:
 * Anthropic thinking blocks with their signatures, Responses reasoning items with their
 * encrypted content. Only a provider of the same `format` reads them; the others skip them
 * (after a model switch the reasoning is simply not replayed).
 */
export interface ReplayBlock {
  format: ApiFormat;
  data: unknown;
}

export type ChatMessage =
  | { role: "system"; content: string }
  /** `steer`: guidance the user sent during a running turn (/steer), not a prompt of its own. */
  | { role: "user"; content: UserPart[]; steer?: true }
  /** `id`: the ACP messageId its chunks carried live, journaled so session/load replays it with the same one. */
  | { role: "assistant"; content: string; reasoning?: string; toolCalls?: ToolCallRequest[]; replay?: ReplayBlock[]; id?: string }
  /** `images`: what a tool returned beside its text (MCP); APIs that cannot carry them get a note instead. */
  | { role: "tool"; toolCallId: string; name: string; content: string; images?: { mimeType: string; data: string }[] };

/** A prompt the user sent: a turn of its own (a /steer note inside a turn is not one). */
export function isUserPrompt(message: ChatMessage): boolean {
  return message.role === "user" && message.steer !== true;
}

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
}

export interface ModelRequest {
  messages: ChatMessage[];
  /** Empty means the model must answer without tools (used for the final summary call). */
  tools: ToolSpec[];
  maxTokens?: number;
  temperature?: number;
}

/**
 * Usage of one model call, normalized across APIs. `inputTokens` counts the whole prompt,
 * cached parts included (Anthropic reports those separately; they are added back here), so
 * inputTokens + outputTokens is the context the call used.
 */
export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  /** Prompt tokens served from the provider's cache. */
  cacheReadTokens?: number;
  /** Prompt tokens written to the provider's cache by this call. */
  cacheWriteTokens?: number;
  /** Output tokens spent on reasoning (part of outputTokens). */
  reasoningTokens?: number;
}

export type FinishReason = "stop" | "tool_calls" | "length" | "content_filter" | "other";

export type ModelEvent =
  | { type: "text_delta"; text: string }
  | { type: "reasoning_delta"; text: string }
  /** A complete tool call: emitted once its arguments have fully streamed. */
  | { type: "tool_call"; call: ToolCallRequest }
  /** Opaque output to store with the assistant message and send back next call. */
  | { type: "replay"; block: ReplayBlock }
  | { type: "usage"; usage: TokenUsage }
  | { type: "finish"; reason: FinishReason };

export interface ModelProvider {
  /** Provider name from config (openai, custom, ...), for logs and errors. */
  readonly provider: string;
  readonly model: string;
  /** Streams one model call. Aborting `signal` must abort the HTTP request promptly. */
  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelEvent>;
  /** Loads the SDK ahead of the first call (called in the background once a session exists). */
  warmUp?(): Promise<void>;
}

/**
 * What went wrong, which decides what happens next: `rate_limit`, `server`, `network`,
 * `timeout`, `stalled` and `malformed` are retried (then the fallback models are tried);
 * `auth` and `bad_request` are not retried but may fall back; `context_overflow` goes to
 * context compression.
 */
export type ProviderErrorKind =
  | "rate_limit"
  | "server"
  | "network"
  | "timeout"
  | "stalled"
  | "malformed"
  | "auth"
  | "context_overflow"
  | "bad_request"
  | "other";

const RETRYABLE: ReadonlySet<ProviderErrorKind> = new Set(["rate_limit", "server", "network", "timeout", "stalled", "malformed"]);

/** Any failure talking to the model, with a message fit to show the user. */
export class ProviderError extends AgentError<"provider"> {
  readonly kind: ProviderErrorKind;
  readonly status?: number;
  /** Server's retry-after hint, in milliseconds. */
  readonly retryAfterMs?: number;

  constructor(message: string, options: { kind: ProviderErrorKind; status?: number; retryAfterMs?: number }) {
    super("provider", message, { kind: options.kind, status: options.status });
    this.name = "ProviderError";
    this.kind = options.kind;
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
  }

  get retryable(): boolean {
    return RETRYABLE.has(this.kind);
  }
}

/** The prompt no longer fits the model's context window: compress and try again. */
export class ContextOverflowError extends ProviderError {
  constructor(message: string, status?: number) {
    super(message, { kind: "context_overflow", status });
    this.name = "ContextOverflowError";
  }
}
