// The sql.js index over all journals: a session row per journal (with how far into the
// journal it has read), a row per message, and an FTS4 table over the messages' text. It is
// a cache: everything in it can be rebuilt from the journals, and SessionStore keeps it in
// step with them.
import type { SqlJsStatic, SqlValue } from "sql.js";
import { InvalidCursorError } from "./errors";
import { ListSnapshots, type ListSnapshot } from "./list-snapshots";
import { openDatabase } from "./index-schema";
import { indexedMessage } from "./message-text";
import { redactLoadedRecords } from "./redact-record";
import { redactSecrets } from "../util/redact";
import { registerRankFunction, searchIndex } from "./index-search";
import { SqlDb } from "./sql-db";
import { resolveReal } from "../util/real-path";
import type { JournalRecord, ListOptions, MessagesOptions, MessageText, SearchHit, SearchOptions, SessionMeta, SessionPage, SessionSummary, TitleSource } from "./types";

/** How much of a journal the index holds, and the file's size and mtime when it last looked. */
export interface JournalState {
  offset: number;
  size: number;
  mtime: number;
}

const SUMMARY_COLUMNS = "id, cwd, title, title_source, created_at, updated_at, parent_id, source, model_id, message_count, tool_call_count, tokens, extra_roots";

export class SessionIndex {
  private readonly sql: SqlDb;
  private readonly realCwds = new Map<string, string>();
  private readonly listSnapshots = new ListSnapshots();
  private nextMessageId: number;
  /** Set by every change; cleared by whoever persists. */
  dirty = false;

  private constructor(sql: SqlDb) {
    this.sql = sql;
    registerRankFunction(sql);
    this.nextMessageId = Number(sql.one("SELECT max(id) FROM messages")?.[0] ?? 0) + 1;
  }

  /** Opens the index from state.db's bytes, or empty when they are missing or unusable (`discarded` says why). */
  static open(SQL: SqlJsStatic, data?: Uint8Array): { index: SessionIndex; discarded?: string } {
    const { db, discarded } = openDatabase(SQL, data);
    return { index: new SessionIndex(new SqlDb(db)), discarded };
  }

  journalStates(): Map<string, JournalState> {
    const states = new Map<string, JournalState>();
    for (const [id, offset, size, mtime] of this.sql.all("SELECT id, journal_offset, journal_size, journal_mtime FROM sessions")) {
      states.set(String(id), { offset: Number(offset), size: Number(size), mtime: Number(mtime) });
    }
    return states;
  }

  journalState(id: string): JournalState | undefined {
    const row = this.sql.one("SELECT journal_offset, journal_size, journal_mtime FROM sessions WHERE id = ?", [id]);
    return row ? { offset: Number(row[0]), size: Number(row[1]), mtime: Number(row[2]) } : undefined;
  }

  /**
   * Adds records read from a journal and records how far it has been read, in one
   * transaction. Returns a warning per record that could not be indexed (skipped).
   */
  ingest(id: string, records: readonly JournalRecord[], state: JournalState): string[] {
    const warnings: string[] = [];
    const delta = { messages: 0, toolCalls: 0, tokens: 0, updatedAt: 0 };
    this.sql.transaction(() => {
      this.sql.run("INSERT OR IGNORE INTO sessions (id) VALUES (?)", [id]);
      // Journals written before a redaction rule existed hold what it now masks: the index (a
      // file on disk, and a search oracle) only ever sees today's redacted text.
      for (const record of redactLoadedRecords(records)) {
        try {
          this.ingestRecord(id, record, delta);
        } catch (error) {
          warnings.push(`session ${id}: ${record.t} record not indexed (${(error as Error).message})`);
        }
      }
      this.sql.run(
        `UPDATE sessions SET message_count = message_count + ?, tool_call_count = tool_call_count + ?, tokens = tokens + ?,
           updated_at = max(updated_at, ?), journal_offset = ?, journal_size = ?, journal_mtime = ? WHERE id = ?`,
        [delta.messages, delta.toolCalls, delta.tokens, delta.updatedAt, state.offset, state.size, state.mtime, id],
      );
    });
    this.dirty = true;
    return warnings;
  }

