// The hunk under the diff editor's cursor, for per-change decisions. The hunks themselves and
// applying some of them are shared with Hermes (common/review-hunks.ts), re-exported here.
import type { Hunk } from "../common/review-hunks";

export { applyHunks, computeHunks, type Hunk } from "../common/review-hunks";

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
