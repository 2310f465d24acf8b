// Shared by the panel (an edit card's inline diff), the extension (per-hunk review of held
// edits) and `hermes chat` (an approval's diff in the terminal): ONE line diff, so the three
// show the same hunks for the same edit. Built on the `diff` package's Myers diff (diffArrays over
// lines we split ourselves), which stays fast on a large file with a few changed lines.
//
// Two ways to compare lines:
// - the default, for a reader: a missing final newline is not a change ("a\nb" and "a\nb\n"
//   show no difference), as the panel and the CLI always showed it;
// - `exactEol`, for applying hunks: lines are compared with their terminators, so every hunk
//   covers exactly the bytes it changes (extension/diff-hunks.ts relies on this).
// Display text never carries its "\n" or a "\r" before it.
import { diffArrays } from "diff";

export interface DiffLine {
  op: " " | "-" | "+";
  text: string;
}

/** A unified-diff hunk; an empty range is numbered by the line before it ("-0,0" for an empty old file). */
export interface DiffHunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: DiffLine[];
}

export interface LineDiffOptions {
  /** Compare lines with their terminators: adding or dropping the final newline is a change. */
  exactEol?: boolean;
}

/**
 * Past this many removed + added lines the Myers search stops and the differing middle is shown
 * as removed-then-added: two texts that far apart read no better line by line. The search's cost
 * grows with the square of the edits (about 20 ms at 500, 60 ms at 1,000 on one core here); a count of the lines one
 * side lacks (a lower bound of the edits) skips it when it cannot succeed.
 */
const MAX_EDIT_LENGTH = 500;

/** Every line of both texts, tagged kept/removed/added, in order. */
export function diffLines(oldText: string, newText: string, options: LineDiffOptions = {}): DiffLine[] {
  const a = tokenize(oldText, options.exactEol === true);
  const b = tokenize(newText, options.exactEol === true);
  // The common head and tail cost nothing to set aside, and leave the search only the middle.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const out: DiffLine[] = [];
  for (let i = 0; i < head; i++) out.push({ op: " ", text: display(a[i]!) });
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  const searchable = midA.length > 0 && midB.length > 0 && unmatchedLines(midA, midB) <= MAX_EDIT_LENGTH;
  const changes = searchable ? diffArrays(midA, midB, { maxEditLength: MAX_EDIT_LENGTH }) : undefined;
  if (changes) {
    let i = 0;
    let j = 0;
    for (const change of changes) {
      const count = change.value.length;
      if (change.added) for (let k = 0; k < count; k++) out.push({ op: "+", text: display(midB[j++]!) });
      else if (change.removed) for (let k = 0; k < count; k++) out.push({ op: "-", text: display(midA[i++]!) });
      else {
        for (let k = 0; k < count; k++) out.push({ op: " ", text: display(midA[i++]!) });
        j += count;
      }
    }
  } else {
    for (const line of midA) out.push({ op: "-", text: display(line) });
    for (const line of midB) out.push({ op: "+", text: display(line) });
  }
  for (let i = a.length - tail; i < a.length; i++) out.push({ op: " ", text: display(a[i]!) });
  return out;
}

/** Groups changes into unified-diff hunks with `context` unchanged lines around them. */
export function toHunks(lines: readonly DiffLine[], context = 3): DiffHunk[] {
  const hunks: DiffHunk[] = [];
  const changed: number[] = [];
  lines.forEach((line, i) => {
    if (line.op !== " ") changed.push(i);
  });
  if (changed.length === 0) return hunks;
  // 1-based line numbers at each index, in the old and the new text.
  const oldAt: number[] = [];
  const newAt: number[] = [];
  let o = 1;
  let n = 1;
  for (const line of lines) {
    oldAt.push(o);
    newAt.push(n);
    if (line.op !== "+") o++;
    if (line.op !== "-") n++;
  }
  const flush = (from: number, to: number) => {
    const slice = lines.slice(from, to);
    const oldLines = slice.filter((l) => l.op !== "+").length;
    const newLines = slice.filter((l) => l.op !== "-").length;
    hunks.push({
      oldStart: oldAt[from]! - (oldLines === 0 ? 1 : 0),
      oldLines,
      newStart: newAt[from]! - (newLines === 0 ? 1 : 0),
      newLines,
      lines: slice,
    });
  };
  const first = changed[0]!;
  let from = Math.max(0, first - context);
  let to = Math.min(lines.length, first + context + 1);
  for (const index of changed.slice(1)) {
    // Changes at most 2 × context unchanged lines apart share a hunk.
    if (index - context <= to) to = Math.min(lines.length, index + context + 1);
    else {
      flush(from, to);
      from = index - context;
      to = Math.min(lines.length, index + context + 1);
    }
  }
  flush(from, to);
  return hunks;
}

/** The hunks that turn `oldText` into `newText` (none when they are equal). */
export function diffHunks(oldText: string, newText: string, options: LineDiffOptions & { context?: number } = {}): DiffHunk[] {
  if (oldText === newText) return [];
  return toHunks(diffLines(oldText, newText, options), options.context);
}

export function hunkHeader(h: { oldStart: number; oldLines: number; newStart: number; newLines: number }): string {
  return `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`;
}

/** How many lines of either side have no equal on the other (counted with repeats): every one is an edit. */
function unmatchedLines(a: readonly string[], b: readonly string[]): number {
  const balance = new Map<string, number>();
  for (const line of a) balance.set(line, (balance.get(line) ?? 0) + 1);
  for (const line of b) balance.set(line, (balance.get(line) ?? 0) - 1);
  let unmatched = 0;
  for (const count of balance.values()) unmatched += Math.abs(count);
  return unmatched;
}

/** The lines of `text`: with their "\n" (exact), or without it and with no empty last line. */
function tokenize(text: string, exact: boolean): string[] {
  if (text === "") return [];
  if (exact) return text.split(/(?<=\n)/);
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

function display(line: string): string {
  let end = line.length;
  if (line.charCodeAt(end - 1) === 10) end--;
  if (line.charCodeAt(end - 1) === 13) end--;
  return end === line.length ? line : line.slice(0, end);
}
