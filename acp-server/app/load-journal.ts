// A session's journal as session/load and resume open it. A long session with a valid cached
// replay (sessions/replay-snapshot.ts) is not parsed before the answer: the cache holds the
// replay's frames and the session's settings up to its last messages, only the records after
// those are parsed, and the model history is restored from the journal's bytes when first needed
// (the next prompt; or just after the answer, app/session-start.ts). Otherwise the whole journal is
// parsed, as always. Either way the session and its replay are the same.
import * as z from "zod";
import { applySettings, lastContextTokens, restoreSession, type RestoredSettings } from "../sessions/history";
import { parseJournal } from "../sessions/journal-parse";
import { redactLoadedRecords } from "../sessions/redact-record";
import type { SessionStore } from "../sessions/session-store";
import type { JournalRecord, SessionMeta } from "../sessions/types";
import type { RestoredConversation } from "../agent/session";
import type { Logger } from "../util/log";
import { jsonContainsKnownValue } from "../util/secret-values";
import { VERSION } from "../version";
import type { ReplayState } from "../sessions/replay-snapshot";
import { existsSync } from "node:fs";

/** A journal shorter than this is replayed from its records every time (no file for a short chat). */
export const SNAPSHOT_MIN_BYTES = 64 * 1024;
/**
 * The code that built a snapshot: the app version, and the URL of this module, whose bundled
 * chunk is named by a hash of its contents and of everything it imports (the replay's updates,
 * the redaction rules, the settings fold): any change to them makes earlier snapshots unusable.
 */
export const SNAPSHOT_CODE = `${VERSION} ${import.meta.url}`;

/** What a snapshot stores besides its frames, at the point where they end. */
export interface SnapshotState {
  replay: ReplayState;
  /** Spill files the cached cards offered or did not (their existence decides `_meta["hermes/fullOutput"]`). */
  outputs: [string, boolean][];
  /** The session's settings (history.ts's fold) over the records before that point. */
  settings: RestoredSettings;
}

export interface OpenedJournal {
  meta: SessionMeta;
  /** The journal's bytes as read. */
  data: Buffer;
  /** Every record (the journal was parsed). */
  records?: JournalRecord[];
  /** Or the cached replay and the records after it (only those were parsed). */
  cached?: { covered: number; state: SnapshotState; frames: Buffer; tail: JournalRecord[] };
  /** Lines skipped as corrupt (of the part that was parsed). */
  warnings: string[];
}

/** The session's journal, from its cached replay where that is valid; undefined if there is no such session. */
export async function openJournal(store: SessionStore, sessionId: string): Promise<OpenedJournal | undefined> {
  const data = await store.readBytes(sessionId);
  if (data === undefined) return undefined;
  const cached = await usableSnapshot(store, sessionId, data);
  if (cached) {
    const file = `the journal of ${sessionId}`;
    const first = parseJournal(data.subarray(0, data.indexOf(0x0a) + 1), { file, offset: 0, firstLine: 1, takeUnterminated: false }).records[0];
    if (first?.t === "meta") {
      const tail = parseJournal(data.subarray(cached.covered), { file, offset: cached.covered, takeUnterminated: true });
      return { meta: first.session, data, cached: { ...cached, tail: tail.records }, warnings: tail.warnings };
    }
  }
  const stored = store.parse(sessionId, data);
  return stored && { meta: stored.meta, data, records: stored.records, warnings: stored.warnings };
}

/**
 * The session as its journal restores it (`meta`: the journal's, with the cwd the client
 * gave). From a cached replay, the settings are the cache's continued with the records after
 * it, and the conversation is deferred: parsed from the bytes when the session first needs it.
 */
export function restoredFrom(journal: OpenedJournal, meta: SessionMeta, store: SessionStore, log: Logger): ReturnType<typeof restoreSession> & { deferred?: () => RestoredConversation } {
  if (!journal.cached) return restoreSession(meta, journal.records ?? []);
  const settings = cachedSettings(journal.cached);
  const { data } = journal;
  const deferred = (): RestoredConversation => {
    const stored = store.parse(meta.id, data);
    // Read a moment ago and checked: only a failing machine gets here. Never an empty history instead.
    if (!stored) throw new Error(`the journal of session ${meta.id} could not be read again`);
    for (const warning of stored.warnings) log.warn(warning, { sessionId: meta.id });
    return restoreSession(meta, stored.records);
  };
  return { meta, ...settings, history: [], toolCallIds: [], deferred };
}

/** The context of the session's last measured model call (history.ts, lastContextTokens), from either kind of journal. */
export function journalContextTokens(journal: OpenedJournal): number | undefined {
  return journal.cached ? cachedSettings(journal.cached).contextTokens : lastContextTokens(journal.records ?? []);
}

/** The cached settings continued with the records after them. */
function cachedSettings(cached: NonNullable<OpenedJournal["cached"]>): RestoredSettings {
  const settings: RestoredSettings = structuredClone(cached.state.settings);
  for (const record of redactLoadedRecords(cached.tail)) applySettings(settings, record);
  return settings;
}

/** The session's snapshot, if it holds exactly what a replay of this journal would send first. */
async function usableSnapshot(store: SessionStore, sessionId: string, data: Buffer): Promise<{ covered: number; state: SnapshotState; frames: Buffer } | undefined> {
  if (data.length < SNAPSHOT_MIN_BYTES) return undefined;
  const snapshot = await store.replays.read(sessionId, SNAPSHOT_CODE, data);
  if (!snapshot) return undefined;
  const state = snapshotStateSchema().safeParse(snapshot.state);
  if (!state.success) return undefined;
  // A spill file that came or went since: the cards would offer it differently.
  if (state.data.outputs.some(([file, existed]) => existsSync(file) !== existed)) return undefined;
  // A secret value registered since it was written (a key added to config.yaml) may be in the frames or the settings.
  if (jsonContainsKnownValue(snapshot.file)) return undefined;
  return { covered: snapshot.covered, state: state.data, frames: snapshot.frames };
}

let schema: z.ZodType<SnapshotState> | undefined;

/** The snapshot's state as read back from disk (built on first use). */
function snapshotStateSchema(): z.ZodType<SnapshotState> {
  schema ??= z.object({
    replay: z.object({
      turn: z.number().int().nonnegative(),
      turnOpen: z.boolean(),
      answers: z.array(z.tuple([z.string(), z.enum(["answered", "shutdown"])])),
    }),
    outputs: z.array(z.tuple([z.string(), z.boolean()])),
    settings: z.object({
      title: z.string().optional(),
      titleSource: z.enum(["auto", "user", "first_line"]).optional(),
      mode: z.string().optional(),
      modelId: z.string().optional(),
      additionalDirectories: z.array(z.string()),
      toolToggles: z.record(z.string(), z.boolean()).optional(),
      loadedTools: z.array(z.string()).optional(),
      systemPrompt: z.string().optional(),
      nextSeq: z.number().int().nonnegative(),
      prompts: z.number().int().nonnegative(),
      contextTokens: z.number().optional(),
    }),
  });
  return schema;
}
