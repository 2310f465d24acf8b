// Comparing approval scopes (what approval-scope.ts builds from a parsed line) with each other.
// Kept apart from the scope builder on purpose: the session and the saved rules only compare
// scopes, and importing the builder would load the whole command screen and shell parser into
// every session/new, long before a command runs (bench:first-session).
import path from "node:path";

/** What one approval of a command line covers. */
export interface CommandScope {
  /** The absolute folder the line runs in: relative paths in `commands` mean files there. */
  folder: string;
  /** The source text of each command the approval is about, in the line's order, without repeats. */
  commands: string[];
  /** The screen's rule keys of the approved line (a later line must not add one). */
  keys: string[];
}

/** Whether an approval `approved` covers a later line with scope `later` (see approval-scope.ts's header). */
export function scopeCovers(approved: CommandScope, later: CommandScope): boolean {
  if (path.resolve(approved.folder) !== path.resolve(later.folder)) return false;
  const commands = new Set(approved.commands);
  const keys = new Set(approved.keys);
  return later.commands.length > 0 && later.commands.every((text) => commands.has(text)) && later.keys.every((key) => keys.has(key));
}

/** A rejection of `rejected` holds for a later line that contains any of its commands, in the same folder. */
export function scopeOverlaps(rejected: CommandScope, later: CommandScope): boolean {
  return path.resolve(rejected.folder) === path.resolve(later.folder) && later.commands.some((text) => rejected.commands.includes(text));
}
