// When a turn is worth a learning review, and the compact digest of it the review reads. The
// digest is data for the review model, not instructions: every piece that comes from the user,
// a file, a command or the web is threat-scanned and a flagged piece is replaced by a marker,
// so an injected "remember to always …" never reaches the review at all.
import type { TurnActivity } from "../agent/turn-activity";
import type { ChatMessage } from "../providers/types";
import { scanForThreats } from "../security/threat-scan";

export interface ReviewTriggers {
  /** A turn with at least this many tool calls (0: not for that reason). */
  toolCalls: number;
  onRecovery: boolean;
  onCorrection: boolean;
}

/** The user pushing back on what the agent did: "no, …", "that's wrong", "instead, …". */
const CORRECTION = /^\s*(no\b|nope\b|not like that|that'?s (not|wrong)|wrong\b|don'?t\b|do not\b|stop\b|instead\b|actually\b|you should(n'?t| not)?\b|why did you\b)/i;

export function isCorrection(prompt: string): boolean {
  return CORRECTION.test(prompt);
}

/** Why this turn deserves a review, or undefined (the common case: nothing to learn). */
export function reviewReason(activity: TurnActivity, prompt: string, triggers: ReviewTriggers): string | undefined {
  if (triggers.onCorrection && (activity.corrections > 0 || isCorrection(prompt))) return "the user corrected the approach";
  if (triggers.onRecovery && activity.recovered) return `it recovered from ${activity.failures} failed tool call${activity.failures === 1 ? "" : "s"}`;
  if (triggers.toolCalls > 0 && activity.toolCalls >= triggers.toolCalls) return `it took ${activity.toolCalls} tool calls`;
  return undefined;
}

const PROMPT_CHARS = 2_000;
const ARGS_CHARS = 240;
const RESULT_CHARS = 300;
const ANSWER_CHARS = 1_500;
const MAX_STEPS = 60;
/** The whole digest stays small: the review is a cheap side job. */
const MAX_DIGEST_CHARS = 14_000;

export interface TurnFacts {
  cwd: string;
  /** The messages of the turn: its user message first. */
  messages: readonly ChatMessage[];
  reason: string;
  stopReason: string;
}

/** The turn as a short text: the request, each tool call with how it went, and the final answer. */
export function turnDigest(facts: TurnFacts): string {
  const [first, ...rest] = facts.messages;
  const prompt = first?.role === "user" ? first.content.map((part) => (part.type === "text" ? part.text : "[image]")).join("\n") : "";
  const lines: string[] = [`Workspace: ${facts.cwd}`, `Why reviewed: ${facts.reason}; the turn ended with ${facts.stopReason}.`, "", "## The user asked", guarded(clip(prompt, PROMPT_CHARS))];
  const steps: string[] = [];
  const results = new Map<string, string>();
  for (const message of rest) if (message.role === "tool") results.set(message.toolCallId, message.content);
  let answer = "";
  for (const message of rest) {
    if (message.role !== "assistant") continue;
    if (message.content.trim()) answer = message.content;
    for (const call of message.toolCalls ?? []) {
      const result = results.get(call.id) ?? "(no result)";
      const failed = result.startsWith('{"error":');
      steps.push(`${steps.length + 1}. ${call.name} ${guarded(clip(call.arguments, ARGS_CHARS))} → ${failed ? "FAILED" : "ok"}: ${guarded(clip(result, RESULT_CHARS))}`);
    }
  }
  const shown = steps.length > MAX_STEPS ? [...steps.slice(0, MAX_STEPS / 2), `… ${steps.length - MAX_STEPS} steps left out …`, ...steps.slice(-MAX_STEPS / 2)] : steps;
  lines.push("", `## Steps (${steps.length} tool calls)`, ...(shown.length ? shown : ["(none)"]), "", "## The agent's final answer", guarded(clip(answer, ANSWER_CHARS)) || "(none)");
  const text = lines.join("\n");
  return text.length > MAX_DIGEST_CHARS ? `${text.slice(0, MAX_DIGEST_CHARS)}\n… (digest cut)` : text;
}

/** A piece of the turn the scan flags is not passed on: the review sees that it was withheld, and why. */
function guarded(text: string): string {
  const threat = text ? scanForThreats(text, "context") : undefined;
  return threat ? `[withheld: ${threat}]` : text;
}

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
