// The model-facing history after a context compression: the protected head, one marked
// summary message, the protected tail. Pure and deterministic, so the live session and a
// session restored from its journal build the same messages from the same CompactionRecord.
import type { ChatMessage, UserPart } from "../providers/types";
import { sanitizeHistory } from "./history-repair";
import { imagesAsText } from "./image-placeholder";
import type { CompactionRecord } from "./types";

/** Marks the summary in the history (and lets the next compression find and update it). */
export const SUMMARY_MARK = "[Hermes context summary]";
const SUMMARY_INTRO =
  "Earlier turns of this conversation were compressed to fit the context window; this summary replaces them. " +
  "Continue the work from it without repeating what it lists as done. Your system prompt and the messages after this one are unchanged.";
const SUMMARY_BLOCK = /<summary>\n([\s\S]*)\n<\/summary>/;

/** Tool outputs longer than this, outside the tail, are replaced by a placeholder. */
const PRUNE_OVER_CHARS = 400;
const PRUNE_KEEP_CHARS = 160;

export function summaryPart(summary: string): Extract<UserPart, { type: "text" }> {
  return { type: "text", text: `${SUMMARY_MARK} ${SUMMARY_INTRO}\n\n<summary>\n${summary.trim()}\n</summary>` };
}

/** The summary a message carries, if it holds a compression summary. */
export function summaryOf(message: ChatMessage | undefined): string | undefined {
  if (message?.role !== "user") return undefined;
  const part = message.content.find(isSummaryPart);
  return part ? (SUMMARY_BLOCK.exec(part.text)?.[1] ?? "") : undefined;
}

export function isSummaryPart(part: UserPart): part is Extract<UserPart, { type: "text" }> {
  return part.type === "text" && part.text.startsWith(SUMMARY_MARK);
}

/** Whether a user message holds something the user wrote (not only a summary). */
export function isRealUserMessage(message: ChatMessage): boolean {
  if (message.role !== "user") return false;
  return summaryOf(message) === undefined || message.content.length > 1;
}

/** A short placeholder for a long tool output the model no longer needs in full. */
export function pruneToolOutputs(messages: ChatMessage[]): ChatMessage[] {
  return messages.map((message) => {
    if (message.role !== "tool" || message.content.length <= PRUNE_OVER_CHARS) return message;
    const preview = message.content.slice(0, PRUNE_KEEP_CHARS);
    return { ...message, content: `${preview}\n[Hermes: older tool output cleared to save context (${message.content.length} characters)]` };
  });
}

/**
 * Head + summary + tail. The summary is a user message of its own, or the first part of the
 * tail's first message when that is a user message (so roles keep alternating).
 */
export function applyCompaction(history: ChatMessage[], compaction: CompactionRecord): ChatMessage[] {
  const base = sanitizeHistory(history);
  const head = Math.max(0, Math.min(compaction.head, base.length));
  const tail = Math.max(0, Math.min(compaction.tail, base.length - head));
  const kept = base.slice(base.length - tail);
  const first = kept[0];
  const note = summaryPart(compaction.summary);
  if (first?.role === "user") kept[0] = { role: "user", content: [note, ...withoutSummary(first.content)] };
  else kept.unshift({ role: "user", content: [note] });
  // The head's images become text: kept verbatim, they would cost every request from now on.
  return sanitizeHistory([...imagesAsText(pruneToolOutputs(base.slice(0, head))), ...kept]);
}

export function withoutSummary(parts: UserPart[]): UserPart[] {
  return parts.filter((part) => !isSummaryPart(part));
}