  /**
   * Runs `fn` in one transaction (joining the current one if any). Many journals in one
   * transaction ingest several times faster: FTS4 writes its index segments at commit.
   */
  batch<T>(fn: () => T): T {
    return this.sql.transaction(fn);
  }

  /** Records that the journal was looked at and holds nothing new. */
  touch(id: string, state: JournalState): void {
    this.sql.run("UPDATE sessions SET journal_size = ?, journal_mtime = ? WHERE id = ?", [state.size, state.mtime, id]);
    this.dirty = true;
  }

  private ingestRecord(id: string, record: JournalRecord, delta: { messages: number; toolCalls: number; tokens: number; updatedAt: number }): void {
    delta.updatedAt = Math.max(delta.updatedAt, record.at);
    switch (record.t) {
      case "meta":
        this.applyMeta(id, record.session);
        return;
      case "message": {
        const message = indexedMessage(record.message);
        const existing = this.sql.one("SELECT id FROM messages WHERE session_id = ? AND seq = ?", [id, record.seq])?.[0];
        if (existing !== undefined) {
          // A rewritten step (same seq): replace it, removing its text from FTS while the row still exists.
          this.sql.run("DELETE FROM messages_fts WHERE docid = ?", [existing]);
          this.sql.run("DELETE FROM messages WHERE id = ?", [existing]);
        } else {
          delta.messages++;
        }
        const rowId = this.nextMessageId++;
        this.sql.run(
          "INSERT INTO messages (id, session_id, seq, role, words, at, tokens, content, tool_calls, tool_call_id, reasoning, text) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
          [rowId, id, record.seq, message.role, message.words, record.at, finite(record.tokens), message.content ?? null, message.toolCalls ?? null, message.toolCallId ?? null, message.reasoning ?? null, message.text],
        );
        this.sql.run("INSERT INTO messages_fts (docid, text) VALUES (?, ?)", [rowId, message.text]);
        return;
      }
      case "tool_call":
        delta.toolCalls++;
        return;
      case "update":
        delta.tokens += finite(record.tokens);
        this.applyUpdate(id, record);
        return;
      case "plan":
        return;
    }
  }

  private applyMeta(id: string, meta: SessionMeta): void {
    this.sql.run(
      `UPDATE sessions SET has_meta = 1, cwd = ?, real_cwd = ?, created_at = ?, parent_id = ?, source = ?,
         mode = coalesce(mode, ?), model_id = coalesce(model_id, ?), provider = ?, model = ?, extra_roots = coalesce(extra_roots, ?) WHERE id = ?`,
      [
        meta.cwd,
        this.realCwd(meta.cwd),
        meta.createdAt,
        meta.parentId ?? null,
        meta.source,
        meta.mode ?? null,
        meta.modelId ?? null,
        meta.provider ?? null,
        meta.model ?? null,
        rootsColumn(meta.additionalDirectories),
        id,
      ],
    );
  }

  private applyUpdate(id: string, update: { title?: string; titleSource?: TitleSource; mode?: string; modelId?: string; additionalDirectories?: string[] }): void {
    if (update.additionalDirectories !== undefined) this.sql.run("UPDATE sessions SET extra_roots = ? WHERE id = ?", [rootsColumn(update.additionalDirectories) ?? "[]", id]);
    if (update.title !== undefined) {
      this.sql.run("UPDATE sessions SET title = ?, title_source = ? WHERE id = ?", [redactSecrets(update.title), update.titleSource ?? "auto", id]);
    }
    if (update.mode !== undefined) this.sql.run("UPDATE sessions SET mode = ? WHERE id = ?", [update.mode, id]);
    if (update.modelId !== undefined) this.sql.run("UPDATE sessions SET model_id = ? WHERE id = ?", [update.modelId, id]);
  }

  /** Real path of a session's cwd, so a filter through a symlink finds it; the path as given if it is gone. */
  private realCwd(cwd: string): string {
    let real = this.realCwds.get(cwd);
    if (real === undefined) {
      real = resolveReal(cwd);
      this.realCwds.set(cwd, real);
    }
    return real;
  }

