// Rebuilds a session's state from its journal records: the model history (repaired so it
// is always valid to send), the settings, and the ids already used.
import type { ChatMessage } from "../providers/types";
import type { JournalRecord, SessionMeta, TitleSource } from "./types";

export interface RestoredSession {
  meta: SessionMeta;
  history: ChatMessage[];
  title?: string;
  titleSource?: TitleSource;
  mode?: string;
  modelId?: string;
  systemPrompt?: string;
  /** Tool call ids shown to the client so far (new ones must not collide). */
  toolCallIds: string[];
  /** Sequence number the next message gets. */
  nextSeq: number;
}

export function restoreSession(meta: SessionMeta, records: JournalRecord[]): RestoredSession {
  const restored: RestoredSession = { meta, history: [], toolCallIds: [], nextSeq: 0, mode: meta.mode, modelId: meta.modelId };
  for (const record of records) {
    switch (record.t) {
      case "message":
        restored.history.push(record.message);
        restored.nextSeq = Math.max(restored.nextSeq, record.seq + 1);
        break;
      case "tool_call":
        restored.toolCallIds.push(record.call.id);
        break;
      case "update":
        if (record.title !== undefined) {
          restored.title = record.title;
          restored.titleSource = record.titleSource;
        }
        if (record.mode !== undefined) restored.mode = record.mode;
        if (record.modelId !== undefined) restored.modelId = record.modelId;
        if (record.systemPrompt !== undefined) restored.systemPrompt = record.systemPrompt;
        if (record.reset) {
          restored.history = [];
          restored.systemPrompt = undefined;
        }
        break;
    }
  }
  restored.history = repairToolResults(restored.history);
  return restored;
}

/** What a tool result says when the process stopped before the tool finished. */
export const INTERRUPTED_RESULT = JSON.stringify({ error: "Interrupted: Hermes stopped before this tool call finished. Check its effects before retrying." });

/**
 * Every assistant tool call must be followed by its result, in call order, before the next
 * turn; providers reject anything else. Results are journaled as each tool finishes, so after
 * a crash some may be missing (they become "interrupted") or out of call order (reordered).
 */
export function repairToolResults(messages: ChatMessage[]): ChatMessage[] {
  const repaired: ChatMessage[] = [];
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i];
    if (message.role === "tool") continue; // placed with its assistant message below; strays dropped
    repaired.push(message);
    if (message.role !== "assistant" || !message.toolCalls?.length) continue;
    const results = new Map<string, ChatMessage>();
    for (let j = i + 1; j < messages.length && messages[j].role === "tool"; j++) {
      const result = messages[j] as Extract<ChatMessage, { role: "tool" }>;
      results.set(result.toolCallId, result);
    }
    for (const call of message.toolCalls) {
      repaired.push(results.get(call.id) ?? { role: "tool", toolCallId: call.id, name: call.name, content: INTERRUPTED_RESULT });
    }
  }
  return repaired;
}
