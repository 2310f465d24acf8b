// One writer per session: the process that owns a live session holds its lease, a small file
// next to the journal ($HERMES_HOME/sessions/<id>.owner) naming the process (pid, start
// identity, host) and a random token. Another process that loads the session follows it
// read-only unless it takes it over explicitly, which renames a new file over it. The owner
// keeps the file it wrote open and checks it before each append with one fstat: a replaced or
// removed file has no link left. A lease whose process is gone is stale and claimed by
// whoever comes next.
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { closeSync, fstatSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, unlinkSync, writeSync } from "node:fs";
import path from "node:path";
import { withFileLock } from "../util/file-lock";
import { ownStartIdentity, sameProcessAlive } from "../util/process-alive";
import { AgentError } from "../util/agent-error";
import { assertValidSessionId } from "./errors";

/** Who holds a session's lease. */
export interface LeaseHolder {
  pid: number;
  /** The process's start identity (util/process-alive.ts), when the system tells. */
  start?: string;
  host: string;
  token: string;
  /** When it was claimed (ms since the epoch). */
  at: number;
}

/** How to take a live session over, said in every refusal. */
export const TAKE_OVER_HINT = 'load or resume it with `_meta: {"hermes/takeOver": true}` to take it over';

/**
 * A write to a session this process does not own: another Hermes process holds it (it loaded
 * the session first, or took it over from this one). Nothing was written.
 */
export class SessionNotOwnedError extends AgentError<"busy"> {
  constructor(
    readonly sessionId: string,
    readonly holder: LeaseHolder | undefined,
    /** This process owned it and lost it to a takeover. */
    readonly lost: boolean,
  ) {
    const who = holder ? `another Hermes process (pid ${holder.pid}${holder.host !== hostname() ? ` on ${holder.host}` : ""})` : "another Hermes process";
    const what = lost ? `${who} took over session ${sessionId}; this process no longer writes to it` : `session ${sessionId} is open in ${who}; this process follows it read-only`;
    super("busy", `${what}. Close it there, or ${TAKE_OVER_HINT}.`, { sessionId, ...(holder ? { ownerPid: holder.pid } : {}), takeOver: "_meta[\"hermes/takeOver\"]" });
    this.name = "SessionNotOwnedError";
  }
}

export function leasePath(dir: string, id: string): string {
  assertValidSessionId(id);
  return path.join(dir, `${id}.owner`);
}

/** The lease file's holder; undefined when there is none (or it is unreadable: a torn write is no owner). */
export function readLeaseHolder(file: string): LeaseHolder | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    // expected: no lease file (ENOENT) or one gone meanwhile: nobody holds the session
    return undefined;
  }
  try {
    const value = JSON.parse(text) as Partial<LeaseHolder>;
    if (typeof value.pid !== "number" || typeof value.token !== "string" || typeof value.host !== "string") return undefined;
    return { pid: value.pid, start: typeof value.start === "string" ? value.start : undefined, host: value.host, token: value.token, at: typeof value.at === "number" ? value.at : 0 };
  } catch {
    // expected: a torn or foreign lease file is no valid holder; it goes stale and is taken over
    return undefined;
  }
}

/** Whether `holder` is a running process: on another host that cannot be told, so it counts as running. */
function holderAlive(holder: LeaseHolder): boolean {
  if (holder.host !== hostname()) return true;
  return sameProcessAlive(holder.pid, holder.start);
}

function isThisProcess(holder: LeaseHolder): boolean {
  return holder.pid === process.pid && holder.host === hostname() && holder.start === ownStartIdentity();
}

export type ClaimResult = { owner: true; lease: SessionLease } | { owner: false; holder: LeaseHolder };

/** This process's hold on one session's lease. */
export class SessionLease {
  /** The lease file as this process wrote it, kept open: once another process replaces or removes it, its link count is 0. */
  private readonly fd: number;
  private lost = false;
  private released = false;

  private constructor(
    readonly file: string,
    readonly sessionId: string,
    token: string,
  ) {
    this.fd = openSync(file, "r");
    // Another claimant may have replaced the file between our write and this open.
    if (readLeaseHolder(file)?.token !== token) this.lost = true;
  }

  /** The lease of a session this process just created (no one else can know its id yet). */
  static create(dir: string, id: string): SessionLease {
    const file = leasePath(dir, id);
    const mine = ownHolder();
    const fd = openSync(file, "wx", 0o600);
    try {
      writeSync(fd, `${JSON.stringify(mine)}\n`);
    } finally {
      closeSync(fd);
    }
    return new SessionLease(file, id, mine.token);
  }

  /**
   * Claims the session for this process: free, stale (its process is gone) or already this
   * process's leases are taken; a live other holder's only with `takeOver`. Serialized across
   * processes by a lock file, so two claimants never both win.
   */
  static claim(dir: string, id: string, options: { takeOver?: boolean } = {}): ClaimResult {
    const file = leasePath(dir, id);
    // A fresh home has no sessions folder yet; loading an unknown id there must still end in
    // "session not found", not in ENOENT from the lock file.
    mkdirSync(dir, { recursive: true });
    return withFileLock(`${file}.lock`, () => {
      const holder = readLeaseHolder(file);
      if (holder && !options.takeOver && !isThisProcess(holder) && holderAlive(holder)) return { owner: false, holder };
      const mine = ownHolder();
      replaceFile(file, `${JSON.stringify(mine)}\n`);
      return { owner: true, lease: new SessionLease(file, id, mine.token) };
    });
  }

  /**
   * Whether this process still owns the session: one fstat of the file it wrote. A takeover
   * renames a new file over it (and a delete removes it), which leaves ours with no link.
   */
  held(): boolean {
    if (this.lost || this.released) return false;
    if (fstatSync(this.fd).nlink === 0) this.lost = true;
    return !this.lost;
  }

  /** Throws SessionNotOwnedError unless this process still owns the session. */
  assertHeld(): void {
    if (!this.held()) throw new SessionNotOwnedError(this.sessionId, readLeaseHolder(this.file), true);
  }

  /** Gives the session up (session/close, exit): the file goes if it is still ours. */
  release(): void {
    if (this.released) return;
    try {
      withFileLock(`${this.file}.lock`, () => {
        if (this.held()) unlinkSync(this.file);
      });
    } catch {
      // expected: lock busy or lease gone: a lease left behind is stale once this process exits
    }
    this.close();
  }

  /** Stops watching the file without giving the session up (a newer claim of this process replaces this one). */
  close(): void {
    if (this.released) return;
    this.released = true;
    closeSync(this.fd);
  }
}

function ownHolder(): LeaseHolder {
  return { pid: process.pid, start: ownStartIdentity(), host: hostname(), token: randomUUID(), at: Date.now() };
}

/**
 * Replaces the lease file in one rename, so a reader sees the old holder or the new one and the
 * old owner's stat sees a new inode. No fsync: after a power loss every holder is gone anyway.
 */
function replaceFile(file: string, text: string): void {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    const fd = openSync(temp, "w", 0o600);
    try {
      writeSync(fd, text);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
