// session/load's replay on the wire: the journal's updates (replay.ts) as session/update frames,
// before the answer. Building them costs more than anything else in a load of a long session,
// so the frames of all but its last few records are kept (sessions/replay-snapshot.ts) and the
// next load of the session writes those bytes as they are, then replays only the records after
// them. The cache is used only when it is provably what a replay would send now (same journal
// prefix, code, redaction rules, spill files, and no secret value registered since); otherwise
// the replay is built from the journal and the cache written anew.
import * as acp from "@agentclientprotocol/sdk/unstable";
import { applySettings, initialSettings } from "../sessions/history";
import { parseWholeJournal } from "../sessions/journal";
import { lastRecordsStart } from "../sessions/journal-parse";
import { redactLoadedRecords } from "../sessions/redact-record";
import type { SessionStore } from "../sessions/session-store";
import type { JournalRecord } from "../sessions/types";
import type { LiveSession } from "../runtime/live-session";
import type { Logger } from "../util/log";
import { openJournal, SNAPSHOT_CODE, SNAPSHOT_MIN_BYTES, type OpenedJournal, type SnapshotState } from "../app/load-journal";
import { ReplayBuilder, replayUpdateJson, type ReplayOptions } from "./replay";

/** Frames per write while replaying: the client parses one block while the next is built. */
const REPLAY_BLOCK = 500;

export interface ReplayTarget {
  /** Undefined when nobody listens (refreshReplayCache): only the cache is made. */
  client: acp.AgentContext | undefined;
  sessionId: string;
  /** Writes ready-made frames after what the SDK already handed over; without it, the SDK sends each update. */
  writeFrames?: (data: string | Uint8Array) => Promise<void>;
  /** Resolves once what was written has left for the client: the cache is written after that. */
  outputDrained?: () => Promise<void>;
  store: SessionStore;
}

/** Sends a journal's replay to the client, before the session/load answer. */
export async function sendReplay(target: ReplayTarget, journal: OpenedJournal, options: ReplayOptions = {}): Promise<void> {
  const { client, sessionId, writeFrames } = target;
  if (!writeFrames) {
    if (!client) return;
    // The connection writes in call order: queue everything, then wait for all of it.
    const notify = (json: string) => client.notify(acp.methods.client.session.update, { sessionId, update: JSON.parse(json) as acp.SessionUpdate });
    await Promise.all(Array.from(replayUpdateJson(allRecords(journal), options), notify));
    return;
  }
  const frames = new FrameSender(target, writeFrames);
  const { cached } = journal;
  // From the cached frames on, or from the start: the records after them, as the client saw them.
  if (cached) await frames.sendBytes(cached.frames);
  const records = redactLoadedRecords(cached ? cached.tail : (journal.records ?? []));
  const covered = cached?.covered ?? 0;
  const cut = snapshotCut(journal.data, records, covered);
  const builder = new ReplayBuilder(options, cached?.state.replay);
  for (let i = 0; i < records.length; i++) {
    if (cut !== undefined && i === cut.index) {
      // The next cache ends here: its cards are out, and what follows needs only the state.
      for (const json of builder.flushBatch()) await frames.send(json);
      const sent = await frames.takeRecorded();
      const settings = cached ? structuredClone(cached.state.settings) : initialSettings(journal.meta);
      for (const record of records.slice(0, i)) applySettings(settings, record);
      const outputs = new Map([...(cached?.state.outputs ?? []), ...builder.outputsChecked]);
      const state: SnapshotState = { replay: builder.state(), outputs: [...outputs], settings };
      // Once the replay and the answer are out: hashing and writing it is not what the client waits for.
      const when = nextTurn().then(() => nextTurn()).then(() => target.outputDrained?.());
      target.store.replays.save(sessionId, SNAPSHOT_CODE, journal.data, cut.offset, state, cached ? [cached.frames, sent] : [sent], when);
    }
    for (const json of builder.push(records[i]!)) await frames.send(json); // i < records.length
  }
  for (const json of builder.end()) await frames.send(json);
  await frames.end();
}

/**
 * Brings the session's cached replay up to date without a client: the replay a session/load
 * would send now is built (from the cache, only the records after it) into nothing, and the
 * cache written where a load would write it, by the same code, so it is byte for byte what a
 * load would have cached. Returns the journal's size then (undefined: no such session).
 */
export async function refreshReplayCache(store: SessionStore, sessionId: string): Promise<number | undefined> {
  const journal = await openJournal(store, sessionId);
  if (!journal) return undefined;
  if (journal.data.length >= SNAPSHOT_MIN_BYTES) {
    await sendReplay({ client: undefined, sessionId, writeFrames: () => Promise.resolve(), store }, journal);
    await store.replays.written();
  }
  return journal.data.length;
}

/** Every record of the journal (a client without the bulk writer: no cache; parsed here if it was not). */
function allRecords(journal: OpenedJournal): JournalRecord[] {
  if (journal.records) return journal.records;
  return parseWholeJournal(`the journal of ${journal.meta.id}`, journal.data).records;
}

/**
 * Where a snapshot of this journal would end: at its last message the client sees (a prompt or
 * a reply), which sends the cards before it first; the records from there on are replayed each
 * time. `records` are the journal's from byte `covered` on (what a snapshot already covers is
 * not parsed); a new snapshot is worth writing once it would cover SNAPSHOT_MIN_BYTES more.
 */
function snapshotCut(data: Buffer, records: readonly JournalRecord[], covered: number): { index: number; offset: number } | undefined {
  if (data.length - covered < SNAPSHOT_MIN_BYTES) return undefined;
  for (let index = records.length - 1; index > 0; index--) {
    const record = records[index]!; // 0 < index < records.length
    if (record.t !== "message" || record.message.role === "tool") continue;
    const offset = lastRecordsStart(data, records.length - index, "journal");
    return offset !== undefined && offset - covered >= SNAPSHOT_MIN_BYTES / 2 ? { index, offset } : undefined;
  }
  return undefined;
}

