// Applies a restore's ops to the disk, file by file. Each op is idempotent ("make this path
// hold blob X with mode M, or be absent"), and is only carried out when the path still holds
// what the restore expects to replace (or already holds the target): a file that holds
// neither was changed by someone else and is left alone. The same code finishes a journal
// after a crash. Writes go to a temporary sibling, then rename over the file.
import { randomBytes } from "node:crypto";
import { chmodSync, closeSync, fsyncSync, lstatSync, mkdirSync, openSync, readdirSync, renameSync, rmdirSync, rmSync, symlinkSync, unlinkSync, writeSync } from "node:fs";
import path from "node:path";
import { diskState, sameState } from "./blob-hash";
import type { Git } from "./git";
import { guardedPath } from "./path-guard";
import { withHeldParent } from "../util/no-follow-io";
import type { RestoreOp } from "./types";

export interface ApplyOutcome {
  applied: string[];
  /** Already in the target state. */
  unchanged: string[];
  /** Held neither the expected nor the target content: not touched. */
  leftAlone: string[];
  failed: { path: string; error: string }[];
}

export interface ApplyContext {
  /** The contents of these blobs, by id (gitBlobReader: from a repository); a missing one fails its op. */
  readBlobs: (oids: string[]) => Promise<Map<string, Buffer>>;
  realRoot: string;
  nestedRepos: readonly string[];
  onApplied?: (done: number, total: number) => void | Promise<void>;
}

/** Deletions first (a file may give way to a folder), then writes; emptied folders last. */
export async function applyOps(ops: readonly RestoreOp[], context: ApplyContext): Promise<ApplyOutcome> {
  const outcome: ApplyOutcome = { applied: [], unchanged: [], leftAlone: [], failed: [] };
  const ordered = [...ops.filter((op) => !op.target), ...ops.filter((op) => op.target)];
  const blobs = await context.readBlobs(ordered.flatMap((op) => (op.target && op.target.mode !== "160000" ? [op.target.oid] : [])));
  let done = 0;
  for (const op of ordered) {
    try {
      applyOne(op, context, blobs, outcome);
    } catch (error) {
      outcome.failed.push({ path: op.path, error: (error as Error).message });
    }
    done++;
    await context.onApplied?.(done, ordered.length);
  }
  removeEmptiedFolders(ops, context.realRoot);
  return outcome;
}

