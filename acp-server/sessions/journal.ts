// One session's journal: $HERMES_HOME/sessions/<id>.jsonl, one JSON record per line,
// append-only. Each append is a single write(2) on an O_APPEND descriptor: once it returns,
// the record is in the kernel and a kill -9 of this process at any moment cannot lose it.
// Each step is then fdatasync'ed for power loss, in the background, one sync at a time, so
// the agent loop never waits on the disk. Readers tolerate what a crash can leave behind:
// a truncated last line, or (after a disk error) a corrupt line anywhere.
import { closeSync, constants, fdatasync, fdatasyncSync, fstatSync, fsyncSync, mkdirSync, openSync, readSync, writeSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { assertValidSessionId, SessionExistsError, SessionNotFoundError, SessionStoreError } from "./errors";
import { JournalParser, type JournalRead, type ParseOptions } from "./journal-parse";
import type { JournalRecord, SessionMeta } from "./types";
import { createLogger } from "../util/log";

const log = createLogger("sessions");

export type { JournalRead } from "./journal-parse";

const NEWLINE = 0x0a;

/** Byte range one append occupies in the file, so an index can tell whether it has seen what came before. */
export interface AppendResult {
  start: number;
  end: number;
}

export function journalPath(dir: string, id: string): string {
  assertValidSessionId(id);
  return path.join(dir, `${id}.jsonl`);
}

export class SessionJournal {
  readonly id: string;
  readonly file: string;
  private fd: number | undefined;
  /** The file's size as this writer left it: sessions have a single writer, so this is exact. */
  private size: number;
  /** A background fdatasync is running / another is wanted after it / close() waits for it. */
  private syncing = false;
  private dirty = false;
  private closeAfterSync = false;

  private constructor(id: string, file: string, fd: number, size: number) {
    this.id = id;
    this.file = file;
    this.fd = fd;
    this.size = size;
  }

  /** Creates the journal with its meta record. Fails with SessionExistsError if the file exists. */
  static create(dir: string, meta: SessionMeta): SessionJournal {
    const file = journalPath(dir, meta.id);
    mkdirSync(dir, { recursive: true });
    let fd: number;
    try {
      fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_APPEND, 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") throw new SessionExistsError(meta.id);
      throw error;
    }
    const journal = new SessionJournal(meta.id, file, fd, 0);
    journal.append({ t: "meta", v: 1, at: meta.createdAt, session: meta });
    syncDirectory(dir); // the new name must survive a power loss too, not just its contents
    return journal;
  }

  /** Opens an existing journal to continue it (session/load, or a later turn after closeSession). */
  static openForAppend(dir: string, id: string): SessionJournal {
    const file = journalPath(dir, id);
    let fd: number;
    try {
      fd = openSync(file, constants.O_RDWR | constants.O_APPEND);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new SessionNotFoundError(id);
      throw error;
    }
    try {
      const journal = new SessionJournal(id, file, fd, fstatSync(fd).size);
      journal.terminateLastLine();
      return journal;
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  }

  /** Bytes in the file after the last append. */
  get bytes(): number {
    return this.size;
  }

  get closed(): boolean {
    return this.fd === undefined || this.closeAfterSync;
  }

  /**
   * Writes one record (safe from a process crash when this returns) and schedules an
   * fdatasync (safe from a power loss moments later). `sync: false` skips the fdatasync:
   * for display records, which reach the disk with the next step anyway.
   */
  append(record: JournalRecord, options: { sync?: boolean } = {}): AppendResult {
    const fd = this.fd;
    if (fd === undefined || this.closeAfterSync) throw new SessionStoreError("internal", `journal of session ${this.id} is closed`, { sessionId: this.id });
    const line = Buffer.from(`${JSON.stringify(record)}\n`);
    const start = this.size;
    try {
      let written = 0;
      while (written < line.length) written += writeSync(fd, line, written, line.length - written);
    } catch (error) {
      this.recoverFromFailedWrite(fd);
      throw new SessionStoreError("internal", `could not append to the journal of session ${this.id}: ${(error as Error).message}`, { sessionId: this.id }, { cause: error });
    }
    this.size = start + line.length;
    if (options.sync !== false) this.syncInBackground();
    return { start, end: this.size };
  }

  /** Writes everything still pending to the disk now. */
  flushSync(): void {
    if (this.fd !== undefined && (this.dirty || this.syncing)) fdatasyncSync(this.fd);
    this.dirty = false;
  }

  close(): void {
    if (this.fd === undefined) return;
    if (this.syncing) {
      // The background sync still uses the descriptor: close when it is done.
      this.closeAfterSync = true;
      return;
    }
    const fd = this.fd;
    this.fd = undefined;
    try {
      if (this.dirty) fdatasyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }

  private syncInBackground(): void {
    if (this.syncing) {
      this.dirty = true;
      return;
    }
    const fd = this.fd;
    if (fd === undefined) return;
    this.syncing = true;
    this.dirty = false;
    fdatasync(fd, (error) => {
      // A failed sync leaves the data in the kernel; the next step's sync tries again.
      if (error) log.warn("could not sync the session journal to disk; the next step tries again", { sessionId: this.id, file: this.file, error });
      this.syncing = false;
      if (this.closeAfterSync) {
        this.closeAfterSync = false;
        this.close();
      } else if (this.dirty) {
        this.syncInBackground();
      }
    });
  }

  /**
   * A crash (or a full disk) can leave a line without its newline. Appending after it would
   * glue the next record onto that fragment and lose both, so end the fragment first: it
   * becomes one corrupt line that readers skip.
   */
  private terminateLastLine(): void {
    if (this.size === 0 || this.fd === undefined) return;
    const last = Buffer.alloc(1);
    readSync(this.fd, last, 0, 1, this.size - 1);
    if (last[0] === NEWLINE) return;
    writeSync(this.fd, "\n");
    fdatasyncSync(this.fd);
    this.size += 1;
  }

  /** After a partial write (ENOSPC, EIO), end the fragment if possible and resynchronize the size. */
  private recoverFromFailedWrite(fd: number): void {
    try {
      this.size = fstatSync(fd).size;
      this.terminateLastLine();
    } catch (error) {
      // The disk is failing: the append that got here reports its own error to the caller; this
      // says that the journal may now end in a fragment (readers skip it) and its size is a guess.
      log.warn("could not recover the session journal after a failed append", { sessionId: this.id, file: this.file, error });
    }
  }
}

/** Errors that mean "a directory cannot be fsync'ed here" (Windows, some file systems), not a failing disk. */
const DIRECTORY_SYNC_UNSUPPORTED = new Set(["EISDIR", "EPERM", "EACCES", "EINVAL", "ENOTSUP", "EOPNOTSUPP"]);

function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, constants.O_RDONLY);
    fsyncSync(fd);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "";
    // The session exists and its own data is synced: a failed directory sync only risks the new
    // name after a power loss, so it is reported, not thrown.
    if (!DIRECTORY_SYNC_UNSUPPORTED.has(code)) log.warn("could not sync the sessions folder after creating a journal", { dir, error });
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Bytes read at a time: a long session is parsed as it streams in, never held as one string. */
const READ_CHUNK = 1 << 20;

/**
 * Reads a whole journal. Corrupt lines are skipped with a warning naming the file and line;
 * a final line without its newline is kept if it parses (a record the writer finished but
 * whose newline a crash cut off is still a complete record) and skipped with a warning otherwise.
 * `bytes` is the file's size.
 */
export function readJournal(file: string): JournalRead {
  return readLines(file, { file, offset: 0, firstLine: 1, takeUnterminated: true });
}

/**
 * readJournal without blocking the event loop on the disk (session/load), with the bytes it
 * parsed (a replay snapshot is checked against them). Throws ENOENT like it.
 */
export async function readJournalAsync(file: string): Promise<JournalRead & { data: Buffer }> {
  const data = await readFile(file);
  return { ...parseWholeJournal(file, data), data };
}

/** A whole journal's bytes, already read, parsed as readJournal parses the file. */
export function parseWholeJournal(file: string, data: Buffer): JournalRead {
  const parser = new JournalParser({ file, offset: 0, firstLine: 1, takeUnterminated: true });
  // A chunk at a time: a long session is decoded piece by piece, never as one string.
  for (let position = 0; position < data.length; position += READ_CHUNK) parser.push(data.subarray(position, position + READ_CHUNK));
  return parser.end();
}

/**
 * Reads the complete lines from byte `offset` on, for incremental ingestion. A last line
 * without its newline may still be being written by another process, so it is left for a
 * later call: `bytes` is the offset just past the last complete line, where to resume.
 */
export function readJournalFrom(file: string, offset: number): JournalRead {
  return readLines(file, { file, offset, firstLine: offset === 0 ? 1 : undefined, takeUnterminated: false });
}

/**
 * The file from `options.offset` to its size when opened, a chunk at a time (what a writer
 * appends meanwhile is for the next read).
 */
function readLines(file: string, options: ParseOptions): JournalRead {
  const parser = new JournalParser(options);
  const fd = openSync(file, constants.O_RDONLY);
  try {
    const size = fstatSync(fd).size;
    const buffer = Buffer.allocUnsafe(Math.min(READ_CHUNK, Math.max(size - options.offset, 1)));
    for (let position = options.offset; position < size; ) {
      const read = readSync(fd, buffer, 0, Math.min(buffer.length, size - position), position);
      if (read === 0) break; // truncated meanwhile
      parser.push(buffer.subarray(0, read));
      position += read;
    }
    return parser.end();
  } finally {
    closeSync(fd);
  }
}
