// `--output-format json | stream-json` for one-shot `hermes -p`: the session's updates as the
// events of stream-json-events.ts, one JSON object per line on stdout (stream-json), or only
// the final `result` object (json). Nothing else is written to stdout in these modes; stderr
// keeps the human notes (a failed request's message is also in the result's `error`).
import type * as acp from "@agentclientprotocol/sdk/unstable";
import { VERSION } from "../version";
import type { ChatRenderer } from "./chat-render";
import type { PermissionEvent, ResultEvent, StreamJsonEvent } from "./stream-json-events";

export type OutputFormat = "text" | "json" | "stream-json";

export interface JsonOutput extends ChatRenderer {
  /** The session the events belong to (known once it is opened). */
  start(sessionId: string, cwd: string): void;
  permission(event: Omit<PermissionEvent, "type" | "session_id">): void;
  /** The final event; `json` prints only this. */
  result(outcome: { stopReason?: acp.StopReason; usage?: acp.Usage | null; error?: string; durationMs: number }): void;
}

export function jsonOutput(format: "json" | "stream-json", stdout: NodeJS.WritableStream = process.stdout): JsonOutput {
  let sessionId = "";
  let reply = "";
  const refusedIds = new Set<string>();
  const emit = (event: StreamJsonEvent) => {
    if (format === "stream-json" || event.type === "result") stdout.write(`${JSON.stringify(event)}\n`);
  };
  const textOf = (content: acp.ToolCallContent[] | null | undefined): string | undefined => {
    const texts = (content ?? []).flatMap((item) => (item.type === "content" && item.content.type === "text" ? [item.content.text] : []));
    return texts.length > 0 ? texts.join("\n") : undefined;
  };
  return {
    start(id, cwd) {
      sessionId = id;
      emit({ type: "system", subtype: "init", session_id: id, cwd, hermes_version: VERSION });
    },
    update(update) {
      const session_id = sessionId;
      switch (update.sessionUpdate) {
        case "agent_message_chunk":
          if (update.content.type !== "text") return;
          reply += update.content.text;
          return emit({ type: "message_chunk", session_id, text: update.content.text });
        case "agent_thought_chunk":
          if (update.content.type === "text") emit({ type: "thought_chunk", session_id, text: update.content.text });
          return;
        case "tool_call":
          return emit({
            type: "tool_call",
            session_id,
            tool_call_id: update.toolCallId,
            title: update.title,
            ...(update.kind ? { kind: update.kind } : {}),
            ...(update.status ? { status: update.status } : {}),
            ...(update.rawInput !== undefined ? { input: update.rawInput } : {}),
          });
        case "tool_call_update": {
          const output = textOf(update.content);
          return emit({
            type: "tool_call_update",
            session_id,
            tool_call_id: update.toolCallId,
            ...(update.status ? { status: refusedIds.has(update.toolCallId) && update.status === "failed" ? "refused" : update.status } : {}),
            ...(update.title ? { title: update.title } : {}),
            ...(output !== undefined ? { output } : {}),
          });
        }
        case "plan":
          return emit({ type: "plan", session_id, entries: update.entries.map((entry) => ({ content: entry.content, status: entry.status, ...(entry.priority ? { priority: entry.priority } : {}) })) });
        case "usage_update":
          return emit({ type: "usage", session_id, used: update.used, size: update.size, ...(update.cost ? { cost_usd: update.cost.amount } : {}) });
        default:
          return;
      }
    },
    permission(event) {
      emit({ type: "permission", session_id: sessionId, ...event });
    },
    refused(toolCallId) {
      refusedIds.add(toolCallId);
    },
    replyText: () => reply,
    waiting: () => () => {},
    finishLine() {},
    result({ stopReason, usage, error, durationMs }) {
      const subtype: ResultEvent["subtype"] =
        error !== undefined ? "error" : stopReason === "cancelled" ? "cancelled" : stopReason === "max_turn_requests" ? "max_turns" : stopReason === "max_tokens" ? "max_tokens" : stopReason === "refusal" ? "refusal" : "success";
      emit({
        type: "result",
        session_id: sessionId,
        subtype,
        is_error: subtype !== "success",
        ...(stopReason ? { stop_reason: stopReason } : {}),
        result: reply,
        duration_ms: Math.round(durationMs),
        ...(usage
          ? {
              usage: {
                input_tokens: usage.inputTokens,
                output_tokens: usage.outputTokens,
                ...(usage.cachedReadTokens != null ? { cached_input_tokens: usage.cachedReadTokens } : {}),
                ...(usage.thoughtTokens != null ? { thought_tokens: usage.thoughtTokens } : {}),
              },
            }
          : {}),
        ...(error !== undefined ? { error } : {}),
      });
    },
  };
}
