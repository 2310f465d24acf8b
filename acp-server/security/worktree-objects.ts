// Brings a chat worktree's private git objects into the main repository, verified. A worktree
// chat's sandboxed commands write new objects into a folder of the worktree's own git folder
// (sandbox/worktree-commit-mounts.ts), never into the main repository's objects, which they
// cannot change. Before anything outside the sandbox reads the worktree's branch, the private
// objects are packed and unpacked into the main repository by `git unpack-objects` /
// `git index-pack`, which name every object by the hash of its content: an object planted under
// a name that is not its content's hash lands under its true name (harmless) and the name it
// claimed stays missing, so a branch that needs it is broken (said, never silently "fixed").
// The private folder is never an alternate outside the sandbox: an object planted there under
// the hash of content the user commits later would otherwise stand in for it. git does not even
// read it: its object files are copied (opened without following links) into a folder of
// Hermes's own first, so an `info/alternates` or a link a running command puts there is never followed.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, rmdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { openPinnedForRead, unlinkPinned } from "../util/no-follow-io";
import { lstatOrUndefined } from "../util/path-kind";
import { safeGit } from "./safe-git";
import { privateObjectDir } from "./sandbox/worktree-commit-mounts";
import { realPath } from "./sensitive-paths";

export interface ObjectImport {
  /** Objects the private folder held (by the names it gave them). */
  found: number;
  /** Names it gave objects whose content hashes to something else: not in the main repository. */
  dropped: string[];
}

/** Beyond this many objects, one pack is kept whole (index-pack) rather than written out loose. */
const LOOSE_LIMIT = 100;
const LOOSE_NAME = /^[0-9a-f]{38,62}$/;
const FAN_OUT = /^[0-9a-f]{2}$/;

/** Where a chat worktree's git lives: its own git folder and the main repository's; undefined for anything else. */
export function chatWorktreeGit(root: string): { gitDir: string; commonDir: string } | undefined {
  const gitfile = path.join(root, ".git");
  if (!lstatOrUndefined(gitfile)?.isFile()) return undefined;
  const gitDir = firstMatch(gitfile, /^gitdir:\s*(.+?)\s*$/m);
  if (!gitDir) return undefined;
  const own = realPath(path.resolve(root, gitDir));
  const common = firstMatch(path.join(own, "commondir"), /^(.+?)\s*$/m);
  if (!common) return undefined;
  const commonDir = realPath(path.resolve(own, common));
  // The same check as the mounts: a git folder of this repository's worktrees, not another's.
  if (realPath(path.dirname(own)) !== path.join(commonDir, "worktrees")) return undefined;
  return { gitDir: own, commonDir };
}

const running = new Map<string, Promise<unknown>>();

/**
 * Imports what the private folder of the worktree at `root` holds (nothing to do: `found` 0).
 * Throws when the objects could not be brought in (they stay where they are, so nothing is
 * lost, and the branch cannot be read outside until they are). One import per worktree at a time.
 */
export function importWorktreeObjects(root: string): Promise<ObjectImport> {
  const git = chatWorktreeGit(root);
  if (!git) return Promise.resolve({ found: 0, dropped: [] });
  const key = git.gitDir;
  const next = (running.get(key) ?? Promise.resolve()).then(() => importNow(git.gitDir, git.commonDir));
  const settled = next.catch(() => undefined); // expected: the caller hears of its own failure; the next import still runs
  running.set(key, settled);
  void settled.then(() => {
    if (running.get(key) === settled) running.delete(key);
  });
  return next;
}

