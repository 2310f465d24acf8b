// Tolerant parsing of journal bytes: every line that is a well-formed record (journal-schema.ts)
// is kept, every other line is skipped with a warning, so one damaged line never costs the rest.
// Bytes arrive in chunks (journal.ts reads the file piece by piece): each chunk's complete
// lines are decoded at once, which is several times faster on long sessions than decoding line
// by line, and only the unfinished last line is carried over to the next chunk.
import { isPlainRecord, journalRecordSchema, RECORD_TYPES } from "./journal-schema";
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
  /** Offset in the file of the first byte pushed. */
  offset: number;
  /** Line number of the first line when reading from the top; otherwise warnings give byte offsets. */
  firstLine?: number;
  /** Whether a final line without its newline is parsed (full reads) or left for later (incremental reads). */
  takeUnterminated: boolean;
}

/** Parses a journal's lines as its bytes are pushed in, chunk by chunk. */
export class JournalParser {
  private readonly records: JournalRecord[] = [];
  private readonly warnings: string[] = [];
  /** Bytes of the line still unfinished at the end of the chunks pushed so far. */
  private carry: Buffer[] = [];
  private carryBytes = 0;
  /** File offset of the first byte not yet consumed (the start of the carried line). */
  private consumed: number;
  private line: number | undefined;

  constructor(private readonly options: ParseOptions) {
    this.consumed = options.offset;
    this.line = options.firstLine;
  }

  push(chunk: Buffer): void {
    const last = chunk.lastIndexOf(NEWLINE);
    if (last < 0) {
      this.carry.push(chunk);
      this.carryBytes += chunk.length;
      return;
    }
    // The carried start of a line and this chunk up to its last newline: complete lines only.
    const complete = this.carry.length ? Buffer.concat([...this.carry, chunk.subarray(0, last + 1)]) : chunk.subarray(0, last + 1);
    this.lines(complete, true);
    const rest = chunk.subarray(last + 1);
    // Copied: the caller may reuse its buffer for the next chunk.
    this.carry = rest.length ? [Buffer.from(rest)] : [];
    this.carryBytes = rest.length;
  }

  /** The records and warnings; a final line without its newline is parsed only when `takeUnterminated`. */
  end(): JournalRead {
    if (this.carryBytes > 0 && this.options.takeUnterminated) this.lines(Buffer.concat(this.carry), false);
    return { records: this.records, warnings: this.warnings, bytes: this.consumed };
  }

  /** Parses `data`: lines each ending in a newline, or (`terminated` false) one final line without it. */
  private lines(data: Buffer, terminated: boolean): void {
    const text = data.toString("utf8");
    let start = 0;
    while (start < text.length) {
      let end = text.indexOf("\n", start);
      if (end < 0) end = text.length;
      if (end > start) {
        const problem = parseLine(text.slice(start, end), this.records);
        if (problem) this.warnings.push(`${this.where(text, start)}: ${terminated ? "" : "truncated last line, "}record skipped (${problem})`);
      }
      start = end + 1;
      if (this.line !== undefined) this.line++;
    }
    this.consumed += data.length;
  }

  /** The line number, or (for incremental reads) the byte offset of the line at `start` in `text`. */
  private where(text: string, start: number): string {
    if (this.line !== undefined) return `${this.options.file}:${this.line}`;
    return `${this.options.file} at byte ${this.consumed + Buffer.byteLength(text.slice(0, start))}`;
  }
}

/** Parses bytes already in memory (the whole of them, or an incremental read's new part). */
export function parseJournal(data: Buffer, options: ParseOptions): JournalRead {
  const parser = new JournalParser(options);
  parser.push(data);
  return parser.end();
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
  if (typeof problem === "string") return problem;
  records.push(problem.record);
  return undefined;
}

/** A record that matches the schema, or what is wrong with it. */
function checkRecord(value: unknown): { record: JournalRecord } | string {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "not an object";
  // The common case, a record as this version writes it, is recognised without zod (see journal-schema.ts).
  if (isPlainRecord(value)) return { record: value as JournalRecord };
  const type = (value as { t?: unknown }).t;
  if (typeof type !== "string" || !RECORD_TYPES.has(type)) return `unknown record type ${JSON.stringify(type)}`;
  const result = journalRecordSchema().safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    return issue ? `${issue.path.length ? `${issue.path.join(".")}: ` : ""}${issue.message}` : "invalid record";
  }
  // The schema's output is assignable to JournalRecord: a compile error here means the two drifted apart.
  const record: JournalRecord = result.data;
  return { record };
}

/**
 * The offset in `data` (a whole journal, as read) of the line where its last `count` records
 * begin, or undefined if there is no such line. Lines are parsed one by one from the end, as
 * a full read parses them, so the records parsed from that offset on are exactly those.
 */
export function lastRecordsStart(data: Buffer, count: number, file: string): number | undefined {
  if (count <= 0) return undefined;
  let found = 0;
  let lineEnd = data.length > 0 && data[data.length - 1] === NEWLINE ? data.length - 1 : data.length;
  while (lineEnd > 0) {
    const lineStart = data.lastIndexOf(NEWLINE, lineEnd - 1) + 1;
    found += parseJournal(data.subarray(lineStart, lineEnd), { file, offset: lineStart, takeUnterminated: true }).records.length;
    if (found === count) return lineStart;
    if (lineStart === 0) return undefined;
    lineEnd = lineStart - 1;
  }
  return undefined;
}