function applyOne(op: RestoreOp, context: ApplyContext, blobs: Map<string, Buffer>, outcome: ApplyOutcome): void {
  const guarded = guardedPath(context.realRoot, op.path, context.nestedRepos);
  if ("reason" in guarded) {
    outcome.failed.push({ path: op.path, error: `refused: ${guarded.reason}` });
    return;
  }
  // The parent folder is held open without following links (util/no-follow-io.ts), and the file is
  // named through it: a folder swapped for a symlink after the guard's check fails this op (ELOOP),
  // it never redirects the write, the temp file or the delete.
  let parentMissing = false;
  try {
    withHeldParent(guarded.path, op.target !== undefined, (folder, name) => applyInFolder(op, folder.child(name), blobs, outcome));
  } catch (error) {
    if (op.target || (error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    parentMissing = true; // expected: a delete whose folder is already gone: the file is absent, as the restore wants
  }
  if (parentMissing) outcome.unchanged.push(op.path);
}

/** One op on `file`, a name inside the held parent folder. */
function applyInFolder(op: RestoreOp, file: string, blobs: Map<string, Buffer>, outcome: ApplyOutcome): void {
  let state = diskState(file);
  if (state.kind === "other" && op.target && removeIfEmptyFolder(file)) state = { kind: "absent" }; // a file replaces a folder this restore emptied
  if (sameState(state, op.target)) {
    outcome.unchanged.push(op.path);
    return;
  }
  if (!sameState(state, op.before)) {
    outcome.leftAlone.push(op.path);
    return;
  }
  if (!op.target) {
    unlinkSync(file);
  } else {
    const content = blobs.get(op.target.oid);
    if (content === undefined) throw new Error(`blob ${op.target.oid} is missing from the checkpoint repository`);
    writeEntry(file, content, op.target.mode);
  }
  outcome.applied.push(op.path);
}

function writeEntry(file: string, content: Buffer, mode: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temp = path.join(path.dirname(file), `${tempPrefix(file)}${randomBytes(4).toString("hex")}`);
  try {
    if (mode === "120000") {
      symlinkSync(content.toString("utf8"), temp);
    } else {
      const executable = mode === "100755";
      // Created with 666/777 so the umask decides, as git's checkout does; an existing file
      // keeps its permission bits apart from the executable ones.
      const fd = openSync(temp, "wx", executable ? 0o777 : 0o666);
      try {
        writeSync(fd, content);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      const existing = existingMode(file);
      if (existing !== undefined) chmodSync(temp, executable ? existing | ((existing & 0o444) >> 2) : existing & ~0o111);
    }
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/** The name prefix of a restore's temporary sibling of `file`. */
function tempPrefix(file: string): string {
  return `.${path.basename(file).slice(0, 100)}.hermes-restore-`;
}

/** Temporary siblings a killed restore may have left next to the journaled files. */
export function removeRestoreLeftovers(ops: readonly RestoreOp[], realRoot: string): void {
  const byFolder = new Map<string, string[]>();
  for (const op of ops) {
    if (!op.target) continue;
    const file = path.join(realRoot, ...op.path.split("/"));
    const prefixes = byFolder.get(path.dirname(file)) ?? [];
    prefixes.push(tempPrefix(file));
    byFolder.set(path.dirname(file), prefixes);
  }
  for (const [folder, prefixes] of byFolder) {
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch {
      // expected: a folder that is gone (or unreadable) holds no temp files of ours to sweep
      continue;
    }
    for (const name of names) {
      if (prefixes.some((prefix) => name.startsWith(prefix) && /^[0-9a-f]{8}$/.test(name.slice(prefix.length)))) rmSync(path.join(folder, name), { force: true });
    }
  }
}

function removeIfEmptyFolder(absolute: string): boolean {
  try {
    if (!lstatSync(absolute).isDirectory() || readdirSync(absolute).length > 0) return false;
    rmdirSync(absolute);
    return true;
  } catch {
    // expected: missing, not empty or not removable: the folder stays, which is what "false" tells the caller
    return false;
  }
}

function existingMode(file: string): number | undefined {
  try {
    const stat = lstatSync(file);
    return stat.isFile() ? stat.mode & 0o7777 : undefined;
  } catch {
    // expected: a path that is gone or not a file has no mode to keep
    return undefined;
  }
}

/** Folders left empty by deleted files go too (git tracks no empty folders; see docs/checkpoints.md). */
function removeEmptiedFolders(ops: readonly RestoreOp[], realRoot: string): void {
  const candidates = new Set<string>();
  for (const op of ops) {
    if (op.target) continue;
    const segments = op.path.split("/");
    for (let depth = segments.length - 1; depth > 0; depth--) candidates.add(segments.slice(0, depth).join("/"));
  }
  // Deepest first, so a parent is tried after its children.
  for (const folder of [...candidates].sort((a, b) => b.split("/").length - a.split("/").length)) {
    removeIfEmptyFolder(path.join(realRoot, ...folder.split("/")));
  }
}

/** Reads blobs from `git`'s repository (ApplyContext.readBlobs). */
export function gitBlobReader(git: Git): (oids: string[]) => Promise<Map<string, Buffer>> {
  return (oids) => readBlobs(git, oids);
}

/** Blob contents by id, through one `cat-file --batch` per ~64 MB. */
async function readBlobs(git: Git, oids: string[]): Promise<Map<string, Buffer>> {
  const unique = [...new Set(oids)];
  const blobs = new Map<string, Buffer>();
  if (unique.length === 0) return blobs;
  const sizes = parseBatchCheck((await git.run(["cat-file", "--batch-check"], { input: `${unique.join("\n")}\n` })).stdout.toString("utf8"));
  let chunk: string[] = [];
  let bytes = 0;
  const flush = async () => {
    if (chunk.length === 0) return;
    const out = (await git.run(["cat-file", "--batch"], { input: `${chunk.join("\n")}\n` })).stdout;
    let offset = 0;
    while (offset < out.length) {
      const newline = out.indexOf(10, offset);
      const [oid, type, size] = out.subarray(offset, newline).toString("utf8").split(" ");
      if (oid === undefined || type === "missing" || size === undefined) {
        offset = newline + 1;
        continue;
      }
      const length = Number(size);
      blobs.set(oid, out.subarray(newline + 1, newline + 1 + length));
      offset = newline + 1 + length + 1;
    }
    chunk = [];
    bytes = 0;
  };
  for (const oid of unique) {
    chunk.push(oid);
    bytes += sizes.get(oid) ?? 0;
    if (bytes > 64 * 1024 * 1024) await flush();
  }
  await flush();
  return blobs;
}

function parseBatchCheck(text: string): Map<string, number> {
  const sizes = new Map<string, number>();
  for (const line of text.split("\n")) {
    const [oid, , size] = line.split(" ");
    if (oid && size) sizes.set(oid, Number(size));
  }
  return sizes;
}
