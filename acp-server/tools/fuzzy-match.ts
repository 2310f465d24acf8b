// Where an edit's old text sits in a file, tolerating the drift models produce when they quote
// from memory: other line endings, trailing spaces, other indentation, collapsed whitespace.
// Levels are tried from exact to loosest, and the first level that matches anywhere decides:
// a looser level is never consulted once a stricter one has matched, and a level that matches
// in several places is ambiguous (the caller refuses it rather than guessing).

export type MatchLevel = "exact" | "line_endings" | "trailing_whitespace" | "indentation" | "whitespace";

/** How each level is described to the model (the tool's output and errors). */
export const LEVEL_TEXT: Record<MatchLevel, string> = {
  exact: "exactly",
  line_endings: "when line endings are ignored",
  trailing_whitespace: "when trailing whitespace is ignored",
  indentation: "when indentation is ignored",
  whitespace: "when all whitespace differences are ignored",
};

export interface TextMatch {
  /** Offsets in the file's text of what is replaced. */
  start: number;
  end: number;
  /** The new text adapted to the file (its line endings, and its indentation at the loose levels). */
  replacement: string;
  /** 1-based line of `start`. */
  line: number;
}

export interface MatchResult {
  level: MatchLevel;
  matches: TextMatch[];
}

interface FileLine {
  start: number;
  /** Offset of the line's end, before its line ending. */
  contentEnd: number;
  /** Offset after its line ending. */
  end: number;
  text: string;
}

export function splitLines(text: string): FileLine[] {
  const lines: FileLine[] = [];
  let start = 0;
  for (;;) {
    const newline = text.indexOf("\n", start);
    if (newline === -1) {
      lines.push({ start, contentEnd: text.length, end: text.length, text: text.slice(start) });
      return lines;
    }
    const contentEnd = newline > start && text[newline - 1] === "\r" ? newline - 1 : newline;
    lines.push({ start, contentEnd, end: newline + 1, text: text.slice(start, contentEnd) });
    start = newline + 1;
  }
}

/** The file's line ending: CRLF when most of its line breaks are, else LF. */
export function dominantEol(text: string): "\r\n" | "\n" {
  const breaks = (text.match(/\n/g) ?? []).length;
  const crlf = (text.match(/\r\n/g) ?? []).length;
  return breaks > 0 && crlf * 2 > breaks ? "\r\n" : "\n";
}

const withEol = (text: string, eol: string): string => text.replace(/\r?\n/g, eol);

/** Start offsets of the non-overlapping occurrences of `needle` at or after `from`. */
export function occurrences(text: string, needle: string, from = 0): number[] {
  const found: number[] = [];
  for (let at = text.indexOf(needle, from); at !== -1; at = text.indexOf(needle, at + needle.length)) found.push(at);
  return found;
}

export const lineAt = (text: string, index: number): number => {
  let line = 1;
  for (let at = text.indexOf("\n"); at !== -1 && at < index; at = text.indexOf("\n", at + 1)) line++;
  return line;
};

const TYPOGRAPHIC: [RegExp, string][] = [
  [/[\u2018\u2019\u201a\u201b]/g, "'"],
  [/[\u201c\u201d\u201e\u201f]/g, '"'],
  [/[\u2013\u2014\u2212]/g, "-"],
  [/\u00a0/g, " "],
];

const NORMALIZE: Record<Exclude<MatchLevel, "exact">, (line: string) => string> = {
  line_endings: (line) => line,
  trailing_whitespace: (line) => line.trimEnd(),
  indentation: (line) => line.trim(),
  whitespace: (line) => TYPOGRAPHIC.reduce((text, [pattern, plain]) => text.replace(pattern, plain), line).replace(/\s+/g, " ").trim(),
};

const LINE_LEVELS = ["line_endings", "trailing_whitespace", "indentation", "whitespace"] as const;

/** The quoted text as lines, and whether it ended with a line break. */
function quotedLines(quoted: string): { lines: string[]; endsWithBreak: boolean } {
  const lines = quoted.split(/\r?\n/);
  const endsWithBreak = lines.length > 1 && lines[lines.length - 1] === "";
  if (endsWithBreak) lines.pop();
  return { lines, endsWithBreak };
}

const leading = (line: string): string => /^[ \t]*/.exec(line)?.[0] ?? "";

/**
 * The new text in the file's indentation: each indentation the quote used is mapped to the one
 * the file has on the matching line (so spaces quoted for a tab-indented file become tabs), and
 * deeper lines keep their extra indentation on top of the nearest mapped one.
 */
