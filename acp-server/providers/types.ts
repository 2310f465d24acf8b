// The provider-neutral conversation and the normalized event stream every API mode
// (Chat Completions now; Anthropic Messages and Responses next) turns its wire format into.
// The agent loop only ever sees these types.

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

export type ChatMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: UserPart[] }
  | { role: "assistant"; content: string; reasoning?: string; toolCalls?: ToolCallRequest[] }
  | { role: "tool"; toolCallId: string; name: string; content: string };

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

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens?: number;
  reasoningTokens?: number;
}

export type FinishReason = "stop" | "tool_calls" | "length" | "content_filter" | "other";

export type ModelEvent =
  | { type: "text_delta"; text: string }
  | { type: "reasoning_delta"; text: string }
  /** A complete tool call: emitted once its arguments have fully streamed. */
  | { type: "tool_call"; call: ToolCallRequest }
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

/** Any failure talking to the model, with a message fit to show the user. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly retryable = false,
  ) {
    super(message);
    this.name = "ProviderError";
  }
}
