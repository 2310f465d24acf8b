// Files the agent read or edited, with their size and modification time when it last did.
// At the start of a turn the loop asks which of them changed since (the user edited them, a
// formatter ran, a branch was switched), and says so in the ephemeral layer.
import { statSync } from "node:fs";

/** Most files remembered; the oldest are forgotten first. */
const MAX_FILES = 200;
const MISSING = "missing";

export class SeenFiles {
  private readonly stamps = new Map<string, string>();

  /** The files as they are now (call after the agent read or wrote them). */
  remember(paths: Iterable<string>): void {
    for (const file of paths) {
      this.stamps.delete(file);
      this.stamps.set(file, stampOf(file));
      if (this.stamps.size > MAX_FILES) this.stamps.delete(this.stamps.keys().next().value as string);
    }
  }

  /** Files that changed (or disappeared) since they were remembered; each change is reported once. */
  takeChanged(): string[] {
    const changed: string[] = [];
    for (const [file, stamp] of this.stamps) {
      const now = stampOf(file);
      if (now === stamp) continue;
      changed.push(file);
      this.stamps.set(file, now);
    }
    return changed;
  }
}

function stampOf(file: string): string {
  try {
    const stat = statSync(file);
    return `${stat.mtimeMs}:${stat.size}`;
  } catch {
    // expected: a file that cannot be stat'ed (removed) is stamped MISSING, so its next appearance counts as a change
    return MISSING;
  }
}