function reindent(replacement: string, quoted: string[], window: string[]): string {
  const map = new Map<string, string>();
  quoted.forEach((line, index) => {
    const fileLine = window[index];
    if (line.trim() === "" || fileLine === undefined || fileLine.trim() === "") return;
    const from = leading(line);
    if (!map.has(from)) map.set(from, leading(fileLine));
  });
  if ([...map].every(([from, to]) => from === to)) return replacement;
  // Longest quoted indentation first, so a deeper line maps through its own depth when it has one.
  const known = [...map.keys()].sort((a, b) => b.length - a.length);
  return replacement
    .split("\n")
    .map((line) => {
      if (line.trim() === "") return line;
      const indent = leading(line);
      const exact = map.get(indent);
      if (exact !== undefined) return exact + line.slice(indent.length);
      const base = known.find((from) => indent.startsWith(from));
      return base === undefined ? line : (map.get(base) ?? "") + line.slice(base.length);
    })
    .join("\n");
}

function lineWindowMatches(
  text: string,
  lines: FileLine[],
  quoted: { lines: string[]; endsWithBreak: boolean },
  replacement: string,
  level: (typeof LINE_LEVELS)[number],
  from: number,
): TextMatch[] {
  const normalize = NORMALIZE[level];
  const wanted = quoted.lines.map(normalize);
  const size = wanted.length;
  const normalized = lines.map((line) => normalize(line.text));
  const eol = dominantEol(text);
  const matches: TextMatch[] = [];
  for (let first = 0; first + size <= lines.length; first++) {
    const head = lines[first];
    if (!head || head.start < from) continue;
    let same = true;
    for (let offset = 0; offset < size && same; offset++) same = normalized[first + offset] === wanted[offset];
    if (!same) continue;
    const last = lines[first + size - 1];
    if (!last) continue;
    const end = quoted.endsWithBreak ? last.end : last.contentEnd;
    const window = lines.slice(first, first + size).map((line) => line.text);
    let adapted = level === "indentation" || level === "whitespace" ? reindent(replacement.replace(/\r\n/g, "\n"), quoted.lines, window) : replacement;
    adapted = withEol(adapted, eol);
    // The file's last line has no line break: the replacement gets none either.
    if (quoted.endsWithBreak && last.end === last.contentEnd && adapted.endsWith(eol)) adapted = adapted.slice(0, -eol.length);
    matches.push({ start: head.start, end, replacement: adapted, line: first + 1 });
  }
  return matches;
}

/**
 * Every place `quoted` matches in `text` at the strictest level that matches at all (at or after
 * offset `from`), each with `replacement` adapted to the file. undefined when no level matches.
 * Exact matches may cover parts of lines; the loose levels match whole lines.
 */
export function findMatches(text: string, quoted: string, replacement: string, options: { from?: number } = {}): MatchResult | undefined {
  const from = options.from ?? 0;
  if (quoted !== "") {
    const exact = occurrences(text, quoted, from);
    if (exact.length > 0) return { level: "exact", matches: exact.map((at) => ({ start: at, end: at + quoted.length, replacement, line: lineAt(text, at) })) };
    // The same text with the file's line endings (a CRLF file quoted with \n, or the reverse).
    const eol = dominantEol(text);
    const converted = withEol(quoted, eol);
    if (converted !== quoted) {
      const found = occurrences(text, converted, from);
      if (found.length > 0) {
        const adapted = withEol(replacement, eol);
        return { level: "line_endings", matches: found.map((at) => ({ start: at, end: at + converted.length, replacement: adapted, line: lineAt(text, at) })) };
      }
    }
  }
  const quotedSplit = quotedLines(quoted);
  // A quote of blank lines only would match any run of blank lines: never loosely.
  if (quotedSplit.lines.every((line) => line.trim() === "")) return undefined;
  const lines = splitLines(text);
  for (const level of LINE_LEVELS) {
    const matches = lineWindowMatches(text, lines, quotedSplit, replacement, level, from);
    if (matches.length > 0) return { level, matches };
  }
  return undefined;
}

/** Matches that do not overlap (the first of overlapping ones wins), for replace-all. */
export function nonOverlapping(matches: TextMatch[]): TextMatch[] {
  const kept: TextMatch[] = [];
  for (const match of matches) {
    const previous = kept[kept.length - 1];
    if (!previous || match.start >= previous.end) kept.push(match);
  }
  return kept;
}

/** `text` with each match replaced (matches in order, non-overlapping). */
export function applyMatches(text: string, matches: TextMatch[]): string {
  let result = "";
  let last = 0;
  for (const match of matches) {
    result += text.slice(last, match.start) + match.replacement;
    last = match.end;
  }
  return result + text.slice(last);
}

// ---- closest candidates, for the error when nothing matches ----

function bigrams(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (let index = 0; index + 1 < text.length; index++) {
    const pair = text.slice(index, index + 2);
    counts.set(pair, (counts.get(pair) ?? 0) + 1);
  }
  return counts;
}