  delete(id: string): boolean {
    const existed = this.sql.one("SELECT 1 FROM sessions WHERE id = ?", [id]) !== undefined;
    this.sql.transaction(() => {
      this.sql.run("DELETE FROM messages_fts WHERE docid IN (SELECT id FROM messages WHERE session_id = ?)", [id]);
      this.sql.run("DELETE FROM messages WHERE session_id = ?", [id]);
      this.sql.run("DELETE FROM sessions WHERE id = ?", [id]);
    });
    this.dirty = true;
    return existed;
  }

  /**
   * Newest first. `realCwd` is compared with each session's real cwd. A listing with more
   * pages keeps its order for them (see list-snapshots.ts), so sessions updated while a
   * client pages are neither skipped nor listed twice.
   */
  list(options: ListOptions & { realCwd?: string; snapshot?: false }): SessionPage {
    const limit = Math.max(1, Math.min(options.limit ?? 50, 500));
    const where = ["has_meta = 1"];
    const params: SqlValue[] = [];
    if (options.realCwd !== undefined) {
      where.push("real_cwd = ?");
      params.push(options.realCwd);
    }
    const filter = where.join(" AND ");
    const filterParams = [...params];
    if (options.cursor !== undefined) {
      const cursor = decodeCursor(options.cursor);
      const snapshot = cursor.token === undefined ? undefined : this.listSnapshots.get(cursor.token, options.realCwd);
      if (snapshot) return this.snapshotPage(snapshot, cursor, limit, cursor.token!); // token set when snapshot is
      where.push("(updated_at < ? OR (updated_at = ? AND id < ?))");
      params.push(cursor.updatedAt, cursor.updatedAt, cursor.id);
    }
    const rows = this.sql.all(`SELECT ${SUMMARY_COLUMNS} FROM sessions WHERE ${where.join(" AND ")} ORDER BY updated_at DESC, id DESC LIMIT ?`, [...params, limit + 1]);
    const sessions = rows.slice(0, limit).map(toSummary);
    const last = sessions[sessions.length - 1];
    if (rows.length <= limit || !last) return { sessions };
    if (options.cursor !== undefined || options.snapshot === false) return { sessions, nextCursor: encodeCursor(last.updatedAt, last.id) };
    // A first page with more to come: the whole order, read in the same synchronous step as the page.
    const order = this.sql.all(`SELECT id, updated_at FROM sessions WHERE ${filter} ORDER BY updated_at DESC, id DESC`, filterParams);
    const token = this.listSnapshots.add({ realCwd: options.realCwd, ids: order.map((row) => String(row[0])), updatedAts: order.map((row) => Number(row[1])) });
    return { sessions, nextCursor: encodeCursor(last.updatedAt, last.id, token, sessions.length - 1) };
  }

  /** The page after `cursor` in a kept listing order, each session as it is now but with the stamp it was ordered by. */
  private snapshotPage(snapshot: ListSnapshot, cursor: DecodedCursor, limit: number, token: string): SessionPage {
    let position = snapshot.ids[cursor.position ?? -1] === cursor.id ? cursor.position! : snapshot.ids.indexOf(cursor.id); // checked just now
    if (position < 0) throw new InvalidCursorError();
    const sessions: SessionSummary[] = [];
    let lastPosition = position;
    while (sessions.length < limit && position + 1 < snapshot.ids.length) {
      const chunk = snapshot.ids.slice(position + 1, position + 1 + (limit - sessions.length));
      const rows = this.sql.all(`SELECT ${SUMMARY_COLUMNS} FROM sessions WHERE has_meta = 1 AND id IN (${chunk.map(() => "?").join(", ")})`, chunk);
      const byId = new Map(rows.map((row) => [String(row[0]), row]));
      for (const id of chunk) {
        position++;
        const row = byId.get(id);
        if (!row) continue; // deleted since the listing began
        sessions.push({ ...toSummary(row), updatedAt: snapshot.updatedAts[position]! }); // position < ids.length
        lastPosition = position;
      }
    }
    const last = sessions[sessions.length - 1];
    const more = position + 1 < snapshot.ids.length;
    return more && last ? { sessions, nextCursor: encodeCursor(last.updatedAt, last.id, token, lastPosition) } : { sessions };
  }

  recent(limit: number): SessionSummary[] {
    return this.list({ limit, snapshot: false }).sessions;
  }

