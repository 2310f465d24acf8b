// Hunks between a file's text and a proposed text, and the text that results from accepting
// only some of them. Shared by the extension's per-hunk review (edits, a worktree chat's
// changes) and Hermes, which applies a worktree chat's accepted hunks by their index: both sides
// must cut the same hunks from the same texts. Pure.
//
// Applying works on line ranges, not on the hunk's printed lines: each accepted hunk takes its
// lines from the new text (terminators included), everything else stays as in the old text.
// That keeps CRLF, a missing final newline and untouched lines byte-for-byte. The diff itself is
// the shared one (common/line-diff.ts), comparing lines with their terminators.
import { diffHunks } from "./line-diff";
import type { ReviewHunk } from "./panel-state/types";

export type Hunk = Omit<ReviewHunk, "decision">;

const CONTEXT_LINES = 3;

/** The hunks that turn `oldText` into `newText` (none when they are equal). */
export function computeHunks(oldText: string, newText: string): Hunk[] {
  return diffHunks(oldText, newText, { exactEol: true, context: CONTEXT_LINES });
}

/** `oldText` with only the hunks at `accepted` (indexes into `hunks`) applied. */
export function applyHunks(oldText: string, newText: string, hunks: readonly Hunk[], accepted: Iterable<number>): string {
  const take = new Set(accepted);
  if (hunks.length > 0 && hunks.every((_, i) => take.has(i))) return newText;
  const oldLines = splitLines(oldText);
  const newLines = splitLines(newText);
  const out: string[] = [];
  let oldAt = 0;
  hunks.forEach((hunk, i) => {
    const start = rangeStart(hunk.oldStart, hunk.oldLines);
    out.push(...oldLines.slice(oldAt, start));
    if (take.has(i)) {
      const newFrom = rangeStart(hunk.newStart, hunk.newLines);
      out.push(...newLines.slice(newFrom, newFrom + hunk.newLines));
    } else {
      out.push(...oldLines.slice(start, start + hunk.oldLines));
    }
    oldAt = start + hunk.oldLines;
  });
  out.push(...oldLines.slice(oldAt));
  return out.join("");
}

/** Lines with their terminators kept, so joining them gives the text back exactly. */
function splitLines(text: string): string[] {
  return text === "" ? [] : text.split(/(?<=\n)/);
}

/** 0-based index of a range; unified diffs number an empty range by the line before it. */
function rangeStart(start: number, count: number): number {
  return count === 0 ? start : start - 1;
}