/** Dice similarity of two lines' character pairs: 1 for equal lines, 0 for nothing shared. */
function similarity(a: string, b: string, pairsA: Map<string, number>, pairsB: Map<string, number>): number {
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  let shared = 0;
  for (const [pair, count] of pairsA) shared += Math.min(count, pairsB.get(pair) ?? 0);
  return (2 * shared) / (a.length - 1 + (b.length - 1));
}

export interface Candidate {
  /** 1-based, inclusive. */
  firstLine: number;
  lastLine: number;
  /** 0..1 */
  score: number;
  /** The file's lines there, numbered like read_file. */
  excerpt: string;
}

const MAX_EXCERPT_LINES = 15;
/** Start positions fully scored; beyond it only the likeliest starts are. */
const EXHAUSTIVE_PAIRS = 200_000;

/** The places in `text` most like `quoted` (whitespace ignored), best first. */
export function closestCandidates(text: string, quoted: string, limit = 3): Candidate[] {
  const wanted = quotedLines(quoted).lines.map(NORMALIZE.whitespace);
  const fileLines = splitLines(text);
  const normalized = fileLines.map((line) => NORMALIZE.whitespace(line.text));
  const size = wanted.length;
  if (size === 0 || fileLines.length === 0) return [];
  const wantedPairs = wanted.map(bigrams);
  const filePairs = new Map<number, Map<string, number>>();
  const pairsOf = (index: number): Map<string, number> => {
    let pairs = filePairs.get(index);
    if (!pairs) filePairs.set(index, (pairs = bigrams(normalized[index] ?? "")));
    return pairs;
  };
  const lineScore = (fileIndex: number, quotedIndex: number): number =>
    similarity(normalized[fileIndex] ?? "", wanted[quotedIndex] ?? "", pairsOf(fileIndex), wantedPairs[quotedIndex] ?? new Map());
  const windowScore = (first: number): number => {
    let total = 0;
    for (let offset = 0; offset < size; offset++) total += first + offset < fileLines.length ? lineScore(first + offset, offset) : 0;
    return total / size;
  };

  const lastStart = Math.max(0, fileLines.length - size);
  let starts: number[];
  if (fileLines.length * size <= EXHAUSTIVE_PAIRS) {
    starts = Array.from({ length: lastStart + 1 }, (_, index) => index);
  } else {
    // Large file: score only the windows whose first or last line resembles the quote's.
    const byFirst = fileLines.map((_, index) => ({ index, score: lineScore(index, 0) })).sort((a, b) => b.score - a.score).slice(0, 20);
    const byLast = fileLines.map((_, index) => ({ index, score: lineScore(index, size - 1) })).sort((a, b) => b.score - a.score).slice(0, 20);
    starts = [...new Set([...byFirst.map((entry) => entry.index), ...byLast.map((entry) => Math.max(0, entry.index - size + 1))])].filter((start) => start <= lastStart);
  }
  const scored = starts.map((first) => ({ first, score: windowScore(first) })).sort((a, b) => b.score - a.score || a.first - b.first);
  const chosen: { first: number; score: number }[] = [];
  for (const entry of scored) {
    if (chosen.length >= limit || entry.score < 0.3) break;
    // Overlapping windows are one place.
    if (chosen.some((other) => Math.abs(other.first - entry.first) < size)) continue;
    chosen.push(entry);
  }
  return chosen.map(({ first, score }) => {
    const last = Math.min(fileLines.length, first + size) - 1;
    const shown = fileLines.slice(first, Math.min(last + 1, first + MAX_EXCERPT_LINES));
    const width = String(last + 1).length;
    const excerpt = shown.map((line, offset) => `${String(first + offset + 1).padStart(width)}|${line.text}`).join("\n");
    return { firstLine: first + 1, lastLine: last + 1, score, excerpt: last - first + 1 > MAX_EXCERPT_LINES ? `${excerpt}\n…` : excerpt };
  });
}

/** The candidates as text for an error message ("" when nothing is close). */
export function candidatesText(text: string, quoted: string): string {
  const candidates = closestCandidates(text, quoted);
  if (candidates.length === 0) return "";
  const [best, ...others] = candidates;
  if (!best) return "";
  const range = (candidate: Candidate) => (candidate.firstLine === candidate.lastLine ? `line ${candidate.firstLine}` : `lines ${candidate.firstLine}-${candidate.lastLine}`);
  const percent = (candidate: Candidate) => `${Math.round(candidate.score * 100)}% similar`;
  let message = `The closest text is at ${range(best)} (${percent(best)}):\n${best.excerpt}`;
  if (others.length > 0) message += `\nOther close places: ${others.map((candidate) => `${range(candidate)} (${percent(candidate)})`).join(", ")}.`;
  return message;
}
