// Hunks between a file's current text and the agent's proposed text, and the text that results
// from accepting only some of them. Pure (no vscode) so per-hunk review is unit-tested.
//
// Applying works on line ranges, not on the hunk's printed lines: each accepted hunk takes its
// lines from the new text (terminators included), everything else stays as in the old text.
// That keeps CRLF, a missing final newline and untouched lines byte-for-byte. The diff itself is
// the shared one (common/line-diff.ts), comparing lines with their terminators.
import { diffHunks } from "../common/line-diff";
import type { ReviewHunk } from "../common/panel-state/types";

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

/**
 * The hunk a line of the diff editor belongs to (1-based `line`; `side`: the old text on the left,
 * the proposal on the right), for "accept / reject this change" at the cursor. A line in a
 * hunk's context counts as that hunk; a line between hunks belongs to none.
 */
export function hunkAtLine(hunks: readonly Hunk[], line: number, side: "old" | "new"): number | undefined {
  const at = hunks.findIndex((hunk) => {
    const start = side === "old" ? hunk.oldStart : hunk.newStart;
    const count = side === "old" ? hunk.oldLines : hunk.newLines;
    // An empty range (a pure insertion or deletion) sits just after line `start`.
    return count === 0 ? line === start || line === start + 1 : line >= start && line < start + count;
  });
  return at === -1 ? undefined : at;
}
