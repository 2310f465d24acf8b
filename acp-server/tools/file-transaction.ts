// Several file changes applied as one: every file gets its new content or none does, also when
// the process dies half-way. New contents are staged as sibling temp files (same file system,
// so a rename is atomic), the originals are kept as hard-linked backups, and a manifest in
// $HERMES_HOME/patch-transactions lists them all before the first rename. A failure rolls the
// renamed files back at once; a crash leaves the manifest, and the next recovery (the next
// apply_patch, or a new process) rolls back what it finds, unless the user has touched a file
// since, which is then left alone. Every file is reached through its folder held open without
// following links (util/no-follow-io.ts): a folder or file swapped for a symlink meanwhile makes
// the transaction fail and roll back, it never redirects a temp file, backup or rename.
import { createHash, randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { constants, lstatSync } from "node:fs";
import { copyFile, link, mkdir, open, readFile, rename, rm, rmdir, stat, unlink } from "node:fs/promises";
import path from "node:path";
import { hermesHome } from "../config/paths";
import { writeFileAtomicSync } from "../util/atomic-write";
import { createLogger } from "../util/log";
import { HeldFolder, PathMovedError, type PinnedTarget } from "../util/no-follow-io";
import { checkStillPinned, pinTarget } from "./pinned-target";
import { ownStartIdentity, sameProcessAlive } from "../util/process-alive";

const log = createLogger("file-transaction");

/** One file's new content; null deletes it. */
export interface FileChange {
  path: string;
  content: string | null;
  /** The real file the approval was about (tools/pinned-target.ts); without it, the path is resolved now. */
  pin?: PinnedTarget;
}

interface ManifestEntry {
  target: string;
  /** The staged new content (absent for a delete). */
  temp?: string;
  /** A hard link (or copy) of the original (absent when the file did not exist). */
  backup?: string;
  /** sha256 of the new content, to tell our write from a later edit by the user ("" for a delete). */
  sha: string;
  /** Folders this transaction created for new files, deepest first (removed on rollback when empty). */
  createdDirs: string[];
}

interface Manifest {
  pid: number;
  start?: string;
  committed: boolean;
  entries: ManifestEntry[];
}

export function transactionsDir(home: string = hermesHome()): string {
  return path.join(home, "patch-transactions");
}

const sha = (text: string): string => createHash("sha256").update(text).digest("hex");

async function fsyncFile(file: string): Promise<void> {
  const handle = await open(file, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Folders `mkdir -p` would create for `folder`, deepest first. */
async function missingFolders(folder: string): Promise<string[]> {
  const missing: string[] = [];
  for (let current = folder; !existsSync(current); current = path.dirname(current)) {
    missing.push(current);
    if (path.dirname(current) === current) break;
  }
  return missing;
}

/**
 * Applies all `changes` or none. Throws (with every file as it was) when any step before the
 * commit fails; the error says which file and why.
 */
export async function commitFileChanges(changes: FileChange[], home: string = hermesHome()): Promise<void> {
  const id = `${process.pid}-${Date.now()}-${randomBytes(4).toString("hex")}`;
  const dir = transactionsDir(home);
  const manifestPath = path.join(dir, `${id}.json`);
  const entries: ManifestEntry[] = [];
  const manifest: Manifest = { pid: process.pid, ...(ownStartIdentity() ? { start: ownStartIdentity() } : {}), committed: false, entries };
  let manifestWritten = false;
  // Each target's folder, held open for the whole transaction; `via` names a file through it.
  const held = new Map<string, HeldFolder>();
  const via = (file: string): string => held.get(path.dirname(file))?.child(path.basename(file)) ?? file;
  try {
    // 1. Stage every new content next to its target.
    for (const change of changes) {
      if (change.pin) checkStillPinned(change.path, change.pin);
      const pin = change.pin ?? pinTarget(change.path);
      const target = pin.real;
      const missing = change.content !== null ? await missingFolders(path.dirname(target)) : [];
      if (!held.has(path.dirname(target))) held.set(path.dirname(target), HeldFolder.open(path.dirname(target), change.content !== null));
      const info = lstatSync(via(target), { throwIfNoEntry: false });
      if (info?.isSymbolicLink()) throw new PathMovedError(target, "it is now a symlink");
      if (info?.isFile() && info.nlink > 1 && !pin.linked) throw new PathMovedError(target, "it gained another hard link");
      if (info?.isDirectory()) throw new Error(`${change.path} is a directory`);
      const entry: ManifestEntry = { target, sha: change.content === null ? "" : sha(change.content), createdDirs: missing };
      entries.push(entry);
      const stem = path.join(path.dirname(target), `.${path.basename(target)}.hermes-tx-${id}`);
      if (change.content !== null) {
        entry.temp = `${stem}.tmp`;
        // O_EXCL|O_NOFOLLOW in the held folder: the temp file is created there or not at all.
        const handle = await open(via(entry.temp), constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o666);
        try {
          await handle.writeFile(change.content, "utf8");
          if (info) await handle.chmod(info.mode & 0o7777);
          await handle.sync();
        } finally {
          await handle.close();
        }
      }
      if (info) entry.backup = `${stem}.bak`;
    }
    // 2. The manifest, before anything visible changes.
    await mkdir(dir, { recursive: true });
    writeFileAtomicSync(manifestPath, JSON.stringify(manifest));
    manifestWritten = true;
    // 3. Backups of the originals (a hard link costs no copy; link(2) does not follow a symlink).
    for (const entry of entries) {
      if (entry.backup) await link(via(entry.target), via(entry.backup)).catch(() => copyFile(via(entry.target), via(entry.backup as string), constants.COPYFILE_EXCL)); // expected: no hard link across devices or on some file systems (EXDEV, EPERM): the backup is copied instead, and a copy failure rejects
    }
    // 4. The switch, each rename and unlink relative to the held folder.
    for (const entry of entries) {
      if (entry.temp) await rename(via(entry.temp), via(entry.target));
      else await unlink(via(entry.target));
    }
  } catch (error) {
    await rollBack(entries, false, via);
    if (manifestWritten) await unlink(manifestPath).catch(() => {}); // expected: the rollback already ran; a manifest left behind is cleaned up by the next recovery
    for (const folder of held.values()) folder.close();
    throw error;
  }
  // Committed: from here a crash keeps the new contents (recovery only cleans up).
  manifest.committed = true;
  writeFileAtomicSync(manifestPath, JSON.stringify(manifest));
  for (const entry of entries) if (entry.backup) await unlink(via(entry.backup)).catch(() => {}); // expected: committed: a backup left behind only costs space and is swept by the next recovery
  await unlink(manifestPath).catch(() => {}); // expected: committed: a manifest left behind is marked committed, and recovery only cleans it up
  for (const entry of entries) if (entry.temp) await fsyncFile(path.dirname(entry.target)).catch(() => {}); // expected: the new contents are renamed in place; a folder that cannot be fsync'ed only risks the rename on a power loss
  for (const folder of held.values()) folder.close();
}

/** Puts every entry's original back (a best effort per file: one failure does not stop the others). */
async function rollBack(entries: ManifestEntry[], onlyIfOurs = false, via: (file: string) => string = (file) => file): Promise<string[]> {
  const left: string[] = [];
  for (const entry of entries) {
    try {
      if (onlyIfOurs && !(await stillOurs(entry))) {
        left.push(entry.target);
        if (entry.backup) await unlink(entry.backup).catch(() => {}); // expected: best-effort cleanup of our own backup file; a failed rollback is logged below
        if (entry.temp) await unlink(entry.temp).catch(() => {}); // expected: best-effort cleanup of our own temp file, which may not exist
        continue;
      }
      if (entry.backup && existsSync(via(entry.backup))) await restoreBackup(via(entry.backup), via(entry.target));
      else if (!entry.backup && entry.temp && !existsSync(via(entry.temp))) await rm(via(entry.target), { force: true });
      if (entry.temp) await unlink(via(entry.temp)).catch(() => {}); // expected: best-effort cleanup of our own temp file, which may not exist
      for (const folder of entry.createdDirs) await rmdir(folder).catch(() => {}); // expected: ENOTEMPTY or gone: a folder we created that now holds other files stays
    } catch (error) {
      log.warn("could not roll back a file", { file: entry.target, error });
      left.push(entry.target);
    }
  }
  return left;
}

/** The original back in place. rename(2) of two links to one file does nothing, so that case unlinks the backup. */
async function restoreBackup(backup: string, target: string): Promise<void> {
  const [original, current] = await Promise.all([stat(backup), stat(target).catch(() => undefined)]); // expected: ENOENT: the target was removed, the backup is renamed back
  if (current && current.ino === original.ino && current.dev === original.dev) await unlink(backup);
  else await rename(backup, target);
}

/**
 * Whether the target is as the transaction left it (original, or our new content, or deleted by
 * us): otherwise the user changed it after the crash, and recovery must not undo their work.
 */
async function stillOurs(entry: ManifestEntry): Promise<boolean> {
  const current = await readFile(entry.target, "utf8").catch(() => null); // expected: ENOENT: a target that is gone is judged by the line below
  if (current === null) return entry.sha === "" || !entry.backup || !existsSync(entry.target);
  if (entry.sha !== "" && sha(current) === entry.sha) return true;
  if (entry.backup && existsSync(entry.backup)) {
    const original = await readFile(entry.backup, "utf8").catch(() => null); // expected: a backup that cannot be read matches nothing: the file is not ours to roll back
    return original === current;
  }
  return false;
}

/**
 * Finishes transactions that a dead process left: rolls back uncommitted ones (files the user
 * changed since are kept as they are), cleans up committed ones. Returns the files rolled back.
 */
export async function recoverFileTransactions(home: string = hermesHome()): Promise<string[]> {
  const dir = transactionsDir(home);
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith(".json"));
  } catch (error) {
    // ENOENT: no transaction was ever started here. Otherwise interrupted patches stay unrecovered: logged.
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") log.warn("cannot read the patch transactions folder; interrupted patches are not recovered", { dir, error });
    return [];
  }
  const restored: string[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    let manifest: Manifest;
    try {
      manifest = JSON.parse(readFileSync(file, "utf8")) as Manifest;
      if (!Array.isArray(manifest.entries) || typeof manifest.pid !== "number") throw new Error("not a transaction manifest");
    } catch (error) {
      log.warn("unreadable patch transaction left as it is", { file, error });
      continue;
    }
    if (manifest.pid === process.pid || sameProcessAlive(manifest.pid, manifest.start)) continue; // in flight
    if (manifest.committed) {
      for (const entry of manifest.entries) {
        if (entry.backup) await unlink(entry.backup).catch(() => {}); // expected: committed: best-effort cleanup of our own backup file, which may already be gone
        if (entry.temp) await unlink(entry.temp).catch(() => {}); // expected: committed: best-effort cleanup of our own temp file, which may already be gone
      }
    } else {
      const kept = await rollBack(manifest.entries, true);
      if (kept.length > 0) log.warn("an interrupted patch was rolled back except files changed since", { kept });
      restored.push(...manifest.entries.map((entry) => entry.target).filter((target) => !kept.includes(target)));
      log.info("an interrupted multi-file patch was rolled back", { files: manifest.entries.length });
    }
    await unlink(file).catch(() => {}); // expected: a manifest that cannot be removed is handled again by the next recovery, which finds the same state
  }
  return restored;
}
