// What a session did in its worktree, as one patch against the commit it started from:
// commits on its branch and uncommitted changes, new files included. Built in a temporary
// index, so the worktree's own index and files are left exactly as they are.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { importChatObjects } from "./import-objects";
import { repoGit } from "./repo-git";
import type { SessionWorktree } from "./session-worktree";

export interface WorktreeDiff {
  /** `git diff --binary` text (empty: no change). */
  patch: string;
  /** The paths it touches, relative to the repository. */
  files: string[];
  /** `--stat` lines. */
  stat: string;
}

export async function worktreeDiff(worktree: SessionWorktree): Promise<WorktreeDiff> {
  // Every read of the branch (state, apply, review) comes through here: its objects first.
  await importChatObjects(worktree);
  const scratch = mkdtempSync(path.join(os.tmpdir(), "hermes-worktree-index-"));
  const env = { GIT_INDEX_FILE: path.join(scratch, "index") };
  try {
    await repoGit(worktree.path, ["read-tree", "HEAD"], { env });
    await repoGit(worktree.path, ["add", "-A", "--", "."], { env });
    const [patch, names, stat] = await Promise.all([
      repoGit(worktree.path, ["diff", "--cached", "--binary", "--no-color", "--no-ext-diff", worktree.base], { env }),
      repoGit(worktree.path, ["diff", "--cached", "--name-only", "-z", "--no-renames", worktree.base], { env }),
      repoGit(worktree.path, ["diff", "--cached", "--stat", "--no-color", worktree.base], { env }),
    ]);
    return { patch: patch.stdout, files: names.stdout.split("\0").filter(Boolean), stat: stat.stdout.trimEnd() };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
