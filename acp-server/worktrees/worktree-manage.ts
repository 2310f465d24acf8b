// A worktree's state for /worktree and `hermes worktrees`, and removing one. Removing never
// happens to a worktree with work that was not brought back unless the caller says so (after
// asking the user): `git worktree remove` then `git branch -D`, so the repository keeps nothing.
import { existsSync } from "node:fs";
import { finishInterruptedApply } from "./apply-plan";
import { importChatObjects } from "./import-objects";
import { repoGit } from "./repo-git";
import type { SessionWorktree } from "./session-worktree";
import { worktreeDiff } from "./worktree-diff";

export interface WorktreeState {
  exists: boolean;
  /** Files changed against the base (commits and uncommitted). */
  files: string[];
  stat: string;
  /** Commits on the session's branch the main checkout's HEAD lacks, and the reverse. */
  ahead: number;
  behind: number;
}

export async function worktreeState(worktree: SessionWorktree): Promise<WorktreeState> {
  if (!existsSync(worktree.path)) return { exists: false, files: [], stat: "", ahead: 0, behind: 0 };
  // An apply a kill interrupted is finished before anything looks at (or removes) the worktree.
  await finishInterruptedApply(worktree);
  // Before the branch is counted beside the diff (which imports too, a no-op then).
  await importChatObjects(worktree);
  const [diff, counts] = await Promise.all([
    worktreeDiff(worktree),
    repoGit(worktree.repo, ["rev-list", "--left-right", "--count", `HEAD...${worktree.branch}`]).catch(() => undefined), // expected: the branch is gone (deleted by hand): no counts
  ]);
  const [behind = 0, ahead = 0] = (counts?.stdout.trim().split(/\s+/) ?? []).map(Number);
  return { exists: true, files: diff.files, stat: diff.stat, ahead, behind };
}

/** Removes the worktree and its branch. */
export async function removeWorktree(worktree: SessionWorktree): Promise<void> {
  if (existsSync(worktree.path)) await repoGit(worktree.repo, ["worktree", "remove", "--force", worktree.path]);
  else await repoGit(worktree.repo, ["worktree", "prune"]);
  await repoGit(worktree.repo, ["branch", "-D", worktree.branch], { okCodes: [1] });
}
