// Context compression. When the prompt reaches `threshold` × the model's window (or the
// provider says it overflowed, or the user runs /compress), the middle of the history is
// replaced by a structured summary: old tool outputs are cleared, the head (first exchange)
// and a token-budgeted tail stay verbatim, the summary of an earlier compression is updated
// rather than rewritten, and the result is sanitized so every provider accepts it. Only the
// model-facing history changes: the frozen system prompt stays byte-identical and the
// journal keeps every original message. Never throws: a failed summary degrades to a marker.
import { randomUUID } from "node:crypto";
import type { ToolSpec } from "../providers/types";
import { applyCompaction } from "../sessions/compacted-history";
import { sanitizeHistory } from "../sessions/history-repair";
import type { CompactionRecord } from "../sessions/types";
import type { Logger } from "../util/log";
import { headLength, planCompaction, type CompactionPlan } from "./compress-plan";
import type { ModelChoice } from "./model-choice";
import type { AgentSession } from "./session";
import { writeSummary } from "./summarize";
import { messagesTokens, overheadTokens } from "../providers/token-estimate";
import type { CompactionReport, TurnObserver } from "./turn-io";

export interface CompressionSettings {
  /** Compress automatically at the threshold and on a context overflow. */
  enabled: boolean;
  /** Share of the context window at which the prompt is compressed. */
  threshold: number;
  /** The last messages that always stay verbatim. */
  protectLast: number;
}

export const DEFAULT_COMPRESSION: CompressionSettings = { enabled: true, threshold: 0.5, protectLast: 20 };

export type CompressTrigger = "threshold" | "overflow" | "command";

export interface CompressContext {
  session: AgentSession;
  /** The session's model first (its window is the one that counts), then the fallbacks. */
  models: ModelChoice[];
  /** The auxiliary model for the summary; the main model is tried after it. */
  summarizer?: ModelChoice;
  observer: TurnObserver;
  signal: AbortSignal;
  log: Logger;
  systemPrompt: string;
  tools: ToolSpec[];
  settings: CompressionSettings;
}

export type CompressOutcome =
  | { kind: "compressed"; report: CompactionReport }
  | { kind: "nothing"; messages: number }
  | { kind: "cancelled" };

/** Share of the room under the threshold that the tail may take (the rest is head and summary). */
const TAIL_SHARE = 0.4;
/** The compacted prompt must fit well inside the window, whatever the threshold. */
const WINDOW_SAFETY = 0.85;

/** The next call's prompt size: the last reported usage plus what was added since, else an estimate. */
export function promptTokens(session: AgentSession, systemPrompt: string, tools: ToolSpec[]): number {
  const last = session.lastCall;
  if (last && last.historyLength <= session.history.length) return last.tokens + messagesTokens(session.history.slice(last.historyLength));
  return overheadTokens(systemPrompt, tools) + messagesTokens(session.history);
}

/** Tokens at which compression starts for this model. */
export function thresholdTokens(settings: CompressionSettings, model: ModelChoice): number {
  return Math.floor(settings.threshold * model.contextWindow);
}

export function needsCompression(context: Omit<CompressContext, "observer" | "signal" | "log" | "summarizer">): boolean {
  const model = context.models[0];
  if (!context.settings.enabled || !model) return false;
  return promptTokens(context.session, context.systemPrompt, context.tools) >= thresholdTokens(context.settings, model);
}

/** Summary length cap: 5% of the window, between 256 and 4,000 tokens. */
export function summaryTokens(window: number): number {
  return Math.max(256, Math.min(4_000, Math.floor(window * 0.05)));
}

export async function compressSession(context: CompressContext, trigger: CompressTrigger): Promise<CompressOutcome> {
  const { session, observer, log } = context;
  const model = context.models[0];
  const base = sanitizeHistory(session.history);
  if (!model) return { kind: "nothing", messages: base.length };

  const window = model.contextWindow;
  const overhead = overheadTokens(context.systemPrompt, context.tools);
  const maxSummary = summaryTokens(window);
  const room = Math.max(0, thresholdTokens(context.settings, model) - overhead);
  // An overflow or /compress can come well below the threshold: the tail shrinks with the history.
  const plan = planCompaction(base, {
    protectLast: context.settings.protectLast,
    tailBudgetTokens: Math.floor(Math.min(room, messagesTokens(base)) * TAIL_SHARE),
    maxTailTokens: Math.max(0, Math.floor(window * WINDOW_SAFETY) - overhead - maxSummary - messagesTokens(base.slice(0, headLength(base)))),
  });
  if (!plan) return { kind: "nothing", messages: base.length };

  const id = randomUUID();
  const tokensBefore = promptTokens(session, context.systemPrompt, context.tools);
  observer.compactionStarted(id);
  try {
    const summarizers = [context.summarizer, model].filter((m, i, all): m is ModelChoice => !!m && all.findIndex((o) => o?.id === m.id) === i);
    const written = await writeSummary(summarizers, { previousSummary: plan.previousSummary, middle: plan.middle, maxTokens: maxSummary }, context.signal, log);
    if ("cancelled" in written || context.signal.aborted) {
      observer.compactionFinished(id, { status: "cancelled", trigger, messagesBefore: base.length, messagesAfter: base.length, tokensBefore, tokensAfter: tokensBefore });
      return { kind: "cancelled" };
    }
    const summary = summaryText(plan, written.ok ? written.text : undefined);
    const compaction: CompactionRecord = { head: plan.head, tail: base.length - plan.tailStart, summary };
    const compacted = applyCompaction(base, compaction);
    const tokensAfter = overhead + messagesTokens(compacted);
    session.replaceHistory(compacted, compaction, tokensAfter);
    const report: CompactionReport = {
      status: written.ok ? "completed" : "degraded",
      trigger,
      messagesBefore: base.length,
      messagesAfter: compacted.length,
      tokensBefore,
      tokensAfter,
      summary,
      ...(written.ok ? {} : { error: written.reason }),
    };
    log.info("context compressed", { sessionId: session.id, trigger, status: report.status, messages: [base.length, compacted.length], tokens: [tokensBefore, tokensAfter], summarizer: written.ok ? written.model : undefined });
    observer.compactionFinished(id, report);
    observer.contextUsage(tokensAfter, model);
    return { kind: "compressed", report };
  } catch (error) {
    // Compression must never cost the turn: the history is left as it was.
    log.error("context compression failed", { sessionId: session.id, error });
    observer.compactionFinished(id, { status: "failed", trigger, messagesBefore: base.length, messagesAfter: base.length, tokensBefore, tokensAfter: tokensBefore, error: (error as Error)?.message ?? String(error) });
    return { kind: "nothing", messages: base.length };
  }
}

/** The model's summary, or a plain marker (keeping the earlier summary) when none could be written. */
function summaryText(plan: CompactionPlan, written: string | undefined): string {
  const dropped = plan.middle.length;
  let text =
    written ??
    [
      `[${dropped} earlier messages were removed to fit the context window; a summary could not be written. Ask the user if something from them is needed.]`,
      plan.previousSummary ? `Summary of the conversation before them:\n\n${plan.previousSummary}` : "",
    ]
      .filter(Boolean)
      .join("\n\n");
  if (plan.quotedRequest) text += `\n\n## The user's current request (verbatim)\n${plan.quotedRequest}`;
  return text;
}
