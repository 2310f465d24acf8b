// Pure conversions between Hermes' provider-neutral conversation and the Anthropic Messages
// wire shapes. Kept apart from the provider so they are testable without a server.
import type {
  Base64ImageSource,
  ContentBlockParam,
  TextBlockParam,
  Tool,
} from "@anthropic-ai/sdk/resources/messages/messages";
import type { ChatMessage, FinishReason, TokenUsage, ToolSpec, UserPart } from "./types";

/** A conversation message as sent: content is always a block array (breakpoints need blocks). */
export interface AnthropicMessage {
  role: "user" | "assistant";
  content: ContentBlockParam[];
}

export interface AnthropicConversation {
  system: TextBlockParam[];
  messages: AnthropicMessage[];
}

/** Sent when the conversation would otherwise open with an assistant turn (the API refuses that). */
export const CONTINUATION_TEXT = "(continuing the conversation)";

export function toAnthropicConversation(messages: ChatMessage[]): AnthropicConversation {
  const system: TextBlockParam[] = [];
  const out: AnthropicMessage[] = [];
  const push = (role: AnthropicMessage["role"], content: ContentBlockParam[]) => {
    if (content.length === 0) return; // empty turns are rejected; dropping one lets neighbours merge
    const last = out.at(-1);
    // Roles must alternate: consecutive same-role turns (tool results followed by a user
    // note, two assistant turns after a dropped empty user turn) become one message.
    if (last?.role === role) last.content = toolResultsFirst([...last.content, ...content]);
    else out.push({ role, content });
  };
  for (const message of messages) {
    switch (message.role) {
      case "system":
        // Only the leading system messages form the system prompt. A later one (a note the
        // loop adds mid-conversation) stays in place as user text: moving it up would change
        // the system prompt and so invalidate the whole prompt cache.
        if (out.length === 0) {
          if (message.content !== "") system.push({ type: "text", text: message.content });
        } else {
          push("user", textBlocks(message.content));
        }
        break;
      case "user":
        push("user", message.content.flatMap(userBlock));
        break;
      case "assistant":
        push("assistant", assistantBlocks(message));
        break;
      case "tool":
        push("user", [
          {
            type: "tool_result",
            tool_use_id: toolUseId(message.toolCallId),
            // An empty string would become an empty text block, which the API rejects.
            ...(message.images?.length
              ? { content: [...textBlocks(message.content), ...message.images.flatMap((image) => userBlock({ type: "image", ...image }))] as ToolResultContent }
              : message.content !== "" ? { content: message.content } : {}),
          },
        ]);
        break;
    }
  }
  if (out[0]?.role !== "user") out.unshift({ role: "user", content: textBlocks(CONTINUATION_TEXT) });
  return { system, messages: out };
}

/** After tool_use, the next user message must open with its tool_result blocks. */
function toolResultsFirst(blocks: ContentBlockParam[]): ContentBlockParam[] {
  return [...blocks.filter((b) => b.type === "tool_result"), ...blocks.filter((b) => b.type !== "tool_result")];
}

type ToolResultContent = Exclude<Extract<ContentBlockParam, { type: "tool_result" }>["content"], string | undefined>;

function textBlocks(text: string): TextBlockParam[] {
  return text.trim() === "" ? [] : [{ type: "text", text }];
}

function userBlock(part: UserPart): ContentBlockParam[] {
  if (part.type === "text") return textBlocks(part.text);
  const source: Base64ImageSource = {
    type: "base64",
    // The API accepts jpeg/png/gif/webp; anything else is sent as is and refused by the server.
    media_type: part.mimeType as Base64ImageSource["media_type"],
    data: part.data,
  };
  return [{ type: "image", source }];
}

function assistantBlocks(message: Extract<ChatMessage, { role: "assistant" }>): ContentBlockParam[] {
  const blocks: ContentBlockParam[] = [];
  // Thinking blocks go back first and byte for byte: the signature covers their content,
  // and with thinking on, a tool-use turn must start with its thinking block.
  for (const replay of message.replay ?? []) {
    if (replay.format !== "anthropic_messages") continue; // another API's reasoning: not replayable here
    const block = replayedThinking(replay.data);
    if (block) blocks.push(block);
  }
  blocks.push(...textBlocks(message.content));
  for (const call of message.toolCalls ?? []) {
    blocks.push({ type: "tool_use", id: toolUseId(call.id), name: call.name, input: parseToolInput(call.arguments) });
  }
  return blocks;
}

function replayedThinking(data: unknown): ContentBlockParam | undefined {
  const block = data as { type?: unknown; thinking?: unknown; signature?: unknown; data?: unknown } | null;
  if (block?.type === "thinking" && typeof block.thinking === "string" && typeof block.signature === "string") {
    return { type: "thinking", thinking: block.thinking, signature: block.signature };
  }
  if (block?.type === "redacted_thinking" && typeof block.data === "string") {
    return { type: "redacted_thinking", data: block.data };
  }
  return undefined;
}

/**
 * `input` must be a JSON object. Arguments the model botched (the tool runner already
 * answered them with a parse error) go back as {} so the history stays valid.
 */
export function parseToolInput(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    // expected: arguments the model botched were already answered with a parse error; {} keeps the history valid
    return {};
  }
}

/**
 * Tool use ids must match ^[a-zA-Z0-9_-]+$. Ids made by another provider before a model
 * switch may not (e.g. "functions.read:0"); the same mapping applies to tool_use and
 * tool_result, so the pairs still match.
 */
export function toolUseId(id: string): string {
  const clean = id.replace(/[^a-zA-Z0-9_-]/g, "_");
  return clean === "" ? "toolu_missing" : clean;
}

export function toAnthropicTools(tools: ToolSpec[]): Tool[] {
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: tool.parameters as Tool["input_schema"],
  }));
}

/** Names of the tools the conversation used (the API wants them declared whenever tool blocks appear). */
export function toolNamesUsed(messages: AnthropicMessage[]): string[] {
  const names = new Set<string>();
  for (const message of messages) {
    for (const block of message.content) if (block.type === "tool_use") names.add(block.name);
  }
  return [...names];
}

/** `reason` is the SDK's StopReason, or a newer one this SDK version does not name yet. */
export function mapStopReason(reason: string | null | undefined): FinishReason {
  switch (reason) {
    case "end_turn":
    case "stop_sequence":
      return "stop";
    case "tool_use":
      return "tool_calls";
    case "max_tokens":
    case "model_context_window_exceeded": // the answer was cut off by the context window
      return "length";
    case "refusal":
      return "content_filter";
    default:
      return "other";
  }
}

export interface AnthropicUsageCounts {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  output_tokens_details?: { thinking_tokens?: number } | null;
}

/** Anthropic's input_tokens excludes cached parts; Hermes' inputTokens is the whole prompt. */
export function mapUsage(usage: AnthropicUsageCounts): TokenUsage {
  const read = usage.cache_read_input_tokens ?? 0;
  const write = usage.cache_creation_input_tokens ?? 0;
  const mapped: TokenUsage = { inputTokens: (usage.input_tokens ?? 0) + read + write, outputTokens: usage.output_tokens ?? 0 };
  if (usage.cache_read_input_tokens != null) mapped.cacheReadTokens = read;
  if (usage.cache_creation_input_tokens != null) mapped.cacheWriteTokens = write;
  const thinking = usage.output_tokens_details?.thinking_tokens;
  if (typeof thinking === "number") mapped.reasoningTokens = thinking;
  return mapped;
}
