// What a sandboxed `git commit` needs in a chat's own worktree (docs/worktrees.md). The worktree's
// gitfile names a folder in the main repository's `.git/worktrees/<name>`, outside the workspace,
// and a commit there writes objects and the branch's ref into the main `.git`. Only a worktree on
// a `hermes/…` branch (one Hermes made for a session) gets these, and only these:
// - its own git folder (index, HEAD, logs), pinned; commondir, gitdir and config.worktree in it
//   stay read-only (they say where git looks, so a command may not redirect them);
// - the shared objects folder, and refs/heads/hermes + logs/refs/heads/hermes (Hermes's branches).
// The main repository's hooks, config, info and its other refs stay read-only: git runs what
// they name later, outside any sandbox.
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathKind } from "../../util/path-kind";
import { realPath } from "../sensitive-paths";

/** Bound onto themselves writable, then read-only inside them (the shape of git-mounts.ts). */
export interface CommitMounts {
  pinned: string[];
  readOnly: string[];
  /** The main repository's .git: git reads its config and HEAD, so a hidden home shows it read-only. */
  commonDir?: string;
}

const HERMES_BRANCHES = /^ref:\s*refs\/heads\/hermes\//;
const WORKTREE_READ_ONLY = ["commondir", "gitdir", "config.worktree"];

/** Mounts for a linked worktree's git folder outside the workspace; empty unless Hermes owns it. */
export function worktreeCommitMounts(worktreeGitDir: string): CommitMounts {
  const none: CommitMounts = { pinned: [], readOnly: [] };
  if (!HERMES_BRANCHES.test(readText(path.join(worktreeGitDir, "HEAD")) ?? "")) return none;
  const common = readText(path.join(worktreeGitDir, "commondir"))?.trim();
  if (!common) return none;
  const commonDir = realPath(path.resolve(worktreeGitDir, common));
  // The worktree's folder must be the one its common dir lists: no gitfile borrowing another repository's objects.
  if (realPath(path.dirname(worktreeGitDir)) !== path.join(commonDir, "worktrees")) return none;
  const writable = [worktreeGitDir, ...["objects", "refs/heads/hermes", "logs/refs/heads/hermes"].map((part) => path.join(commonDir, part))];
  return {
    commonDir,
    pinned: writable.filter((dir) => pathKind(dir) === "dir"),
    readOnly: WORKTREE_READ_ONLY.map((name) => path.join(worktreeGitDir, name)).filter((file) => pathKind(file) !== undefined),
  };
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    // expected: missing or unreadable: not a worktree Hermes can open for commits
    return undefined;
  }
}
