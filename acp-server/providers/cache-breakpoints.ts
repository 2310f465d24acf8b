// Prompt-cache breakpoints, the "system and last 3" rule: one breakpoint on the system
// prompt (which also covers the tools, cached before it) and one on each of the last three
// conversation messages. The newest breakpoint writes the whole prompt to the cache; the
// two before it are still within the 20-block lookback of the next call, so appending a
// long batch of tool results still reads the previous prompt back. Anthropic allows at most
// 4 breakpoints per request. Pure functions: inputs are never mutated.
import type { CacheControlEphemeral, ContentBlockParam, TextBlockParam } from "@anthropic-ai/sdk/resources/messages/messages";
import type { ChatCompletionContentPartText, ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { AnthropicConversation, AnthropicMessage } from "./anthropic-messages-mapping";

export type CacheTtl = "5m" | "1h";

export interface CacheOptions {
  /** Default "5m" (sent without a ttl field, the API's default). */
  ttl?: CacheTtl;
}

/** The API refuses a request with more. */
export const MAX_BREAKPOINTS = 4;
/** Conversation messages that get a breakpoint. */
export const MESSAGE_BREAKPOINTS = 3;

export function cacheControl(options: CacheOptions = {}): CacheControlEphemeral {
  return options.ttl === "1h" ? { type: "ephemeral", ttl: "1h" } : { type: "ephemeral" };
}

/**
 * Indices (ascending) of the last `n` items for which `carries` finds a block that can hold
 * a breakpoint. Format-neutral, so every wire format applies the same rule.
 */
export function lastCacheable<T>(items: readonly T[], carries: (item: T) => boolean, n: number): number[] {
  const picked: number[] = [];
  for (let i = items.length - 1; i >= 0 && picked.length < n; i--) if (carries(items[i] as T)) picked.push(i); // i is in bounds
  return picked.reverse();
}

// Thinking blocks cannot hold cache_control, nor can empty text (the API rejects both).
function canHoldBreakpoint(block: ContentBlockParam): boolean {
  if (block.type === "thinking" || block.type === "redacted_thinking") return false;
  return block.type !== "text" || block.text !== "";
}

function lastHolder(blocks: readonly ContentBlockParam[]): number {
  return blocks.findLastIndex(canHoldBreakpoint);
}

function hasBreakpoint(block: object): boolean {
  return (block as { cache_control?: unknown }).cache_control != null;
}

/**
 * Marks the last system block and the last block of each of the last 3 messages. Breakpoints
 * already present count against the limit of 4, so the result never exceeds it.
 */
export function withAnthropicBreakpoints(conversation: AnthropicConversation, options: CacheOptions = {}): AnthropicConversation {
  const control = cacheControl(options);
  const existing =
    conversation.system.filter(hasBreakpoint).length +
    conversation.messages.reduce((sum, message) => sum + message.content.filter(hasBreakpoint).length, 0);
  let budget = MAX_BREAKPOINTS - existing;

  let system: TextBlockParam[] = conversation.system;
  if (budget > 0 && system.length > 0) {
    const last = system.length - 1;
    system = system.map((block, i) => (i === last ? { ...block, cache_control: control } : block));
    budget--;
  }
  const targets = new Set(
    lastCacheable(conversation.messages, (message) => lastHolder(message.content) >= 0, Math.min(MESSAGE_BREAKPOINTS, Math.max(0, budget))),
  );
  const messages = conversation.messages.map((message, index): AnthropicMessage => {
    if (!targets.has(index)) return message;
    const at = lastHolder(message.content);
    const content = message.content.map((block, i) => (i === at ? ({ ...block, cache_control: control } as ContentBlockParam) : block));
    return { role: message.role, content };
  });
  return { system, messages };
}

type TextPart = ChatCompletionContentPartText & { cache_control?: CacheControlEphemeral };

/**
 * The same rule for Claude behind an OpenAI-compatible Chat Completions endpoint
 * (OpenRouter), which passes `cache_control` through on text content parts only: string
 * contents of the marked messages become `[{type:"text", text, cache_control}]`. Messages
 * without text (an assistant turn with only tool calls) cannot carry one and are skipped.
 */
export function openAiCacheControl(messages: ChatCompletionMessageParam[], options: CacheOptions = {}): ChatCompletionMessageParam[] {
  const control = cacheControl(options);
  const isSystem = (message: ChatCompletionMessageParam) => message.role === "system" || message.role === "developer";
  const systemIndex = lastCacheable(messages, (m) => isSystem(m) && lastTextPart(m.content) !== undefined, 1);
  const conversation = messages.map((message, index) => ({ message, index })).filter(({ message }) => !isSystem(message));
  const messageIndices = lastCacheable(conversation, ({ message }) => lastTextPart(message.content) !== undefined, MESSAGE_BREAKPOINTS);
  const targets = new Set([...systemIndex, ...messageIndices.flatMap((i) => conversation[i]?.index ?? [])]);
  return messages.map((message, index) => (targets.has(index) ? markLastText(message, control) : message));
}

/** Index of the last non-empty text part (-1 for a non-empty string content), or undefined. */
function lastTextPart(content: ChatCompletionMessageParam["content"]): number | undefined {
  if (typeof content === "string") return content !== "" ? -1 : undefined;
  if (!Array.isArray(content)) return undefined;
  for (let i = content.length - 1; i >= 0; i--) {
    const part = content[i] as { type?: string; text?: string };
    if (part.type === "text" && typeof part.text === "string" && part.text !== "") return i;
  }
  return undefined;
}

function markLastText(message: ChatCompletionMessageParam, control: CacheControlEphemeral): ChatCompletionMessageParam {
  const at = lastTextPart(message.content);
  if (at === undefined) return message;
  let parts: unknown[];
  if (typeof message.content === "string") {
    const part: TextPart = { type: "text", text: message.content, cache_control: control };
    parts = [part];
  } else {
    parts = (message.content as unknown[]).map((part, i) => (i === at ? { ...(part as TextPart), cache_control: control } : part));
  }
  // Every role's content accepts text parts, so the shape stays a valid message.
  return { ...message, content: parts } as ChatCompletionMessageParam;
}
