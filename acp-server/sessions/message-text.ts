// How a journal message is stored in the index: the plain text that is searched and shown
// to the model (session_search), and the content as JSON minus image bytes (the journal
// keeps those; copying base64 images into state.db would bloat it for nothing). When the
// content is nothing but `text` (most messages), it is not stored twice: a third of the
// index's size for 100,000 messages.
import type { ChatMessage } from "../providers/types";

/** Longest text indexed per message: huge tool outputs are cut so one file dump cannot balloon the index. */
export const MAX_INDEXED_CHARS = 32_000;
/** Tool call arguments are indexed only this far: enough for paths and commands. */
const MAX_ARGUMENT_CHARS = 300;

export interface IndexedMessage {
  role: string;
  text: string;
  /** Tokens in `text` as the FTS tokenizer splits it (runs of letters and digits), for ranking. */
  words: number;
  /** JSON of the content (string, or parts with images reduced to their type and size); undefined when it is just `text`. */
  content?: string;
  toolCalls?: string;
  toolCallId?: string;
  reasoning?: string;
}

export function indexedMessage(message: ChatMessage): IndexedMessage {
  const fields = messageFields(message);
  return { ...fields, words: countWords(fields.text) };
}

function messageFields(message: ChatMessage): Omit<IndexedMessage, "words"> {
  switch (message.role) {
    case "user": {
      const text = cap(message.content.map((part) => (part.type === "text" ? part.text : "[image]")).join("\n"));
      const only = message.content.length === 1 ? message.content[0] : undefined;
      if (only?.type === "text" && only.text === text) return { role: "user", text };
      const parts = message.content.map((part) => (part.type === "text" ? part : { type: "image", mimeType: part.mimeType, bytes: Math.floor((part.data.length * 3) / 4) }));
      return { role: "user", text, content: JSON.stringify(parts) };
    }
    case "assistant": {
      const calls = message.toolCalls ?? [];
      const callText = calls.map((call) => `[${call.name}] ${short(call.arguments, MAX_ARGUMENT_CHARS)}`);
      const text = cap([message.content, ...callText].filter((part) => part.length > 0).join("\n"));
      return {
        role: "assistant",
        text,
        content: stringContent(message.content, text),
        toolCalls: calls.length > 0 ? JSON.stringify(calls) : undefined,
        reasoning: message.reasoning,
      };
    }
    case "tool": {
      const text = cap(message.content);
      return { role: "tool", text, content: stringContent(message.content, text), toolCallId: message.toolCallId };
    }
    case "system": {
      const text = cap(message.content);
      return { role: "system", text, content: stringContent(message.content, text) };
    }
  }
}

function stringContent(content: string, text: string): string | undefined {
  return content === text ? undefined : JSON.stringify(content);
}

/**
 * Runs of ASCII letters and digits, or of any non-ASCII characters: close to the unicode61
 * tokenizer's count (ranking only needs the length roughly) at a fraction of a Unicode regex's cost.
 */
export function countWords(text: string): number {
  let count = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const wordChar = c >= 128 ? c !== 0xa0 && c !== 0x2028 && c !== 0x2029 : (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
    if (wordChar && !inWord) count++;
    inWord = wordChar;
  }
  return count;
}

function cap(text: string): string {
  return text.length > MAX_INDEXED_CHARS ? text.slice(0, MAX_INDEXED_CHARS) : text;
}

function short(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
