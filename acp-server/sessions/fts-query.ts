// Free text → FTS4 MATCH expressions, and the ranking function. User queries are never
// passed to FTS as syntax: every word group becomes a quoted phrase, so input like
// `foo"bar`, `AND OR (` or `-x` cannot make MATCH throw or mean something unintended.

/** Terms beyond this are ignored: a pasted paragraph should not become a 500-phrase query. */
const MAX_TERMS = 16;

export interface MatchQueries {
  /** Every term must match (tried first). */
  all: string;
  /** Any term may match (the fallback when `all` finds nothing and there are several terms). */
  any?: string;
}

/**
 * "double quoted" text stays one phrase; other whitespace-separated chunks are one phrase
 * each (`foo-bar` → "foo bar", as the tokenizer would split it); a trailing * asks for a
 * prefix match. Returns undefined when nothing searchable is left.
 */
export function toMatchQueries(input: string): MatchQueries | undefined {
  const phrases: string[] = [];
  for (const match of input.matchAll(/"([^"]*)"?|(\S+)/g)) {
    const raw = match[1] ?? match[2] ?? "";
    const words = raw.match(/[\p{L}\p{N}]+/gu);
    if (!words) continue;
    const prefix = match[2] !== undefined && raw.endsWith("*");
    phrases.push(`"${words.join(" ")}${prefix ? "*" : ""}"`);
    if (phrases.length === MAX_TERMS) break;
  }
  if (phrases.length === 0) return undefined;
  return { all: phrases.join(" "), any: phrases.length > 1 ? phrases.join(" OR ") : undefined };
}

/** A fallback for when the tokenizer or SQLite disagrees with the above: plain words, quoted one by one. */
export function plainWordsQuery(input: string): string | undefined {
  const words = input.match(/[\p{L}\p{N}]+/gu);
  return words ? words.slice(0, MAX_TERMS).map((word) => `"${word}"`).join(" OR ") : undefined;
}

/**
 * matchinfo() format the rank function reads. Not "l" (this row's length): FTS4 reads it
 * from a separate table for every row, which doubled the cost of common-word searches; the
 * messages table keeps each text's word count instead.
 */
export const MATCHINFO_FORMAT = "pcnax";

const K1 = 1.2;
const B = 0.75;

/**
 * Okapi BM25 from FTS4's matchinfo('pcnax') blob (32-bit native-endian integers: phrases,
 * columns, rows, average tokens per column, then per phrase and column: hits in this row,
 * hits in all rows, rows with hits) and the row's length in tokens. Higher is better.
 */
export function bm25(blob: Uint8Array, length: number): number {
  // sql.js hands blobs over as fresh copies (offset 0), so a 32-bit view is aligned.
  const ints = blob.byteOffset % 4 === 0 ? new Uint32Array(blob.buffer, blob.byteOffset, blob.byteLength >> 2) : new Uint32Array(blob.slice().buffer);
  // A short blob (never from SQLite's own matchinfo) scores nothing rather than NaN.
  const [phrases = 0, columns = 0, rows = 0] = ints;
  let score = 0;
  for (let column = 0; column < columns; column++) {
    const average = ints[3 + column] || 1;
    const norm = K1 * (1 - B + (B * length) / average);
    for (let phrase = 0; phrase < phrases; phrase++) {
      const base = 3 + columns + 3 * (phrase * columns + column);
      const hits = ints[base] ?? 0;
      if (hits === 0) continue;
      const withHits = ints[base + 2] ?? 0;
      // The "+ 1" form of idf stays positive for terms in most rows.
      const idf = Math.log(1 + (rows - withHits + 0.5) / (withHits + 0.5));
      score += (idf * hits * (K1 + 1)) / (hits + norm);
    }
  }
  return score;
}

/** A session's score from its best message and how many of its messages matched. */
export function sessionScore(best: number, matches: number): number {
  return best * (1 + 0.2 * Math.log(Math.max(1, matches)));
}
