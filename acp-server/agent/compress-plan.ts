// Where to cut a history for compression: the protected head (the first exchange), the
// protected tail (at least the last N messages within a token budget, the last real user
// message when it fits), and the middle to summarize. Cuts fall between tool groups only:
// an assistant message and its tool results always stay on the same side. Pure.
import type { ChatMessage } from "../providers/types";
import { isRealUserMessage, summaryOf, withoutSummary } from "../sessions/compacted-history";
import { messageTokens, messagesTokens } from "../providers/token-estimate";
import { imageFacts } from "../sessions/image-placeholder";

export interface PlanOptions {
  /** At least this many of the last messages stay verbatim (unless they exceed `maxTailTokens`). */
  protectLast: number;
  /** Beyond `protectLast`, more messages stay while the tail is within this many tokens. */
  tailBudgetTokens: number;
  /** The tail never grows past this (it must fit the window with the head and the summary). */
  maxTailTokens: number;
}

export interface CompactionPlan {
  /** Messages kept at the front. */
  head: number;
  /** Index of the first tail message (the middle is [head, tailStart)). */
  tailStart: number;
  /** The summary being updated (found at the start of the middle). */
  previousSummary?: string;
  /** The middle, without the previous summary, for the summarizer. */
  middle: ChatMessage[];
  /** The user's latest request when it could not stay in the tail: quoted in the summary instead. */
  quotedRequest?: string;
}

/** `history` must be sanitized (see sanitizeHistory); undefined when there is nothing to compress. */
export function planCompaction(history: readonly ChatMessage[], options: PlanOptions): CompactionPlan | undefined {
  const head = headLength(history);
  let tailStart = tailStartFor(history, head, options);
  let quotedRequest: string | undefined;

  const lastUser = history.findLastIndex(isRealUserMessage);
  if (lastUser >= head && lastUser < tailStart) {
    const fits = messagesTokens(history.slice(lastUser)) <= options.maxTailTokens;
    if (fits && hasNewMessages(history, head, lastUser)) tailStart = lastUser;
    else quotedRequest = userText(history[lastUser] as Extract<ChatMessage, { role: "user" }>);
  }
  if (!hasNewMessages(history, head, tailStart)) return undefined;

  const previousSummary = history.slice(head, tailStart).map(summaryOf).find((summary) => summary !== undefined);
  const middle = history.slice(head, tailStart).flatMap((message): ChatMessage[] => {
    if (message.role !== "user" || summaryOf(message) === undefined) return [message];
    const rest = withoutSummary(message.content);
    return rest.length ? [{ role: "user", content: rest }] : [];
  });
  return { head, tailStart, middle, ...(previousSummary !== undefined ? { previousSummary } : {}), ...(quotedRequest !== undefined ? { quotedRequest } : {}) };
}

/** The first exchange: the first user message and the reply to it, with that reply's tool results. */
export function headLength(history: readonly ChatMessage[]): number {
  let end = 0;
  if (history[end]?.role === "user") end++;
  if (history[end]?.role === "assistant") {
    end++;
    while (history[end]?.role === "tool") end++;
  }
  return end;
}

function tailStartFor(history: readonly ChatMessage[], head: number, options: PlanOptions): number {
  let start = history.length;
  let tokens = 0;
  for (let message = history[start - 1]; start > head && message; message = history[start - 1]) {
    const cost = messageTokens(message);
    const kept = history.length - start;
    const withinBudget = tokens + cost <= options.tailBudgetTokens;
    const protectedByCount = kept < options.protectLast && tokens + cost <= options.maxTailTokens;
    if (!withinBudget && !protectedByCount && kept > 0) break;
    tokens += cost;
    start--;
  }
  // Never start the tail on a tool result: its assistant message (and siblings) come along,
  // unless that would swallow the whole middle; then the group goes to the middle instead.
  let aligned = start;
  while (aligned > head && history[aligned]?.role === "tool") aligned--;
  if (aligned > head) return aligned;
  while (history[start]?.role === "tool") start++;
  return start;
}

/** Whether [from, to) holds anything besides a previous summary. */
function hasNewMessages(history: readonly ChatMessage[], from: number, to: number): boolean {
  if (to <= from) return false;
  if (to - from > 1) return true;
  const only = history[from];
  if (!only) return false;
  return summaryOf(only) === undefined || (only.role === "user" && only.content.length > 1);
}

function userText(message: Extract<ChatMessage, { role: "user" }>): string {
  return withoutSummary(message.content)
    .map((part) => (part.type === "text" ? part.text : `[image pasted by the user: ${imageFacts(part)}]`))
    .join("\n");
}
