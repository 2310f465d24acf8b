// Pure conversions from the agent's view of a turn to ACP session/update payloads.
import type * as acp from "@agentclientprotocol/sdk/unstable";
import type { CompactionReport, ToolCallOutcome, ToolCallView } from "../agent/turn-io";
import type { UsageTotals } from "../agent/usage";
import type { TokenUsage } from "../providers/types";
import { LEARNED_META, type LearnedNote } from "../../common/learned-note";
import { NOTICE_META } from "../../common/notice-meta";
import type { CommandInfo } from "../runtime/slash-command";
import type { DisplayContent, Location, TodoItem } from "../tools/context";

/** `messageId`: the model reply the chunk belongs to (absent for Hermes's own notes between replies). */
export function textChunk(text: string, messageId?: string): acp.SessionUpdate {
  return { sessionUpdate: "agent_message_chunk", content: { type: "text", text }, ...(messageId ? { messageId } : {}) };
}

/** A notice (retry, fallback, a cut reply, a failed turn), live and on replay alike. */
export function noticeChunk(text: string): acp.SessionUpdate {
  return { ...thoughtChunk(`\n⚠ ${text}\n`), _meta: { [NOTICE_META]: text } };
}

export function thoughtChunk(text: string, messageId?: string): acp.SessionUpdate {
  return { sessionUpdate: "agent_thought_chunk", content: { type: "text", text }, ...(messageId ? { messageId } : {}) };
}

export function toolCallStarted(call: ToolCallView): acp.SessionUpdate {
  return {
    sessionUpdate: "tool_call",
    toolCallId: call.id,
    title: call.title,
    kind: call.kind,
    status: "pending",
    locations: toLocations(call.locations),
    rawInput: call.rawInput,
    // A nested step (execute_code's program called a tool): the panel shows it inside its parent's card.
    ...(call.parentId ? { _meta: { "hermes/parentToolCallId": call.parentId } } : {}),
  };
}

export function toolCallRunning(id: string): acp.SessionUpdate {
  return { sessionUpdate: "tool_call_update", toolCallId: id, status: "in_progress" };
}

export function toolCallProgress(id: string, update: { content?: DisplayContent[]; title?: string; locations?: Location[] }): acp.SessionUpdate {
  return {
    sessionUpdate: "tool_call_update",
    toolCallId: id,
    ...(update.title !== undefined ? { title: update.title } : {}),
    ...(update.content ? { content: toToolCallContent(update.content) } : {}),
    ...(update.locations ? { locations: toLocations(update.locations) } : {}),
  };
}

export function toolCallFinished(id: string, outcome: ToolCallOutcome): acp.SessionUpdate {
  return {
    sessionUpdate: "tool_call_update",
    toolCallId: id,
    status: outcome.status,
    content: toToolCallContent(outcome.content),
    rawOutput: outcome.rawOutput,
    ...(outcome.locations ? { locations: toLocations(outcome.locations) } : {}),
    ...toolCallMeta(outcome),
  };
}

/**
 * A finished card's `_meta`: `hermes/fullOutput` (the file with the whole output) and
 * `hermes/cancelled` (stopped by the user: ACP v1's status has no "cancelled", so it says "failed").
 */
export function toolCallMeta(call: { fullOutput?: { path: string; bytes: number }; cancelled?: boolean; parentId?: string }, fullOutputAvailable = true): { _meta?: Record<string, unknown> } {
  const meta = {
    ...(call.fullOutput && fullOutputAvailable ? fullOutputMeta(call.fullOutput) : {}),
    ...(call.cancelled ? { "hermes/cancelled": true } : {}),
    ...(call.parentId ? { "hermes/parentToolCallId": call.parentId } : {}),
  };
  return Object.keys(meta).length > 0 ? { _meta: meta } : {};
}

/** `_meta` of a card whose whole output is in a file: {path, bytes} (a client's "Show all" opens it). */
export function fullOutputMeta(fullOutput: { path: string; bytes: number }): Record<string, unknown> {
  return { "hermes/fullOutput": { path: fullOutput.path, bytes: fullOutput.bytes } };
}

export function toToolCallContent(content: DisplayContent[]): acp.ToolCallContent[] {
  return content.map((item): acp.ToolCallContent => {
    switch (item.type) {
      case "text":
        return { type: "content", content: { type: "text", text: item.text } };
      case "diff":
        return { type: "diff", path: item.path, oldText: item.oldText, newText: item.newText };
      case "terminal":
        return { type: "terminal", terminalId: item.terminalId };
      case "image":
        return { type: "content", content: { type: "image", mimeType: item.mimeType, data: item.data } };
      case "resource_link": {
        const { type: _type, ...link } = item;
        return { type: "content", content: { type: "resource_link", ...link } };
      }
      case "resource":
        return { type: "content", content: { type: "resource", resource: resourceContents(item) } };
    }
  });
}

function resourceContents(item: Extract<DisplayContent, { type: "resource" }>): acp.EmbeddedResourceResource {
  const mimeType = item.mimeType ? { mimeType: item.mimeType } : {};
  return item.blob !== undefined ? { uri: item.uri, blob: item.blob, ...mimeType } : { uri: item.uri, text: item.text ?? "", ...mimeType };
}

export function toLocations(locations: Location[]): acp.ToolCallLocation[] {
  return locations.map((location) => (location.line !== undefined ? { path: location.path, line: location.line } : { path: location.path }));
}

