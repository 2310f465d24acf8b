// The order a paged session/list handed out, kept for the pages that follow. Paging by the
// last row's (updated_at, id) alone skips a session whose updated_at grows between two pages
// (a journal write landing in the background, a turn in another window): it moves above the
// cursor, onto a page the client already has, and is on none it will fetch. So the first page
// of a listing that has more pages records the whole order (ids and their stamps, a few
// hundred KB at 10k sessions) and later pages walk it: every session listed exactly once, in
// one order, with the stamps it had when the listing began (a client sees newer ones on its
// next listing). A cursor whose snapshot is gone (evicted, another process) falls back to
// (updated_at, id).
import { randomBytes } from "node:crypto";

export interface ListSnapshot {
  /** The real cwd filter the listing was made with, undefined for none. */
  realCwd: string | undefined;
  ids: string[];
  updatedAts: number[];
}

/** Few listings page at once (one per window); the oldest goes first. */
const MAX_SNAPSHOTS = 8;
/** A listing paged through later than this starts over from (updated_at, id). */
const SNAPSHOT_TTL_MS = 10 * 60_000;

export class ListSnapshots {
  private readonly snapshots = new Map<string, ListSnapshot & { at: number }>();

  add(snapshot: ListSnapshot): string {
    const token = randomBytes(9).toString("base64url");
    this.snapshots.set(token, { ...snapshot, at: Date.now() });
    while (this.snapshots.size > MAX_SNAPSHOTS) this.snapshots.delete(this.snapshots.keys().next().value!); // size > 0
    return token;
  }

  get(token: string, realCwd: string | undefined): ListSnapshot | undefined {
    const snapshot = this.snapshots.get(token);
    if (!snapshot) return undefined;
    if (Date.now() - snapshot.at > SNAPSHOT_TTL_MS) {
      this.snapshots.delete(token);
      return undefined;
    }
    return snapshot.realCwd === realCwd ? snapshot : undefined;
  }
}
