// THE rough token count (about 4 characters a token, an image a fixed amount whatever its
// bytes) of the provider-neutral messages: what compression plans with before a provider has
// measured anything, and what the journal records per message for the session index. It
// lives beside the message types so the agent and the session store share it. The
// provider's reported usage is preferred wherever there is one.
import type { ChatMessage, ToolSpec } from "./types";

const CHARS_PER_TOKEN = 4;
/** Per-message framing (role, separators) the providers add. */
const MESSAGE_OVERHEAD = 4;
/** What an attached image costs, roughly, whatever its byte size. */
const IMAGE_TOKENS = 1_500;

export function textTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

export function messageTokens(message: ChatMessage): number {
  switch (message.role) {
    case "system":
      return MESSAGE_OVERHEAD + textTokens(message.content);
    case "tool":
      // An MCP tool's images count as the user's do, not by their base64 length.
      return MESSAGE_OVERHEAD + textTokens(message.content) + (message.images?.length ?? 0) * IMAGE_TOKENS;
    case "user":
      return MESSAGE_OVERHEAD + message.content.reduce((sum, part) => sum + (part.type === "text" ? textTokens(part.text) : IMAGE_TOKENS), 0);
    case "assistant": {
      const calls = message.toolCalls?.reduce((sum, call) => sum + textTokens(call.name) + textTokens(call.arguments) + MESSAGE_OVERHEAD, 0) ?? 0;
      return MESSAGE_OVERHEAD + textTokens(message.content) + calls;
    }
  }
}

/**
 * Estimates by message. History messages are never modified in place (a compression replaces
 * them), and the compression trigger asks before every model call, so each message is
 * measured once rather than on every call over the whole history.
 */
const messageEstimates = new WeakMap<ChatMessage, number>();

export function messagesTokens(messages: readonly ChatMessage[]): number {
  let sum = 0;
  for (const message of messages) {
    let tokens = messageEstimates.get(message);
    if (tokens === undefined) messageEstimates.set(message, (tokens = messageTokens(message)));
    sum += tokens;
  }
  return sum;
}

/** The tool list's size by list: a turn passes the same array to every call, so it is serialized once. */
const toolEstimates = new WeakMap<readonly ToolSpec[], number>();

/** The fixed part of every request: the system prompt and the tool schemas. */
export function overheadTokens(systemPrompt: string, tools: readonly ToolSpec[]): number {
  if (!tools.length) return textTokens(systemPrompt);
  let toolTokens = toolEstimates.get(tools);
  if (toolTokens === undefined) toolEstimates.set(tools, (toolTokens = textTokens(JSON.stringify(tools))));
  return textTokens(systemPrompt) + toolTokens;
}
