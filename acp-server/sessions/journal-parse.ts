// Tolerant parsing of journal bytes: every line that is a well-formed record is kept, every
// other line is skipped with a warning, so one damaged line never costs the rest.
import type { JournalRecord } from "./types";

const NEWLINE = 0x0a;

export interface JournalRead {
  records: JournalRecord[];
  /** One line per skipped line, naming the file and where in it. */
  warnings: string[];
  /** Offset just past the last line consumed: where an incremental reader resumes. */
  bytes: number;
}

export interface ParseOptions {
  file: string;
  /** Offset of `data` in the file. */
  offset: number;
  /** Line number of the first line when `data` starts at the top; otherwise warnings give byte offsets. */
  firstLine?: number;
  /** Whether a final line without its newline is parsed (full reads) or left for later (incremental reads). */
  takeUnterminated: boolean;
}

export function parseJournal(data: Buffer, options: ParseOptions): JournalRead {
  if (options.takeUnterminated && options.firstLine !== undefined && options.offset === 0) return parseWhole(data, options.file, options.firstLine);
  const records: JournalRecord[] = [];
  const warnings: string[] = [];
  let start = 0;
  let line = options.firstLine;
  const where = (at: number) => (line === undefined ? `${options.file} at byte ${options.offset + at}` : `${options.file}:${line}`);
  while (start < data.length) {
    let end = data.indexOf(NEWLINE, start);
    const terminated = end >= 0;
    if (!terminated) {
      if (!options.takeUnterminated) break;
      end = data.length;
    }
    if (end > start) {
      const problem = parseLine(data.toString("utf8", start, end), records);
      if (problem) warnings.push(`${where(start)}: ${terminated ? "" : "truncated last line, "}record skipped (${problem})`);
    }
    start = terminated ? end + 1 : end;
    if (line !== undefined) line++;
  }
  return { records, warnings, bytes: options.offset + start };
}

/**
 * A whole file (session/load): decoded once and split as text, which is several times faster
 * on long sessions than decoding line by line; warnings name line numbers.
 */
function parseWhole(data: Buffer, file: string, firstLine: number): JournalRead {
  const records: JournalRecord[] = [];
  const warnings: string[] = [];
  const text = data.toString("utf8");
  let start = 0;
  for (let line = firstLine; start < text.length; line++) {
    let end = text.indexOf("\n", start);
    const terminated = end >= 0;
    if (!terminated) end = text.length;
    if (end > start) {
      const problem = parseLine(text.slice(start, end), records);
      if (problem) warnings.push(`${file}:${line}: ${terminated ? "" : "truncated last line, "}record skipped (${problem})`);
    }
    start = end + 1;
  }
  return { records, warnings, bytes: data.length };
}

/** Appends the line's record to `records`, or returns what is wrong with it. */
function parseLine(text: string, records: JournalRecord[]): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `invalid JSON: ${(error as Error).message}`;
  }
  const problem = checkRecord(value);
  if (problem) return problem;
  records.push(value as JournalRecord);
  return undefined;
}

const ROLES = new Set(["system", "user", "assistant", "tool"]);

/**
 * Checks the fields the index and the replay rely on; the rest of a record is trusted as
 * written by this program. Returns undefined for a usable record.
 */
export function checkRecord(value: unknown): string | undefined {
  if (!isObject(value)) return "not an object";
  if (typeof value.at !== "number") return "no timestamp";
  switch (value.t) {
    case "meta": {
      const session = value.session;
      if (!isObject(session) || typeof session.id !== "string" || typeof session.cwd !== "string") return "meta without session id or cwd";
      if (typeof session.createdAt !== "number" || typeof session.source !== "string") return "meta without createdAt or source";
      return undefined;
    }
    case "message": {
      const message = value.message;
      if (typeof value.seq !== "number") return "message without seq";
      if (!isObject(message) || typeof message.role !== "string" || !ROLES.has(message.role)) return "message without a known role";
      if (message.role === "user" ? !Array.isArray(message.content) : typeof message.content !== "string") return "message content of the wrong shape";
      return undefined;
    }
    case "tool_call":
      return isObject(value.call) && typeof value.call.id === "string" ? undefined : "tool_call without call id";
    case "plan":
      return Array.isArray(value.todos) ? undefined : "plan without todos";
    case "update":
      return undefined;
    default:
      return `unknown record type ${JSON.stringify(value.t)}`;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