/** ACP plans have no "cancelled" status: such entries show as completed and say so. */
export function planUpdate(todos: TodoItem[]): acp.SessionUpdate {
  return {
    sessionUpdate: "plan",
    entries: todos.map((todo) => ({
      content: todo.status === "cancelled" ? `${todo.content} (cancelled)` : todo.content,
      priority: "medium",
      status: todo.status === "cancelled" ? "completed" : todo.status,
    })),
  };
}

/** A turn the user stopped, or one cut short when the agent's process died. */
export type TurnMarker = { kind: "stopped" } | { kind: "interrupted"; reason: string };

/**
 * The line a stopped or interrupted turn ends with, as an agent message any client shows as
 * text; `_meta["hermes/marker"]` lets a client that knows it draw it as a marker instead.
 */
/**
 * A /steer note where the turn applied it: a user message chunk marked `_meta["hermes/steer"]`, so
 * a client can show it as guidance inside the turn rather than as a new prompt.
 */
export function steerChunk(text: string): acp.SessionUpdate {
  return { sessionUpdate: "user_message_chunk", content: { type: "text", text }, _meta: { "hermes/steer": true } };
}

export function markerChunk(marker: TurnMarker): acp.SessionUpdate {
  const text = marker.kind === "stopped" ? "Stopped" : `Interrupted: the agent stopped (${marker.reason})`;
  return { sessionUpdate: "agent_message_chunk", content: { type: "text", text: `\n\n*${text}*\n` }, _meta: { "hermes/marker": marker } };
}

/** `used` is the context the last call occupied (prompt + reply), not a running total. */
export function usageUpdate(usage: TokenUsage, contextWindow: number, sessionCostUsd?: number): acp.SessionUpdate {
  return {
    sessionUpdate: "usage_update",
    used: usage.inputTokens + usage.outputTokens,
    size: contextWindow,
    ...(sessionCostUsd !== undefined ? { cost: { amount: Number(sessionCostUsd.toFixed(6)), currency: "USD" } } : {}),
  };
}

export function compactionStarted(compactionId: string): acp.SessionUpdate {
  return { sessionUpdate: "compaction_update", compactionId, status: "in_progress" };
}

export function compactionFinished(compactionId: string, report: CompactionReport): acp.SessionUpdate {
  const status = report.status === "degraded" ? "completed" : report.status;
  return {
    sessionUpdate: "compaction_update",
    compactionId,
    status,
    ...(report.summary ? { summary: [{ type: "text", text: report.summary }] } : {}),
    ...(report.error ? { error: report.error } : {}),
    _meta: { hermes: { trigger: report.trigger, messagesBefore: report.messagesBefore, messagesAfter: report.messagesAfter, tokensBefore: report.tokensBefore, tokensAfter: report.tokensAfter, degraded: report.status === "degraded" } },
  };
}

/** What a client without `session.compaction` is told, as part of the agent's message. */
export function compactionNotice(report: CompactionReport): string {
  const sizes = `${report.messagesBefore} → ${report.messagesAfter} messages, about ${report.tokensBefore.toLocaleString("en")} → ${report.tokensAfter.toLocaleString("en")} tokens`;
  if (report.status === "completed") return `\n\n*Context compressed (${sizes}): earlier turns were summarized for the model; this session's history keeps them all.*\n\n`;
  if (report.status === "degraded") return `\n\n*Context compressed (${sizes}) without a summary (${report.error ?? "the summary call failed"}): earlier turns were dropped from the model's context; this session's history keeps them all.*\n\n`;
  return `\n\n*Context compression failed: ${report.error ?? "unknown error"}.*\n\n`;
}

/** The turn's totals in the shape of the unstable `PromptResponse.usage`. */
export function promptUsage(totals: UsageTotals): { totalTokens: number; inputTokens: number; outputTokens: number; thoughtTokens?: number; cachedReadTokens?: number; cachedWriteTokens?: number } {
  return {
    totalTokens: totals.inputTokens + totals.outputTokens,
    inputTokens: totals.inputTokens,
    outputTokens: totals.outputTokens,
    ...(totals.reasoningTokens ? { thoughtTokens: totals.reasoningTokens } : {}),
    ...(totals.cacheReadTokens ? { cachedReadTokens: totals.cacheReadTokens } : {}),
    ...(totals.cacheWriteTokens ? { cachedWriteTokens: totals.cacheWriteTokens } : {}),
  };
}

/**
 * What the learning review saved, as an agent message any client shows ("Learned: …" with the
 * undo command); `_meta["hermes/learned"]` lets a client that knows it draw a card with Undo
 * and Open instead. Sent live and replayed from the journal the same way.
 */
export function learnedChunk(note: LearnedNote): acp.SessionUpdate {
  const undo = `/learned undo ${note.id}`;
  return {
    sessionUpdate: "agent_message_chunk",
    content: { type: "text", text: `\n\n*Learned: ${note.what}* (\`${note.where}\`; undo with \`${undo}\`)\n` },
    _meta: { [LEARNED_META]: { ...note, undo } },
  };
}

/** Commands as the editor's menu lists them (available_commands_update). */
export function availableCommands(commands: readonly CommandInfo[]): acp.AvailableCommand[] {
  return commands.map(({ name, description, hint }) => ({ name, description, ...(hint ? { input: { hint } } : {}) }));
}