  summary(id: string): SessionSummary | undefined {
    const row = this.sql.one(`SELECT ${SUMMARY_COLUMNS} FROM sessions WHERE id = ? AND has_meta = 1`, [id]);
    return row ? toSummary(row) : undefined;
  }

  search(query: string, options: SearchOptions & { realCwd?: string }): SearchHit[] {
    return searchIndex(this.sql, query, options);
  }

  /** A page of a session's messages in order, or the window around `aroundSeq`. */
  messages(id: string, options: MessagesOptions): MessageText[] {
    const limit = Math.max(1, Math.min(options.limit ?? 20, 500));
    const toText = (row: SqlValue[]): MessageText => ({ seq: Number(row[0]), role: String(row[1]), text: String(row[2]), at: Number(row[3]) });
    if (options.aroundSeq !== undefined) {
      const before = this.sql.all("SELECT seq, role, text, at FROM messages WHERE session_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?", [id, options.aroundSeq, Math.floor((limit - 1) / 2)]);
      const after = this.sql.all("SELECT seq, role, text, at FROM messages WHERE session_id = ? AND seq >= ? ORDER BY seq LIMIT ?", [id, options.aroundSeq, limit - before.length]);
      return [...before.reverse(), ...after].map(toText);
    }
    const rows = this.sql.all("SELECT seq, role, text, at FROM messages WHERE session_id = ? ORDER BY seq LIMIT ? OFFSET ?", [id, limit, Math.max(0, options.offset ?? 0)]);
    return rows.map(toText);
  }

  /** The database as state.db bytes. */
  export(): Uint8Array {
    return this.sql.db.export();
  }

  close(): void {
    this.sql.close();
  }
}


/** The extra roots as the column holds them (JSON), or NULL for none. */
function rootsColumn(roots: readonly string[] | undefined): string | null {
  return roots && roots.length > 0 ? JSON.stringify(roots) : null;
}

function parseRoots(value: SqlValue | undefined): string[] {
  if (typeof value !== "string") return [];
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed.filter((entry): entry is string => typeof entry === "string") : [];
  } catch {
    // expected: a damaged roots column reads as no extra roots
    return [];
  }
}

function finite(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}

function toSummary(row: SqlValue[]): SessionSummary {
  const [id, cwd, title, titleSource, createdAt, updatedAt, parentId, source, modelId, messageCount, toolCallCount, tokens, extraRoots] = row;
  const summary: SessionSummary = {
    id: String(id),
    cwd: String(cwd),
    createdAt: Number(createdAt),
    updatedAt: Number(updatedAt),
    source: String(source),
    messageCount: Number(messageCount),
    toolCallCount: Number(toolCallCount),
    tokens: Number(tokens),
  };
  if (title !== null) summary.title = String(title);
  if (titleSource !== null) summary.titleSource = String(titleSource) as TitleSource;
  if (parentId !== null) summary.parentId = String(parentId);
  if (modelId !== null) summary.modelId = String(modelId);
  const roots = parseRoots(extraRoots);
  if (roots.length > 0) summary.additionalDirectories = roots;
  return summary;
}

/** Where a page ended: its last session, and (when the listing's order is kept) which order and where in it. */
interface DecodedCursor {
  updatedAt: number;
  id: string;
  token?: string;
  position?: number;
}

function encodeCursor(updatedAt: number, id: string, token?: string, position?: number): string {
  return Buffer.from(JSON.stringify(token === undefined ? [updatedAt, id] : [updatedAt, id, token, position])).toString("base64url");
}

function decodeCursor(cursor: string): DecodedCursor {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Array.isArray(value) && typeof value[0] === "number" && typeof value[1] === "string") {
      if (value.length === 2) return { updatedAt: value[0], id: value[1] };
      if (value.length === 4 && typeof value[2] === "string" && Number.isSafeInteger(value[3]) && (value[3] as number) >= 0) {
        return { updatedAt: value[0], id: value[1], token: value[2], position: value[3] as number };
      }
    }
  } catch {
    // expected: a cursor that is not base64url JSON is an invalid cursor, thrown just below
  }
  throw new InvalidCursorError();
}
