// The intent journal of a restore: which files become what, written and fsynced (with its
// folder) before the first file is touched, removed only when every file is done. Its
// presence at start-up means a restore was interrupted. Created with link(2), so two
// restores of one workspace can never both own it.
import { closeSync, fsyncSync, linkSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import path from "node:path";
import { processAlive } from "../util/process-alive";
import type { RestoreOp } from "./types";

const JOURNAL_FILE = "hermes-restore.json";

export interface RestoreJournal {
  version: 1;
  id: string;
  pid: number;
  startedAt: number;
  sessionId: string;
  backupCommit: string;
  targetCommit: string;
  ops: RestoreOp[];
}

export function journalPath(repoDir: string): string {
  return path.join(repoDir, JOURNAL_FILE);
}

/** Writes the journal durably; throws EEXIST when a restore already owns it. */
export function writeJournal(repoDir: string, journal: RestoreJournal): void {
  const target = journalPath(repoDir);
  const temp = `${target}.${journal.id}.tmp`;
  const fd = openSync(temp, "w", 0o600);
  try {
    writeSync(fd, JSON.stringify(journal));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(temp, target);
  } finally {
    rmSync(temp, { force: true });
  }
  syncDir(repoDir);
}

export function readJournal(repoDir: string): RestoreJournal | undefined {
  let text: string;
  try {
    text = readFileSync(journalPath(repoDir), "utf8");
  } catch (error) {
    // ENOENT: no restore in progress. A journal that is there but cannot be read must not pass for "none".
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new Error(`unreadable restore journal ${journalPath(repoDir)}: ${(error as Error).message}`, { cause: error });
  }
  try {
    const parsed = JSON.parse(text) as RestoreJournal;
    if (parsed.version === 1 && Array.isArray(parsed.ops) && typeof parsed.id === "string") return parsed;
  } catch {
    // expected: a journal is linked in only after it was written and synced, so a torn one is not ours: reported just below
  }
  throw new Error(`unreadable restore journal ${journalPath(repoDir)}; move it away to continue`);
}

/** Marks the restore done. */
export function removeJournal(repoDir: string): void {
  rmSync(journalPath(repoDir), { force: true });
  syncDir(repoDir);
}

function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, "r");
    fsyncSync(fd);
  } catch {
    // expected: some file systems refuse fsync on a folder; the rename is still atomic
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Whether the process that wrote the journal is still running (then it is not ours to recover). */
export function ownerAlive(journal: RestoreJournal): boolean {
  return journal.pid !== process.pid && processAlive(journal.pid);
}
