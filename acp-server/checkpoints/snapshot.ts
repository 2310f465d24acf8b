// Takes a snapshot of the workspace as a git tree, fast. Each operation works on its own copy
// of the repository's index, so concurrent sessions never fight over one index; the copy
// carries the stat cache, so only files whose stat changed are read and hashed. One
// `ls-files` lists what changed (new, modified, deleted), the size cap filters it, one
// `update-index` stages it, one `write-tree` makes the tree. The warmed copy then replaces the
// shared index (rename: atomic; any version of it is a valid cache, last writer wins).
import { randomBytes } from "node:crypto";
import { closeSync, copyFileSync, lstatSync, openSync, readSync, renameSync, rmSync, statSync, utimesSync } from "node:fs";
import path from "node:path";
import { GitError, splitNul } from "./git";
import { addNestedRepos, readNestedRepos, type ShadowRepo } from "./shadow-repo";
import type { CheckpointLimits, NotCovered } from "./types";

export type SnapshotResult =
  | { ok: true; tree: string; notCovered: NotCovered[]; fileCount: number }
  | { ok: false; reason: string };

export interface SnapshotOptions {
  limits: CheckpointLimits;
  hermesHome: string;
}

/** Listings tried before a workspace that keeps changing under the snapshot is given up on. */
const ATTEMPTS = 3;

export async function snapshotTree(repo: ShadowRepo, options: SnapshotOptions): Promise<SnapshotResult> {
  let lastError: GitError | undefined;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    try {
      return await snapshotOnce(repo, options);
    } catch (error) {
      // A path that changed kind between the listing and the staging (a folder swapped for a
      // symlink, a file for a folder) makes update-index refuse it: listed again, it is seen as
      // it is now. Any other failure is not the workspace moving.
      if (!(error instanceof GitError) || error.args[0] !== "update-index") throw error;
      lastError = error;
    }
  }
  return { ok: false, reason: `files kept changing while the workspace was snapshotted: ${lastError?.message ?? "unknown"}` };
}

async function snapshotOnce(repo: ShadowRepo, { limits, hermesHome }: SnapshotOptions): Promise<SnapshotResult> {
  const shared = path.join(repo.dir, "index");
  const temp = path.join(repo.dir, `index-${process.pid}-${randomBytes(6).toString("hex")}`);
  try {
    copyFileSync(shared, temp);
    // git trusts an entry's cached stat only when the file is older than the index file; an
    // entry as new as the index is "racy" and its content is compared. A copy made later would
    // hide a same-second edit, so the copy keeps the original's time (a millisecond earlier:
    // the safe side).
    const { atime, mtimeMs } = statSync(shared);
    utimesSync(temp, atime, new Date(mtimeMs - 1));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const env = { GIT_INDEX_FILE: temp };
  let keep = false;
  try {
    const listing = splitNul((await repo.git.run(["ls-files", "-z", "-t", "-o", "-m", "-d", "--exclude-standard"], { env })).stdout);
    const update = new Set<string>();
    const drop = new Set<string>();
    const nested: string[] = [];
    const notCovered: NotCovered[] = [];
    const deleted = new Set<string>();
    const symlinkCache = new Map<string, boolean>();
    let added = 0;
    for (const entry of listing) {
      const tag = entry[0];
      const file = entry.slice(2);
      if (tag === "?" && file.endsWith("/")) {
        // git lists a directory holding its own repository (nested repo, submodule) as one
        // entry; adding it would record a bare gitlink. Not ours to snapshot: excluded, named.
        nested.push(file.slice(0, -1));
        continue;
      }
      const stat = statOf(path.join(repo.workspace, file));
      if (tag === "R" || (tag === "C" && (stat === undefined || stat.kind === "other" || behindSymlink(repo.workspace, file, symlinkCache)))) {
        // Gone, turned into a folder, or now reached through a symlinked folder (which git will
        // not follow): removed from the index without looking at the disk. A folder's own
        // files are listed as new entries.
        deleted.add(file);
        continue;
      }
      if (stat === undefined || stat.kind === "other") continue; // vanished since the listing
      if (stat.kind === "file" && stat.size > limits.maxFileBytes) {
        notCovered.push({ path: file, reason: "too-big", bytes: stat.size });
        if (tag !== "?") drop.add(file); // was small once: leave no stale copy in the snapshot
        continue;
      }
      if (tag === "?") added++;
      update.add(file);
    }
    // (git only notices a repository in a folder that holds nothing snapshotted yet; a folder
    // that becomes one later stays covered as plain files, its .git never included.)
    if (nested.length > 0) addNestedRepos(repo, nested, hermesHome);
    for (const entry of readNestedRepos(repo.dir)) notCovered.push({ path: entry, reason: "nested-repository" });

    const fileCount = indexEntryCount(temp) + added - deleted.size - drop.size;
    if (fileCount > limits.maxFiles) {
      return { ok: false, reason: `workspace has ${fileCount} files, over checkpoints.max_files=${limits.maxFiles}` };
    }
    for (const file of deleted) update.delete(file);
    if (deleted.size > 0) await repo.git.run(["update-index", "--force-remove", "-z", "--stdin"], { env, input: joinNul(deleted) });
    if (update.size > 0) await repo.git.run(["update-index", "--add", "--remove", "--replace", "-z", "--stdin"], { env, input: joinNul(update) });
    if (drop.size > 0) await repo.git.run(["update-index", "--force-remove", "-z", "--stdin"], { env, input: joinNul(drop) });
    const tree = (await repo.git.text(["write-tree"], { env })).trim();
    renameSync(temp, shared);
    keep = true;
    return { ok: true, tree, notCovered, fileCount };
  } finally {
    if (!keep) rmSync(temp, { force: true });
  }
}

function joinNul(paths: Iterable<string>): string {
  let text = "";
  for (const entry of paths) text += `${entry}\0`;
  return text;
}

/** Whether a parent folder of `relative` is a symlink (memoized per folder). */
function behindSymlink(root: string, relative: string, cache: Map<string, boolean>): boolean {
  const segments = relative.split("/");
  let folder = "";
  for (const segment of segments.slice(0, -1)) {
    folder = folder ? `${folder}/${segment}` : segment;
    let linked = cache.get(folder);
    if (linked === undefined) {
      try {
        linked = lstatSync(path.join(root, folder)).isSymbolicLink();
      } catch {
        // expected: a folder that cannot be lstat'ed (gone meanwhile) is not a link
        linked = false;
      }
      cache.set(folder, linked);
    }
    if (linked) return true;
  }
  return false;
}

function statOf(absolute: string): { kind: "file" | "link" | "other"; size: number } | undefined {
  try {
    const stat = lstatSync(absolute);
    return { kind: stat.isFile() ? "file" : stat.isSymbolicLink() ? "link" : "other", size: stat.size };
  } catch {
    // expected: a file gone between listing and stat is left out of the snapshot
    return undefined;
  }
}

/** The number of entries in a git index file (its header), 0 when there is none. */
function indexEntryCount(file: string): number {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    // expected: ENOENT, no git index yet: it has 0 entries
    return 0;
  }
  try {
    const header = Buffer.alloc(12);
    if (readSync(fd, header, 0, 12, 0) < 12 || header.toString("latin1", 0, 4) !== "DIRC") return 0;
    return header.readUInt32BE(8);
  } finally {
    closeSync(fd);
  }
}