/** The frames' envelope, the same for every update: only the update differs. */
function envelope(sessionId: string): string {
  return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":${JSON.stringify(sessionId)},"update":`;
}

/**
 * Writes frames in blocks. The first update goes through the SDK: once it is written, so is
 * everything the SDK had queued before it. The rest follows in blocks, and the answer (sent by
 * the SDK after the handler returns) comes after them. Until takeRecorded(), what it sends is
 * also kept as text (the snapshot's frames).
 */
class FrameSender {
  private readonly head: string;
  private first = true;
  private block = "";
  private frames = 0;
  private recorded: string[] | undefined = [];

  constructor(
    private readonly target: ReplayTarget,
    private readonly write: (data: string | Uint8Array) => Promise<void>,
  ) {
    this.head = envelope(target.sessionId);
  }

  async send(json: string): Promise<void> {
    if (this.first) {
      this.first = false;
      this.recorded?.push(`${this.head}${json}}}\n`);
      await this.target.client?.notify(acp.methods.client.session.update, { sessionId: this.target.sessionId, update: JSON.parse(json) as acp.SessionUpdate });
      return;
    }
    this.block += `${this.head}${json}}}\n`;
    if (++this.frames === REPLAY_BLOCK) await this.flush();
  }

  /** Cached frames (whole lines, this session's envelope): the first through the SDK, the rest as they are; not recorded. */
  async sendBytes(data: Buffer): Promise<void> {
    if (data.length === 0) return;
    const end = data.indexOf(0x0a);
    if (this.first) {
      this.first = false;
      const { client } = this.target;
      if (client) {
        const frame = JSON.parse(data.toString("utf8", 0, end)) as { params: { update: acp.SessionUpdate } };
        await client.notify(acp.methods.client.session.update, { sessionId: this.target.sessionId, update: frame.params.update });
      }
      if (end + 1 < data.length) await this.write(data.subarray(end + 1));
    } else {
      await this.flush();
      await this.write(data);
    }
    await nextTurn();
  }

  /** Everything sent so far, as one text; nothing is kept from here on. */
  async takeRecorded(): Promise<string> {
    await this.flush();
    const text = (this.recorded ?? []).join("");
    this.recorded = undefined;
    return text;
  }

  /** The last block (the answer follows at once). */
  async end(): Promise<void> {
    await this.flush(false);
  }

  private async flush(pause = true): Promise<void> {
    if (!this.block) return;
    const block = this.block;
    this.block = "";
    this.frames = 0;
    this.recorded?.push(block);
    await this.write(block);
    if (pause) await nextTurn();
  }
}

/** A turn of the event loop: the block leaves (stdout is corked until then) and the client parses it while the next one is built. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

// Keeps the replay cache (sessions/replay-snapshot.ts) of the sessions this process runs
// current, so the first session/load in the next process (the editor reopened) is served from
// it instead of building the replay of the whole journal. Only a load used to write the cache,
// and a chat the user worked in here was never loaded here.
//
// After a turn ends, once the session has been idle for REFRESH_IDLE_MS: the replay a load
// would send is built into nothing (replay-send.ts, refreshReplayCache: from the cache, only
// the records after it) and cached as a load would cache it. Never during a turn (no work
// between a tool result and the next model request), and only when the journal grew enough
// since the last refresh for a new cache to be written (SNAPSHOT_MIN_BYTES / 2): bounded work,
// once in a while. A failure only costs the next load its shortcut.
/** Idle this long after a turn before the cache is brought up to date (a follow-up prompt usually comes sooner). */
export const REFRESH_IDLE_MS = 1_500;

interface RefreshState {
  timer?: NodeJS.Timeout;
  running?: Promise<void>;
  /** The journal's size when the cache was last brought up to date here. */
  refreshedAt?: number;
}

const states = new WeakMap<LiveSession, RefreshState>();

/** Called at the end of each turn of a top-level session: schedules the refresh (debounced). */
export function refreshReplayCacheWhenIdle(session: LiveSession, store: SessionStore, log: Logger, idleMs = REFRESH_IDLE_MS): void {
  if (session.agent.depth > 0) return; // a child agent's session is not one an editor reopens
  let state = states.get(session);
  if (!state) states.set(session, (state = {}));
  const current = state;
  if (current.timer) current.timer.refresh();
  else {
    current.timer = setTimeout(() => {
      current.timer = undefined;
      if (session.busy || session.isClosed || current.running || !store.owns(session.id)) return; // the next turn's end tries again
      current.running = refresh(session.id, store, current, log).finally(() => (current.running = undefined));
    }, idleMs);
    current.timer.unref(); // an exit does not wait: the next load builds the replay, as before
  }
}

async function refresh(sessionId: string, store: SessionStore, state: RefreshState, log: Logger): Promise<void> {
  try {
    const size = await store.journalSize(sessionId);
    if (size === undefined || size < SNAPSHOT_MIN_BYTES) return;
    if (state.refreshedAt !== undefined && size - state.refreshedAt < SNAPSHOT_MIN_BYTES / 2) return;
    const started = performance.now();
    const refreshedAt = await refreshReplayCache(store, sessionId);
    if (refreshedAt !== undefined) state.refreshedAt = refreshedAt;
    log.debug("replay cache refreshed", { sessionId, journalBytes: refreshedAt, ms: Math.round(performance.now() - started) });
  } catch (error) {
    log.warn("could not refresh the session's replay cache", { sessionId, error });
  }
}
