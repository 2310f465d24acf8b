// Pure conversions between Hermes' provider-neutral types and the Chat Completions wire
// shapes. Kept apart from the provider so they are testable without a server.
import type {
  ChatCompletionChunk,
  ChatCompletionContentPart,
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from "openai/resources/chat/completions";
import type { ChatMessage, FinishReason, TokenUsage, ToolSpec, UserPart } from "./types";

/**
 * Wire messages by history message. The loop sends the whole history on every call, and a
 * history message is never modified once appended (a compression replaces it), so each is
 * converted once; the results are shared, so nothing downstream may modify them either
 * (openAiCacheControl copies what it marks).
 */
const converted = new WeakMap<ChatMessage, ChatCompletionMessageParam>();

export function toOpenAIMessages(messages: ChatMessage[]): ChatCompletionMessageParam[] {
  const wireMessages: ChatCompletionMessageParam[] = [];
  messages.forEach((message, index) => {
    let wire = converted.get(message);
    if (wire === undefined) converted.set(message, (wire = toOpenAIMessage(message)));
    wireMessages.push(wire);
    // After the last tool result of a batch: the images those results carried, as a user turn.
    if (message.role === "tool" && messages[index + 1]?.role !== "tool") {
      const images = toolRunImages(messages, index);
      if (images) wireMessages.push(images);
    }
  });
  return wireMessages;
}

/**
 * This API's tool messages take text only, so images tools returned (screenshots, image files)
 * follow the batch of tool results as one user message of image parts, each named by its call.
 * It cannot go between the results: every result must directly follow the assistant's calls.
 */
function toolRunImages(messages: ChatMessage[], last: number): ChatCompletionMessageParam | undefined {
  const parts: ChatCompletionContentPart[] = [];
  for (let index = last; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role !== "tool") break;
    if (!message.images?.length) continue;
    parts.unshift(
      { type: "text", text: `Image(s) returned by the tool call ${message.toolCallId} (${message.name}):` },
      ...message.images.map((image): ChatCompletionContentPart => ({ type: "image_url", image_url: { url: `data:${image.mimeType};base64,${image.data}` } })),
    );
  }
  return parts.length ? { role: "user", content: parts } : undefined;
}

function toOpenAIMessage(message: ChatMessage): ChatCompletionMessageParam {
  switch (message.role) {
    case "system":
      return { role: "system", content: message.content };
    case "user":
      return { role: "user", content: toUserContent(message.content) };
    case "assistant": {
      // Reasoning is deliberately not sent back: most servers reject or ignore it, and
      // replaying it only spends input tokens.
      const calls = message.toolCalls ?? [];
      if (calls.length === 0) return { role: "assistant", content: message.content };
      return {
        role: "assistant",
        // OpenAI wants null (not "") beside tool calls; some servers reject the empty string.
        content: message.content === "" ? null : message.content,
        tool_calls: calls.map((call) => ({
          id: call.id,
          type: "function" as const,
          function: { name: call.name, arguments: call.arguments },
        })),
      };
    }
    case "tool":
      // Tool messages carry text only in this API: the images follow the batch (toolRunImages).
      return { role: "tool", tool_call_id: message.toolCallId, content: message.content + imagesNote(message.images) };
  }
}

function imagesNote(images: { mimeType: string; data: string }[] | undefined): string {
  if (!images?.length) return "";
  const list = images.map((image) => `${image.mimeType}, ${Math.round((image.data.length * 3) / 4 / 1024)} KB`).join("; ");
  return `\n[The tool also returned ${images.length} image(s) (${list}); they follow the tool results as a user message.]`;
}

/**
 * Text-only user turns become one plain string: several local servers (older llama.cpp,
 * some chat templates) mishandle the array form. With images the array form is required.
 */
function toUserContent(parts: UserPart[]): string | ChatCompletionContentPart[] {
  if (parts.every((part) => part.type === "text")) {
    return parts.map((part) => (part.type === "text" ? part.text : "")).join("\n\n");
  }
  return parts.map(
    (part): ChatCompletionContentPart =>
      part.type === "text"
        ? { type: "text", text: part.text }
        : { type: "image_url", image_url: { url: `data:${part.mimeType};base64,${part.data}` } },
  );
}

/**
 * Wire tools by tool list. A turn passes the same list to every call, so it is converted once
 * (and its JSON made once: request-json.ts); the result is shared and never modified.
 */
const convertedTools = new WeakMap<ToolSpec[], ChatCompletionFunctionTool[]>();

export function toOpenAITools(tools: ToolSpec[]): ChatCompletionFunctionTool[] {
  let wire = convertedTools.get(tools);
  if (wire === undefined) {
    wire = tools.map((tool) => ({
      type: "function",
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    }));
    convertedTools.set(tools, wire);
  }
  return wire;
}

export function mapFinishReason(reason: string): FinishReason {
  switch (reason) {
    case "stop":
    case "length":
    case "content_filter":
    case "tool_calls":
      return reason;
    case "function_call": // legacy name for the same thing
      return "tool_calls";
    default:
      return "other";
  }
}

/** Details fields are optional: many OpenAI-compatible servers send only the two counts. */
export function mapUsage(usage: NonNullable<ChatCompletionChunk["usage"]>): TokenUsage {
  const mapped: TokenUsage = { inputTokens: usage.prompt_tokens ?? 0, outputTokens: usage.completion_tokens ?? 0 };
  const cached = usage.prompt_tokens_details?.cached_tokens;
  const reasoning = usage.completion_tokens_details?.reasoning_tokens;
  if (typeof cached === "number") mapped.cacheReadTokens = cached;
  if (typeof reasoning === "number") mapped.reasoningTokens = reasoning;
  return mapped;
}

/** The reasoning text of a delta: `reasoning_content` (DeepSeek, vLLM) or `reasoning` (OpenRouter). */
export function reasoningOf(delta: object): string {
  const fields = delta as { reasoning_content?: unknown; reasoning?: unknown };
  const text = fields.reasoning_content ?? fields.reasoning;
  return typeof text === "string" ? text : "";
}

type ToolCallDelta = NonNullable<ChatCompletionChunk.Choice.Delta["tool_calls"]>[number];

/** Accumulates streamed tool call fragments into whole calls, keyed by the delta index. */
export class ToolCallAccumulator {
  private readonly calls = new Map<number, { id: string; name: string; arguments: string }>();

  add(delta: ToolCallDelta): void {
    // A few servers omit `index` and send each call whole; give each new id its own slot.
    const index =
      typeof delta.index === "number"
        ? delta.index
        : delta.id && ![...this.calls.values()].some((call) => call.id === delta.id)
          ? this.calls.size
          : Math.max(0, this.calls.size - 1);
    const call = this.calls.get(index) ?? { id: "", name: "", arguments: "" };
    if (delta.id && !call.id) call.id = delta.id;
    if (delta.function?.name && !call.name) call.name = delta.function.name;
    if (delta.function?.arguments) call.arguments += delta.function.arguments;
    this.calls.set(index, call);
  }

  get size(): number {
    return this.calls.size;
  }

  /** Whole calls in index order. Missing ids are generated; empty arguments become "{}". */
  finish(makeId: () => string): { id: string; name: string; arguments: string }[] {
    return [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, call]) => ({
        id: call.id || makeId(),
        name: call.name,
        arguments: call.arguments.trim() === "" ? "{}" : call.arguments,
      }));
  }
}
