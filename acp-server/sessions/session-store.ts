// All sessions of one HERMES_HOME, for one process. Writes go to the journals (the truth)
// at once and durably; the sql.js index that answers list/search is loaded on first use,
// caught up with whatever other processes appended since, and saved to state.db a moment
// after it changes. Constructing a store does no I/O, so it costs nothing at startup.
import { readFile, rename, rm, stat, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { collectSoon } from "../util/heap-upkeep";
import type { Logger } from "../util/log";
import { assertValidSessionId, SessionStoreError } from "./errors";
import { journalPath, parseWholeJournal, SessionJournal, type AppendResult } from "./journal";
// The index's code (sql.js tables, search, catch-up) loads with the index itself, not with the
// store: appending to a journal, what a new session does, never needs it.
import type { SessionIndex } from "./session-index";
import { resolveReal } from "../util/real-path";
import { leasePath, SessionLease, SessionNotOwnedError, type ClaimResult, type LeaseHolder } from "./session-lease";
import { ReplaySnapshots } from "./replay-snapshots";
import { loadSqlJs } from "./sqlite";
import type { JournalRecord, ListOptions, MessagesOptions, MessageText, SearchHit, SearchOptions, SessionMeta, SessionPage, SessionSummary } from "./types";

/** Back-to-back queries within this window share one scan of the journals. */
const CATCH_UP_INTERVAL_MS = 100;
/** state.db is rewritten this long after a change (it is only a cache)... */
const PERSIST_DELAY_MS = 1_500;
/**
 * ...or, for a big index, this many times as long as the last save took: saving rewrites the
 * whole file (140 ms for 100,000 messages), which must stay a small share of the time.
 */
const PERSIST_COST_FACTOR = 100;
/**
 * This process's own appends reach the loaded index this long after the first one waiting (or
 * before the next query, which drains them first). A tool iteration appends several records:
 * ingesting each at once put a sql.js transaction on the loop's path between a model answer and
 * the next request; batched, a turn's records go in while the model is thinking, in one
 * transaction per run. The journal is the truth: a feed still waiting when the process dies is
 * read back from it by the next catch-up.
 */
const FEED_DELAY_MS = 250;
/** ...unless this many are waiting: the wait never holds more than a bounded queue. */
const FEED_MAX_PENDING = 500;
/**
 * The loaded index is closed after this long without a query (saved first if it changed) and
 * opened again by the next one. Open, it costs memory for as long as the process lives: sql.js
 * keeps the database in an in-memory file (25 MB for 30,000 messages), each of this process's
 * appends goes in, and each save exports a second whole copy. Closed, appends go to the
 * journals only, and the next opening catches up with them.
 */
const INDEX_IDLE_MS = 60_000;

export interface StoredSession {
  meta: SessionMeta;
  /** Every record in order, the meta record first. */
  records: JournalRecord[];
  /** Lines that were skipped as corrupt or truncated. */
  warnings: string[];
  /** The journal's bytes the records were read from. */
  data: Buffer;
}

export class SessionStore {
  readonly dir: string;
  readonly stateFile: string;
  private readonly log: Logger;
  private readonly journals = new Map<string, SessionJournal>();
  /** Sessions this process claimed as their one writer (kept when lost, to say so). */
  private readonly leases = new Map<string, SessionLease>();
  /** Sessions this process follows read-only, and who owns them. */
  private readonly followed = new Map<string, LeaseHolder>();
  private index: SessionIndex | undefined;
  private indexLoading: Promise<SessionIndex> | undefined;
  private catchingUp: Promise<void> | undefined;
  private lastCatchUp = 0;
  private pendingFeeds: { id: string; record: JournalRecord; range: AppendResult }[] = [];
  private feedTimer: NodeJS.Timeout | undefined;
  private persistTimer: NodeJS.Timeout | undefined;
  private persisting: Promise<void> = Promise.resolve();
  private lastPersistMs = 0;
  private closed = false;
  private readonly indexIdleMs: number;
  /** The clock the catch-up throttle reads (tests pass their own to step past it). */
  private readonly now: () => number;
  private idleTimer: NodeJS.Timeout | undefined;
  /** The sessions' cached replays (session/load's shortcut), removed with their session. */
  readonly replays: ReplaySnapshots;

  constructor(options: { home: string; log: Logger; indexIdleMs?: number; now?: () => number }) {
    this.dir = path.join(options.home, "sessions");
    this.stateFile = path.join(options.home, "state.db");
    this.replays = new ReplaySnapshots(options.home, options.log);
    this.log = options.log;
    this.indexIdleMs = options.indexIdleMs ?? INDEX_IDLE_MS;
    this.now = options.now ?? Date.now;
  }

  /**
   * Starts a session's journal with its meta record (then `copied`, a fork's records), owned by
   * this process. Throws SessionExistsError if the id is taken.
   */
  create(meta: SessionMeta, copied: readonly JournalRecord[] = []): SessionJournal {
    this.assertOpen();
    const journal = SessionJournal.create(this.dir, meta);
    this.journals.set(meta.id, journal);
    this.leases.set(meta.id, SessionLease.create(this.dir, meta.id));
    this.feedIndex(meta.id, { t: "meta", v: 1, at: meta.createdAt, session: meta }, { start: 0, end: journal.bytes });
    // A fork starts with its parent's records, verbatim (they were redacted when first written).
    for (const record of copied) this.append(meta.id, record);
    return journal;
  }

  /**
   * Appends a record durably (on disk when this returns; `sync: false` skips the wait, see
   * SessionJournal.append). Opens the journal if this process has not yet.
   */
  append(id: string, record: JournalRecord, options: { sync?: boolean } = {}): void {
    this.assertOpen();
    this.assertWriter(id);
    let journal = this.journals.get(id);
    if (!journal) {
      journal = SessionJournal.openForAppend(this.dir, id);
      this.journals.set(id, journal);
    }
    this.feedIndex(id, record, journal.append(record, options));
  }

  /** The session as its journal holds it; undefined if there is no such journal (or no readable meta record). */
  async read(id: string): Promise<StoredSession | undefined> {
    const data = await this.readBytes(id);
    return data === undefined ? undefined : this.parse(id, data);
  }

  /** The journal's bytes, read without blocking the event loop; undefined if there is no such journal. */
  async readBytes(id: string): Promise<Buffer | undefined> {
    try {
      return await readFile(journalPath(this.dir, id));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
  }

  /** The session in its journal's bytes (`data`, from readBytes); undefined without a readable meta record. */
  parse(id: string, data: Buffer): StoredSession | undefined {
    const file = journalPath(this.dir, id);
    const { records, warnings } = parseWholeJournal(file, data);
    const first = records[0];
    if (first?.t !== "meta") {
      this.log.warn("session journal has no meta record; ignored", { sessionId: id, file, warnings });
      return undefined;
    }
    return { meta: first.session, records, warnings, data };
  }

  /** The journal's size on disk now, undefined if there is none. */
  async journalSize(id: string): Promise<number | undefined> {
    try {
      return (await stat(journalPath(this.dir, id))).size;
    } catch (error) {
      // ENOENT: no journal. Any other failure also answers "none", but is logged so it does not pass for that silently.
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") this.log.warn("could not stat a session journal", { sessionId: id, error });
      return undefined;
    }
  }

  /** "closed" until a query (or the warm-up) starts opening the index, then "opening", then "open". */
  get indexState(): "closed" | "opening" | "open" {
    if (this.index) return "open";
    return this.indexLoading ? "opening" : "closed";
  }

  async list(options: ListOptions = {}): Promise<SessionPage> {
    const index = await this.readyIndex();
    return index.list({ ...options, realCwd: options.cwd === undefined ? undefined : resolveReal(options.cwd) });
  }

  async search(query: string, options: SearchOptions = {}): Promise<SearchHit[]> {
    const index = await this.readyIndex();
    return index.search(query, { ...options, realCwd: options.cwd === undefined ? undefined : resolveReal(options.cwd) });
  }

  async messages(id: string, options: MessagesOptions = {}): Promise<MessageText[]> {
    return (await this.readyIndex()).messages(id, options);
  }

  async recent(limit: number): Promise<SessionSummary[]> {
    return (await this.readyIndex()).recent(limit);
  }

  async summary(id: string): Promise<SessionSummary | undefined> {
    return (await this.readyIndex()).summary(id);
  }

  /** Removes the session's journal and index rows. False if there was no such session. */
  async delete(id: string): Promise<boolean> {
    const file = journalPath(this.dir, id);
    this.closeSession(id);
    await rm(leasePath(this.dir, id), { force: true }); // whoever held it: the session is gone
    await this.replays.remove(id); // a copy of what it showed goes with it
    let existed = true;
    try {
      await unlink(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      existed = false;
    }
    // An index not loaded yet drops the session itself when it finds the journal gone.
    if (this.index?.delete(id)) existed = true;
    if (this.index) await this.flush();
    return existed;
  }

  /** Closes the session's journal descriptor and gives up its lease (the session is no longer live here). */
  closeSession(id: string): void {
    assertValidSessionId(id);
    this.journals.get(id)?.close();
    this.journals.delete(id);
    this.leases.get(id)?.release();
    this.leases.delete(id);
    this.followed.delete(id);
  }

  /**
   * Makes this process the session's one writer (see session-lease.ts): when no live process
   * owns it, or with `takeOver`. Otherwise this process follows it: appends are refused with
   * SessionNotOwnedError until a later claim succeeds.
   */
  claim(id: string, options: { takeOver?: boolean } = {}): ClaimResult {
    this.assertOpen();
    const result = SessionLease.claim(this.dir, id, options);
    if (result.owner) {
      // Another process may have appended since this one last did: the descriptor's idea of
      // the file's size is stale, so the next append opens it afresh.
      this.journals.get(id)?.close();
      this.journals.delete(id);
      this.leases.get(id)?.close();
      this.leases.set(id, result.lease);
      this.followed.delete(id);
    } else {
      this.followed.set(id, result.holder);
    }
    return result;
  }

  /** Whether this process owns the session now (one stat of its lease). */
  owns(id: string): boolean {
    return this.leases.get(id)?.held() ?? false;
  }

  /** Throws SessionNotOwnedError when this process follows the session or lost it to a takeover. */
  assertWriter(id: string): void {
    const lease = this.leases.get(id);
    if (lease) return lease.assertHeld();
    const holder = this.followed.get(id);
    if (holder) throw new SessionNotOwnedError(id, holder, false);
  }

  /** Writes state.db now if the index has unsaved changes (this process's appends included). */
  async flush(): Promise<void> {
    this.drainFeeds();
    if (this.persistTimer) clearTimeout(this.persistTimer);
    this.persistTimer = undefined;
    this.persisting = this.persisting.then(() => this.persist());
    await this.persisting;
  }

  /** Saves the index and closes every journal. The store is unusable afterwards. */
  async close(): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    if (this.indexLoading) await this.indexLoading.catch(() => undefined); // expected: loadIndex() failures are logged where it is started; close only waits for it to settle
    await this.catchingUp;
    await this.replays.written();
    this.drainFeeds();
    await this.flush();
    this.closed = true;
    for (const journal of this.journals.values()) journal.close();
    this.journals.clear();
    for (const lease of this.leases.values()) lease.release();
    this.leases.clear();
    this.index?.close();
    this.index = undefined;
  }

  private assertOpen(): void {
    if (this.closed) throw new SessionStoreError("internal", "the session store is closed", {});
  }

  /** The index, loaded if need be and caught up with journals that changed on disk. */
  private async readyIndex(): Promise<SessionIndex> {
    this.assertOpen();
    this.indexLoading ??= this.loadIndex().catch((error: unknown) => {
      this.indexLoading = undefined; // let the next query try again
      throw error;
    });
    const index = await this.indexLoading;
    this.drainFeeds();
    if (!this.catchingUp && this.now() - this.lastCatchUp >= CATCH_UP_INTERVAL_MS) {
      this.catchingUp = this.runCatchUp(index).finally(() => {
        this.catchingUp = undefined;
        this.lastCatchUp = this.now();
      });
    }
    await this.catchingUp;
    if (this.idleTimer) this.idleTimer.refresh();
    else this.armIdleClose();
    return index;
  }

  private armIdleClose(): void {
    this.idleTimer = setTimeout(() => this.closeIdleIndex(), this.indexIdleMs);
    this.idleTimer.unref();
  }

  /** Saves and closes the index when no query came for indexIdleMs (see INDEX_IDLE_MS). */
  private closeIdleIndex(): void {
    this.idleTimer = undefined;
    const index = this.index;
    if (!index || this.closed) return;
    if (this.catchingUp) {
      this.armIdleClose(); // still ingesting (a large history's first catch-up): not idle yet
      return;
    }
    // All at once, before anything else runs: the index leaves with every append it was fed.
    this.drainFeeds();
    if (this.persistTimer) clearTimeout(this.persistTimer);
    this.persistTimer = undefined;
    const data = index.dirty ? index.export() : undefined;
    this.index = undefined;
    this.indexLoading = undefined;
    this.lastCatchUp = 0; // the next opening catches up with what was appended meanwhile
    index.close();
    this.log.debug("session index closed: no query for a while", { idleMs: this.indexIdleMs, saved: data !== undefined });
    // loadIndex() waits for this write before reading state.db again. Then the database's
    // buffers (its in-memory file, the exported copy) are collected, not left to V8's next
    // collection, which an idle process may not run for a long time.
    this.persisting = this.persisting.then(() => (data ? this.writeState(data) : undefined)).then(() => collectSoon());
  }

  private async loadIndex(): Promise<SessionIndex> {
    const [SQL, { SessionIndex }] = await Promise.all([loadSqlJs(), import("./session-index")]);
    await this.persisting; // an index closed when idle may still be being saved
    let data: Uint8Array | undefined;
    try {
      data = await readFile(this.stateFile);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") this.log.warn("state.db unreadable; rebuilding the session index", { error });
    }
    const { index, discarded } = SessionIndex.open(SQL, data);
    if (discarded) this.log.warn("state.db not usable; rebuilding the session index from the journals", { reason: discarded });
    // From here on, this process's appends go straight in (feedIndex checks offsets, so
    // records the catch-up reads from disk are never added twice).
    this.index = index;
    return index;
  }

  private async runCatchUp(index: SessionIndex): Promise<void> {
    const { catchUpIndex } = await import("./catch-up");
    const result = await catchUpIndex(index, this.dir);
    for (const warning of result.warnings) this.log.warn(warning);
    if (result.changed) this.schedulePersist();
  }

  /**
   * Queues this process's own append for a loaded index. Feeding happens FEED_DELAY_MS later
   * (or before the next query, or when the queue is long), so append() itself costs only the
   * durable write.
   */
  private feedIndex(id: string, record: JournalRecord, range: AppendResult): void {
    if (!this.index) return;
    this.pendingFeeds.push({ id, record, range });
    if (this.pendingFeeds.length >= FEED_MAX_PENDING) this.drainFeeds();
    else if (!this.feedTimer) {
      this.feedTimer = setTimeout(() => this.drainFeeds(), FEED_DELAY_MS);
      this.feedTimer.unref(); // close() drains; a process that dies leaves them to the catch-up
    }
  }

  /** Ingests queued appends, each run of contiguous records of one session in one transaction. */
  private drainFeeds(): void {
    if (this.feedTimer) clearTimeout(this.feedTimer);
    this.feedTimer = undefined;
    const index = this.index;
    const feeds = this.pendingFeeds;
    this.pendingFeeds = [];
    if (!index) return;
    for (let i = 0; i < feeds.length; ) {
      const { id, range, record } = feeds[i]!; // i < feeds.length
      const records = [record];
      let end = range.end;
      for (let next = feeds[++i]; next && next.id === id && next.range.start === end; next = feeds[++i]) {
        records.push(next.record);
        end = next.range.end;
      }
      const state = index.journalState(id);
      if ((state?.offset ?? 0) !== range.start) {
        // The index has not read up to here (a journal another process started): the next
        // catch-up, unthrottled, reads it all from the file.
        this.lastCatchUp = 0;
        continue;
      }
      const warnings = index.ingest(id, records, { offset: end, size: end, mtime: state?.mtime ?? 0 });
      for (const warning of warnings) this.log.warn(warning);
      this.schedulePersist();
    }
  }

  private schedulePersist(): void {
    if (this.persistTimer || this.closed) return;
    this.persistTimer = setTimeout(() => {
      this.persistTimer = undefined;
      this.persisting = this.persisting.then(() => this.persist());
    }, Math.max(PERSIST_DELAY_MS, this.lastPersistMs * PERSIST_COST_FACTOR));
    this.persistTimer.unref(); // a pending save must not keep the process alive; the journals are the truth
  }

  private async persist(): Promise<void> {
    const index = this.index;
    if (!index?.dirty) return;
    const started = Date.now();
    const data = index.export();
    index.dirty = false;
    if (await this.writeState(data)) this.lastPersistMs = Date.now() - started;
    else index.dirty = true;
  }

  /** state.db via a temporary file and rename, so readers only ever see a whole database. */
  private async writeState(data: Uint8Array): Promise<boolean> {
    const temp = `${this.stateFile}.${process.pid}.tmp`;
    try {
      await writeFile(temp, data);
      await rename(temp, this.stateFile);
      return true;
    } catch (error) {
      this.log.warn("could not save state.db (the session index is rebuilt from the journals next time)", { error });
      await unlink(temp).catch(() => undefined); // expected: the temp file may never have been created; the save failure is logged just above
      return false;
    }
  }
}