async function importNow(gitDir: string, commonDir: string): Promise<ObjectImport> {
  const folder = privateObjectDir(gitDir);
  const stat = lstatOrUndefined(folder);
  if (!stat) return { found: 0, dropped: [] };
  if (!stat.isDirectory()) throw new Error(`${folder} is not a folder (a link or a file took its place): the worktree's new git objects cannot be brought into ${commonDir}`);
  const files = privateFiles(folder);
  if (files.loose.length === 0 && files.packs.length === 0) return { found: 0, dropped: [] };
  const fail = (message: string) => new Error(`Could not bring the worktree's new git objects into ${commonDir}: ${message}`);
  // git never reads the private folder itself: a command still running could put an
  // `info/alternates` there (git would follow it into another repository) or swap a folder for a
  // link between a check and git's read. Its object files are copied, each opened without
  // following links, into a folder of Hermes's own; git reads that, with no alternates.
  const scratch = mkdtempSync(path.join(os.tmpdir(), "hermes-objects-"));
  try {
    const copy = path.join(scratch, "objects");
    const copied = copyObjectFiles(folder, files, copy);
    if (copied.length === 0) return { found: 0, dropped: [] };
    const privateEnv = { GIT_OBJECT_DIRECTORY: copy };
    const names = (await safeGit(commonDir, [`--git-dir=${commonDir}`, "cat-file", "--batch-all-objects", "--batch-check=%(objectname)"], { env: privateEnv }, fail)).stdout.split("\n").filter(Boolean);
    if (names.length > 0) {
      const hash = (await safeGit(commonDir, [`--git-dir=${commonDir}`, "pack-objects", "--quiet", path.join(scratch, "p")], { env: privateEnv, input: `${names.join("\n")}\n`, timeoutMs: 5 * 60_000 }, fail)).stdout.trim();
      // Only the pack: its .idx holds the names the private folder claimed, not the contents' hashes.
      const pack = readFileSync(path.join(scratch, `p-${hash}.pack`));
      const unpack = names.length < LOOSE_LIMIT ? ["unpack-objects", "-q"] : ["index-pack", "--stdin"];
      await safeGit(commonDir, [`--git-dir=${commonDir}`, ...unpack], { input: pack, timeoutMs: 5 * 60_000 }, fail);
    }
    const check = await safeGit(commonDir, [`--git-dir=${commonDir}`, "cat-file", "--batch-check=%(objectname)"], { input: `${names.join("\n")}\n` }, fail);
    const dropped = check.stdout.split("\n").filter((line) => line.endsWith(" missing")).map((line) => line.split(" ")[0]!);
    // What was copied is in the main repository now (or was a lie): gone from the private folder.
    // Only those files: a command still running may be writing new ones, and one not copied (a
    // link, a second hard link) stays where it is, untrusted. Each is removed through its held
    // folder, so a folder swapped for a link removes nothing elsewhere.
    for (const file of copied) removeQuietly(file);
    for (const dir of files.fanOut) removeIfEmpty(dir);
    return { found: names.length, dropped };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

interface PrivateFiles {
  loose: string[];
  /** Every file of a pack (.pack, .idx, .rev…), by pack. */
  packs: string[];
  fanOut: string[];
}

/** The private folder's object files by name; links and anything else are skipped, never followed or removed. */
function privateFiles(folder: string): PrivateFiles {
  const found: PrivateFiles = { loose: [], packs: [], fanOut: [] };
  for (const name of list(folder)) {
    const entry = path.join(folder, name);
    if (!(FAN_OUT.test(name) || name === "pack") || !lstatOrUndefined(entry)?.isDirectory()) continue;
    if (name !== "pack") found.fanOut.push(entry);
    for (const child of list(entry)) {
      if (name === "pack" ? /^pack-[0-9a-f]+\.(pack|idx)$/.test(child) : LOOSE_NAME.test(child)) (name === "pack" ? found.packs : found.loose).push(path.join(entry, child));
    }
  }
  return found;
}

/** Copies each listed file that is a regular file (opened without following links) to the same place under `to`; the files copied. */
function copyObjectFiles(folder: string, files: PrivateFiles, to: string): string[] {
  const copied: string[] = [];
  for (const file of [...files.loose, ...files.packs]) {
    let content: Buffer | undefined;
    try {
      content = openPinnedForRead({ real: file, linked: false }, (fd, info) => (info.isFile() ? readFileSync(fd) : undefined));
    } catch {
      // expected: gone, swapped for a link, or given another hard link meanwhile: not copied, not trusted
      continue;
    }
    if (!content?.length) continue;
    const target = path.join(to, path.relative(folder, file));
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, content);
    copied.push(file);
  }
  return copied;
}

function removeQuietly(file: string): void {
  try {
    unlinkPinned({ real: file, linked: true });
  } catch {
    // expected: gone already, or a folder on the way is now a link: nothing is removed through it
  }
}

function list(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    // expected: removed meanwhile (a command cleaning up): nothing in it
    return [];
  }
}

function removeIfEmpty(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {
    // expected: not empty (a command wrote a new object meanwhile): it stays for the next import
  }
}

function firstMatch(file: string, pattern: RegExp): string | undefined {
  try {
    return pattern.exec(readFileSync(file, "utf8"))?.[1];
  } catch {
    // expected: missing or unreadable: not a chat worktree
    return undefined;
  }
}
