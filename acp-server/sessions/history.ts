// Rebuilds a session's state from its journal records: the model history (repaired so it
// is always valid to send, compactions applied), the settings, and the ids already used.
import { isUserPrompt, type ChatMessage } from "../providers/types";
import { applyCompaction } from "./compacted-history";
import { repairToolResults } from "./history-repair";
import { redactLoadedRecords } from "./redact-record";
import type { JournalRecord, SessionMeta, TitleSource } from "./types";

export { INTERRUPTED_RESULT, repairToolResults } from "./history-repair";

/** What a session's journal says of its settings (everything restored but the model history). */
export interface RestoredSettings {
  title?: string;
  titleSource?: TitleSource;
  mode?: string;
  modelId?: string;
  /** The extended-thinking switch, as last journaled (absent: the model's default). */
  thinking?: boolean;
  /** The extra roots the session last had (meta, then the latest update that changed them). */
  additionalDirectories: string[];
  /** The session's /tools toggles, as last journaled. */
  toolToggles?: Record<string, boolean>;
  /** Deferred tools loaded (tool_search), as last journaled. */
  loadedTools?: string[];
  systemPrompt?: string;
  /** Sequence number the next message gets. */
  nextSeq: number;
  /** User prompts in the journal (the number of the latest turn; /rollback and fork count them the same way). */
  prompts: number;
  /** The context of the last measured model call (see lastContextTokens). */
  contextTokens?: number;
}

export interface RestoredSession extends RestoredSettings {
  meta: SessionMeta;
  history: ChatMessage[];
  /** Tool call ids shown to the client so far (new ones must not collide). */
  toolCallIds: string[];
}

/** The settings of a session with no records yet but its meta. */
export function initialSettings(meta: SessionMeta): RestoredSettings {
  return { nextSeq: 0, prompts: 0, mode: meta.mode, modelId: meta.modelId, additionalDirectories: meta.additionalDirectories ?? [] };
}

/**
 * The settings after one more (redacted) record. A fold, so settings taken at some record and
 * continued with the records after it equal those restored from all of them (replay-send.ts
 * caches them with the replay).
 */
export function applySettings(settings: RestoredSettings, record: JournalRecord): void {
  if (record.t === "message") {
    settings.nextSeq = Math.max(settings.nextSeq, record.seq + 1);
    if (isUserPrompt(record.message)) settings.prompts++;
    return;
  }
  if (record.t !== "update") return;
  if (record.title !== undefined) {
    settings.title = record.title;
    settings.titleSource = record.titleSource;
  }
  if (record.mode !== undefined) settings.mode = record.mode;
  if (record.modelId !== undefined) settings.modelId = record.modelId;
  if (record.thinking !== undefined) settings.thinking = record.thinking;
  if (record.additionalDirectories !== undefined) settings.additionalDirectories = record.additionalDirectories;
  if (record.toolToggles !== undefined) settings.toolToggles = record.toolToggles;
  if (record.loadedTools !== undefined) settings.loadedTools = record.loadedTools;
  if (record.systemPrompt !== undefined) settings.systemPrompt = record.systemPrompt;
  if (record.reset) settings.systemPrompt = undefined;
  // A measured call, unless the history shrank since (a /reset, a compaction).
  if (record.reset || record.compaction) settings.contextTokens = undefined;
  if (record.tokens !== undefined) settings.contextTokens = record.tokens;
}

export function restoreSession(meta: SessionMeta, records: JournalRecord[]): RestoredSession {
  const settings = initialSettings(meta);
  let history: ChatMessage[] = [];
  const toolCallIds: string[] = [];
  // Old journals may predate a redaction rule: the model never gets a secret back.
  for (const record of redactLoadedRecords(records)) {
    applySettings(settings, record);
    switch (record.t) {
      case "message":
        history.push(record.message);
        break;
      case "tool_call":
        toolCallIds.push(record.call.id);
        break;
      case "update":
        // A question's card is shown on replay even when its call never finished: its id is taken.
        if (record.permission) toolCallIds.push(record.permission.call.id);
        if (record.reset) history = [];
        // The model's history was compressed here; the messages before stay in the journal
        // (session/load replays them) but the model goes on from the summary.
        if (record.compaction) history = applyCompaction(history, record.compaction);
        break;
    }
  }
  return { meta, ...settings, history: repairToolResults(history), toolCallIds };
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
