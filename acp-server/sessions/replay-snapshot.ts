// A session's replay, cached: the exact frames a session/load sent for a prefix of its journal
// (or would send: the process running a session also writes it in idle time, acp/replay-send.ts),
// so the next load of that session writes them as they are instead of building them again from
// every record. The file ($HERMES_HOME/cache/replay/<id>.ndjson) is one header line, then the
// frames. It is only a cache of what the journal says, and is used only when it provably still
// is: the journal's first `covered` bytes hash to what they hashed to when the frames were built
// (journals are append-only, so a longer journal keeps its prefix; an edited or truncated one
// does not), by the same code (`code`: the app version and its bundle's content-hashed chunk) and
// the same redaction rules (REDACTION_VERSION), and no registered secret value occurs in the
// frames (one registered since they were built; the caller checks, see replay-cache.ts).
// Anything else, down to a file cut short, makes the caller build the replay from the journal.
import { createHash } from "node:crypto";
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { REDACTION_VERSION } from "../util/redact";
import { assertValidSessionId } from "./errors";

/** Bumped when the file's layout or meaning changes. */
const FORMAT = 1;
const NEWLINE = 0x0a;

export interface ReplaySnapshot {
  /** Bytes of the journal the frames cover (a whole number of lines). */
  covered: number;
  /** What the caller needs to go on from there (its replay state), as it stored it. */
  state: unknown;
  /** The frames, each a line. */
  frames: Buffer;
  /** The whole file (header and frames), as JSON.stringify wrote it. */
  file: Buffer;
}

interface Header {
  format: number;
  code: string;
  redaction: number;
  sessionId: string;
  covered: number;
  sha256: string;
  frameBytes: number;
  state: unknown;
}

export function replaySnapshotPath(home: string, id: string): string {
  assertValidSessionId(id);
  return path.join(home, "cache", "replay", `${id}.ndjson`);
}

/** The snapshot if it is valid for `journal` (the journal's bytes as just read), else undefined. */
export async function readReplaySnapshot(file: string, sessionId: string, code: string, journal: Buffer): Promise<ReplaySnapshot | undefined> {
  let data: Buffer;
  try {
    data = await readFile(file);
  } catch {
    // expected: no snapshot yet (or an unreadable one): the journal is the truth and is replayed
    return undefined;
  }
  const end = data.indexOf(NEWLINE);
  if (end < 0) return undefined;
  let header: Partial<Header>;
  try {
    header = JSON.parse(data.toString("utf8", 0, end)) as Partial<Header>;
  } catch {
    // expected: a damaged snapshot header: the journal is replayed instead
    return undefined;
  }
  if (header === null || typeof header !== "object") return undefined;
  if (header.format !== FORMAT || header.code !== code || header.redaction !== REDACTION_VERSION || header.sessionId !== sessionId) return undefined;
  const { covered, frameBytes, sha256 } = header;
  if (typeof covered !== "number" || !Number.isSafeInteger(covered) || covered <= 0 || covered > journal.length) return undefined;
  if (journal[covered - 1] !== NEWLINE) return undefined;
  const frames = data.subarray(end + 1);
  if (frames.length !== frameBytes || (frames.length > 0 && frames[frames.length - 1] !== NEWLINE)) return undefined;
  if (typeof sha256 !== "string" || sha256 !== prefixHash(journal, covered)) return undefined;
  return { covered, state: header.state, frames, file: data };
}

/**
 * Stores the frames built for the journal's first `covered` bytes (`journal`: the bytes they were
 * built from). Written whole or not at all (a temporary file, then a rename), readable by the user
 * only. Synchronously (a few milliseconds, into the page cache): an exit cannot cut it halfway and
 * leave the temporary file behind.
 */
export function writeReplaySnapshot(file: string, sessionId: string, code: string, journal: Buffer, covered: number, state: unknown, frames: (string | Buffer)[]): void {
  const body = Buffer.concat(frames.map((part) => (typeof part === "string" ? Buffer.from(part, "utf8") : part)));
  const header: Header = { format: FORMAT, code, redaction: REDACTION_VERSION, sessionId, covered, sha256: prefixHash(journal, covered), frameBytes: body.length, state };
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`, "utf8"), body]), { mode: 0o600 });
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/** Forgets a session's snapshot (the session is deleted: nothing of it stays behind). */
export async function removeReplaySnapshot(file: string): Promise<void> {
  await rm(file, { force: true });
}

function prefixHash(journal: Buffer, covered: number): string {
  return createHash("sha256").update(journal.subarray(0, covered)).digest("hex");
}

/** Where a replay stood when its snapshot ends: what the frames after it need to continue. */
export interface ReplayState {
  /** User prompts so far: the number of the turn each one started. */
  turn: number;
  /** A turn began and has not ended (yet, or ever: the process died during it). */
  turnOpen: boolean;
  /** How each permission question ended: answered, or cancelled by a clean shutdown (none: the process died). */
  answers: [string, "answered" | "shutdown"][];
}
