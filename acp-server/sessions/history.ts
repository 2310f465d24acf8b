// Rebuilds a session's state from its journal records: the model history (repaired so it
// is always valid to send, compactions applied), the settings, and the ids already used.
import { isUserPrompt, type ChatMessage } from "../providers/types";
import { applyCompaction } from "./compacted-history";
import { repairToolResults } from "./history-repair";
import { redactLoadedRecords } from "./redact-record";
import type { JournalRecord, SessionMeta, TitleSource } from "./types";

export { INTERRUPTED_RESULT, repairToolResults } from "./history-repair";

export interface RestoredSession {
  meta: SessionMeta;
  history: ChatMessage[];
  title?: string;
  titleSource?: TitleSource;
  mode?: string;
  modelId?: string;
  /** The extra roots the session last had (meta, then the latest update that changed them). */
  additionalDirectories: string[];
  /** The session's /tools toggles, as last journaled. */
  toolToggles?: Record<string, boolean>;
  systemPrompt?: string;
  /** Tool call ids shown to the client so far (new ones must not collide). */
  toolCallIds: string[];
  /** Sequence number the next message gets. */
  nextSeq: number;
  /** User prompts in the journal (the number of the latest turn; /rollback and fork count them the same way). */
  prompts: number;
}

export function restoreSession(meta: SessionMeta, records: JournalRecord[]): RestoredSession {
  const restored: RestoredSession = {
    meta,
    history: [],
    toolCallIds: [],
    nextSeq: 0,
    prompts: 0,
    mode: meta.mode,
    modelId: meta.modelId,
    additionalDirectories: meta.additionalDirectories ?? [],
  };
  // Old journals may predate a redaction rule: the model never gets a secret back.
  for (const record of redactLoadedRecords(records)) {
    switch (record.t) {
      case "message":
        restored.history.push(record.message);
        restored.nextSeq = Math.max(restored.nextSeq, record.seq + 1);
        if (isUserPrompt(record.message)) restored.prompts++;
        break;
      case "tool_call":
        restored.toolCallIds.push(record.call.id);
        break;
      case "update":
        // A question's card is shown on replay even when its call never finished: its id is taken.
        if (record.permission) restored.toolCallIds.push(record.permission.call.id);
        if (record.title !== undefined) {
          restored.title = record.title;
          restored.titleSource = record.titleSource;
        }
        if (record.mode !== undefined) restored.mode = record.mode;
        if (record.modelId !== undefined) restored.modelId = record.modelId;
        if (record.additionalDirectories !== undefined) restored.additionalDirectories = record.additionalDirectories;
        if (record.toolToggles !== undefined) restored.toolToggles = record.toolToggles;
        if (record.systemPrompt !== undefined) restored.systemPrompt = record.systemPrompt;
        if (record.reset) {
          restored.history = [];
          restored.systemPrompt = undefined;
        }
        // The model's history was compressed here; the messages before stay in the journal
        // (session/load replays them) but the model goes on from the summary.
        if (record.compaction) restored.history = applyCompaction(restored.history, record.compaction);
        break;
    }
  }
  restored.history = repairToolResults(restored.history);
  return restored;
}

/**
 * The context the session's last model call used (prompt + reply, as the provider measured
 * it), or undefined when no call was measured since the history last shrank (a /reset, a
 * compaction): what a reopened session's usage meter starts from.
 */
export function lastContextTokens(records: readonly JournalRecord[]): number | undefined {
  let tokens: number | undefined;
  for (const record of records) {
    if (record.t !== "update") continue;
    if (record.reset || record.compaction) tokens = undefined;
    if (record.tokens !== undefined) tokens = record.tokens;
  }
  return tokens;
}
