// Pure conversions between Hermes' provider-neutral types and the OpenAI Responses API wire
// shapes. Kept apart from the provider so they are testable without a server.
import type {
  FunctionTool,
  ResponseInputContent,
  ResponseInputImageContent,
  ResponseInputItem,
  ResponseReasoningItem,
  ResponseUsage,
} from "openai/resources/responses/responses";
import { ContextOverflowError, ProviderError, type ProviderErrorKind } from "./types";
import type { ChatMessage, FinishReason, ReplayBlock, TokenUsage, ToolSpec, UserPart } from "./types";

export const REPLAY_FORMAT = "codex_responses";

/**
 * A previous assistant answer sent back as input. The SDK only types the output form (which
 * needs the server-assigned id and annotations); with `store: false` there is no id to cite
 * and the API accepts this shorter form.
 */
export interface AssistantInputMessage {
  type: "message";
  role: "assistant";
  content: { type: "output_text"; text: string }[];
}

export type ResponsesInputItem = ResponseInputItem | AssistantInputMessage;

export interface ResponsesPrompt {
  /** The system messages joined; undefined when there are none. */
  instructions?: string;
  input: ResponsesInputItem[];
}

export function toResponsesPrompt(messages: ChatMessage[]): ResponsesPrompt {
  const system: string[] = [];
  const input: ResponsesInputItem[] = [];
  for (const message of messages) {
    switch (message.role) {
      case "system":
        system.push(message.content);
        break;
      case "user":
        input.push({ role: "user", content: message.content.map(toInputContent) });
        break;
      case "assistant":
        // Reasoning items first, verbatim and in order: the API pairs each one with the
        // message or function call that followed it, and rejects them out of place.
        // Blocks of other formats (after a model switch) cannot be read here and are dropped;
        // the plain `reasoning` text is never sent (the encrypted item carries it).
        for (const block of message.replay ?? []) {
          if (block.format === REPLAY_FORMAT) input.push(block.data as ResponseInputItem);
        }
        if (message.content !== "") {
          input.push({ type: "message", role: "assistant", content: [{ type: "output_text", text: message.content }] });
        }
        for (const call of message.toolCalls ?? []) {
          input.push({ type: "function_call", call_id: call.id, name: call.name, arguments: call.arguments });
        }
        break;
      case "tool":
        input.push({
          type: "function_call_output",
          call_id: message.toolCallId,
          // Images a tool returned go with its text (the API takes input_image in function outputs).
          output: message.images?.length
            ? [{ type: "input_text", text: message.content }, ...message.images.map((image) => toInputContent({ type: "image", ...image }) as ResponseInputImageContent)]
            : message.content,
        });
        break;
    }
  }
  return { ...(system.length ? { instructions: system.join("\n\n") } : {}), input };
}

function toInputContent(part: UserPart): ResponseInputContent {
  return part.type === "text"
    ? { type: "input_text", text: part.text }
    : // `detail` is required by the schema; "auto" is also the server default.
      { type: "input_image", detail: "auto", image_url: `data:${part.mimeType};base64,${part.data}` };
}

export function toResponsesTools(tools: ToolSpec[]): FunctionTool[] {
  // strict:false because Hermes' schemas have optional properties, which strict mode forbids.
  return tools.map((tool) => ({ type: "function", name: tool.name, description: tool.description, parameters: tool.parameters, strict: false }));
}

/** A reasoning output item as it must go back next call (status and content are output-only). */
export function reasoningReplay(item: ResponseReasoningItem): ReplayBlock {
  const data: Record<string, unknown> = { type: "reasoning", id: item.id, summary: item.summary ?? [] };
  if (item.encrypted_content) data.encrypted_content = item.encrypted_content;
  return { format: REPLAY_FORMAT, data };
}

/** Compatible servers may omit the details objects; OpenAI's input_tokens already includes cached ones. */
export function mapResponsesUsage(usage: Partial<ResponseUsage>): TokenUsage {
  const mapped: TokenUsage = { inputTokens: usage.input_tokens ?? 0, outputTokens: usage.output_tokens ?? 0 };
  const cached = usage.input_tokens_details?.cached_tokens;
  const written = (usage.input_tokens_details as { cache_write_tokens?: unknown } | undefined)?.cache_write_tokens;
  const reasoning = usage.output_tokens_details?.reasoning_tokens;
  if (typeof cached === "number") mapped.cacheReadTokens = cached;
  if (typeof written === "number" && written > 0) mapped.cacheWriteTokens = written;
  if (typeof reasoning === "number") mapped.reasoningTokens = reasoning;
  return mapped;
}

export function incompleteReason(reason: string | undefined | null): FinishReason {
  if (reason === "max_output_tokens") return "length";
  if (reason === "content_filter") return "content_filter";
  return "other";
}

const OVERFLOW = /context_length_exceeded|context[ _-]?length|context window|maximum context|too many tokens|input is too long/i;

/**
 * A failure reported inside a 200 stream (`response.failed` or an `error` event), which has
 * no HTTP status to classify by: the error code decides instead.
 */
export function streamFailure(provider: string, code: string | null | undefined, message: string | undefined): ProviderError {
  const text = message || "(no error message)";
  const c = code ?? "";
  // A rate limit message may talk about tokens too ("too many tokens per minute"): the code wins.
  if (!/rate_limit|quota/.test(c) && OVERFLOW.test(`${c} ${text}`)) {
    return new ContextOverflowError(`${provider}: the conversation no longer fits the context window: ${text}`);
  }
  const kind: ProviderErrorKind =
    /insufficient_quota|billing/.test(c) ? "auth" // retrying cannot help; another model might
    : /rate_limit/.test(c) ? "rate_limit"
    : c === "" || /server|timeout|overloaded|unavailable/.test(c) ? "server"
    : /auth|permission|api_key/.test(c) ? "auth"
    : "bad_request"; // the documented remaining codes all describe a bad input (invalid_prompt, image_*)
  return new ProviderError(`${provider}: the model reported an error${c ? ` (${c})` : ""}: ${text}`, { kind });
}
