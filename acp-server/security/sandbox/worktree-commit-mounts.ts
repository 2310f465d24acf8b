// What a sandboxed `git commit` needs in a chat's own worktree (docs/worktrees.md). The worktree's
// gitfile names a folder in the main repository's `.git/worktrees/<name>`, outside the workspace,
// and a commit there writes objects and the branch's ref into the main `.git`. Only a worktree on
// a `hermes/…` branch (one Hermes made for a session) gets these, and only these:
// - its own git folder (index, HEAD, logs), pinned; commondir, gitdir and config.worktree in it
//   stay read-only (they say where git looks, so a command may not redirect them);
// - refs/heads/hermes + logs/refs/heads/hermes (Hermes's branches);
// - a PRIVATE object folder, `objects` in its own git folder, pinned: git there writes new objects
//   into it (GIT_OBJECT_DIRECTORY) and reads the main repository's as an alternate. The main
//   `objects` stays read-only: a writable one would let a command replace an existing object
//   (git does not re-hash on read), so the user's next checkout in the main repository would
//   write the command's content. Hermes brings the private objects in verified, by their
//   content's hash (security/worktree-objects.ts), after each command and before it reads the branch.
// The main repository's hooks, config, info and its other refs stay read-only: git runs what
// they name later, outside any sandbox.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { readSmallPinnedSync } from "../../util/no-follow-io";
import { pathKind } from "../../util/path-kind";
import { realPath } from "../sensitive-paths";

/** Bound onto themselves writable, then read-only inside them (the shape of git-mounts.ts). */
export interface CommitMounts {
  pinned: string[];
  readOnly: string[];
  /** The main repository's .git: git reads its config and HEAD, so a hidden home shows it read-only. */
  commonDir?: string;
  /** For the command's environment: git's object folder is the private one, the main one an alternate. */
  env?: Record<string, string>;
}

const HERMES_BRANCHES = /^ref:\s*refs\/heads\/hermes\//;
const WORKTREE_READ_ONLY = ["commondir", "gitdir", "config.worktree"];

/** Mounts for a linked worktree's git folder outside the workspace; empty unless Hermes owns it. */
export function worktreeCommitMounts(worktreeGitDir: string): CommitMounts {
  const none: CommitMounts = { pinned: [], readOnly: [] };
  if (!HERMES_BRANCHES.test(readOwnGitFile(path.join(worktreeGitDir, "HEAD")) ?? "")) return none;
  const common = readOwnGitFile(path.join(worktreeGitDir, "commondir"))?.trim();
  if (!common) return none;
  const commonDir = realPath(path.resolve(worktreeGitDir, common));
  // The worktree's folder must be the one its common dir lists: no gitfile borrowing another repository's objects.
  if (realPath(path.dirname(worktreeGitDir)) !== path.join(commonDir, "worktrees")) return none;
  const mainObjects = path.join(commonDir, "objects");
  const privateObjects = privateObjectDir(worktreeGitDir);
  // Made now: a mount point must exist, and a pinned one cannot be swapped for a link elsewhere.
  if (!ensureDir(privateObjects)) return none;
  const writable = [worktreeGitDir, privateObjects, ...["refs/heads/hermes", "logs/refs/heads/hermes"].map((part) => path.join(commonDir, part))];
  return {
    commonDir,
    pinned: writable.filter((dir) => pathKind(dir) === "dir"),
    // Outside the workspace it is read-only anyway; said here too, so no later writable mount opens it.
    readOnly: [...WORKTREE_READ_ONLY.map((name) => path.join(worktreeGitDir, name)), mainObjects].filter((file) => pathKind(file) !== undefined),
    env: { GIT_OBJECT_DIRECTORY: privateObjects, GIT_ALTERNATE_OBJECT_DIRECTORIES: mainObjects },
  };
}

/** Where a chat worktree's sandboxed commands write git objects (inside the worktree's own git folder). */
export function privateObjectDir(worktreeGitDir: string): string {
  return path.join(worktreeGitDir, "objects");
}

function ensureDir(dir: string): boolean {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o755 });
    return pathKind(dir) === "dir";
  } catch {
    // expected: cannot be made (a file there, no permission): no commit mounts, commits fail (the safe side)
    return false;
  }
}

/**
 * A small file of a worktree's own git folder, which the chat's sandboxed commands can write (HEAD,
 * Hermes's branch note): read without following a link, and without blocking on a FIFO put in
 * its place (a sync read of one would hang the whole process). Missing or anything else: undefined.
 */
export function readOwnGitFile(file: string): string | undefined {
  try {
    return readSmallPinnedSync({ real: file, linked: false }, 4096)?.toString("utf8");
  } catch {
    // expected: missing, or a link in its place: read as absent (no commit mounts: the safe side)
    return undefined;
  }
}
