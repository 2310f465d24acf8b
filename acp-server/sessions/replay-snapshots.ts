// The sessions' cached replays (replay-snapshot.ts holds the file format and its checks): where
// each lives, and the writes still to come. A write waits until the request that built the
// frames has been answered, or runs on exit if the process ends first (an editor closing right
// after a load): it is synchronous and quick. A failed write only costs the next load its shortcut.
import type { Logger } from "../util/log";
import { readReplaySnapshot, removeReplaySnapshot, replaySnapshotPath, writeReplaySnapshot, type ReplaySnapshot } from "./replay-snapshot";

export class ReplaySnapshots {
  private readonly writes = new Set<Promise<void>>();
  /** Writes not done yet, each run once: at its moment or, if the process exits first, on exit. */
  private readonly pending = new Set<() => void>();
  private readonly writePending = () => {
    for (const run of [...this.pending]) run();
  };

  constructor(
    private readonly home: string,
    private readonly log: Logger,
  ) {}

  /** Where the session's cached replay lives. */
  file(id: string): string {
    return replaySnapshotPath(this.home, id);
  }

  /** The session's cached replay, if it is valid for `journal` (its bytes as just read) and `code`. */
  read(id: string, code: string, journal: Buffer): Promise<ReplaySnapshot | undefined> {
    return readReplaySnapshot(this.file(id), id, code, journal);
  }

  /** Caches the frames of a replay of the journal's first `covered` bytes once `when` resolves. */
  save(id: string, code: string, journal: Buffer, covered: number, state: unknown, frames: (string | Buffer)[], when: Promise<unknown>): void {
    const file = this.file(id);
    const run = () => {
      if (!this.pending.delete(run)) return; // written already
      if (this.pending.size === 0) process.off("exit", this.writePending);
      try {
        writeReplaySnapshot(file, id, code, journal, covered, state, frames);
      } catch (error) {
        this.log.warn("could not cache the session's replay", { sessionId: id, error });
      }
    };
    if (this.pending.size === 0) process.on("exit", this.writePending);
    this.pending.add(run);
    const write: Promise<void> = when
      .catch(() => undefined) // expected: only orders the writes; the earlier write logged its own failure
      .then(run)
      .finally(() => this.writes.delete(write));
    this.writes.add(write);
  }

  /** Resolves once every write queued so far is done (or failed). */
  async written(): Promise<void> {
    await Promise.all(this.writes);
  }

  /** Removes the session's cache, after any write of it under way (which would bring it back). */
  async remove(id: string): Promise<void> {
    await this.written();
    await removeReplaySnapshot(this.file(id));
  }
}
