// delegate_task with `isolation: "worktree"` (issue 32): the task edits in a git worktree of its
// own, made from the parent workspace's HEAD on branch `hermes/<parent short id>-task-<n>`, so
// parallel tasks never write over each other. When it ends, its diff is brought into the parent's
// workspace as uncommitted changes, by the same crash-safe, checked-whole apply as /worktree apply
// (one apply at a time per delegate_task call: each checks against what the one before left).
// Applied: the worktree and branch go. Refused (a conflict, or the parent's own changes to the
// same files): they are kept, and the result names the files, branch and folder.
import { removeWorktree } from "../worktrees/worktree-manage";
import { repoGit } from "../worktrees/repo-git";
import { createSessionWorktree, type SessionWorktree } from "../worktrees/session-worktree";
import { applyWorktree } from "../worktrees/worktree-apply";
import { worktreeDiff } from "../worktrees/worktree-diff";
import type { TaskWorktreeResult } from "../tools/context";

/** Makes the task's worktree: the first free `hermes/<parent>-task-<n>` from `n` on. */
export async function openTaskWorktree(options: { parentCwd: string; parentId: string; root: string; n: number }): Promise<SessionWorktree> {
  const short = options.parentId.slice(0, 8);
  for (let n = options.n; ; n++) {
    const name = `${short}-task-${n}`;
    const branch = `hermes/${name}`;
    const taken = await repoGit(options.parentCwd, ["rev-parse", "--verify", "--quiet", `refs/heads/${branch}`], { okCodes: [1, 128] }).catch(() => undefined); // expected: not a repository: createSessionWorktree says so below
    if (taken?.code === 0) continue;
    const made = await createSessionWorktree({ cwd: options.parentCwd, sessionId: `${options.parentId}-task-${n}`, root: options.root, request: { branch } });
    if ("unavailable" in made) throw new Error(`no worktree for this task: ${made.unavailable}`);
    return made.worktree;
  }
}

/** Applies the task's diff into the parent's workspace (the worktree's repository) and tidies up. */
export async function bringBackTask(worktree: SessionWorktree, message: string): Promise<TaskWorktreeResult> {
  const { files } = await worktreeDiff(worktree);
  if (files.length === 0) {
    await removeWorktree(worktree);
    return { branch: worktree.branch, files, outcome: "none" };
  }
  const outcome = await applyWorktree(worktree, "patch", message);
  if (outcome.status === "refused") return { branch: worktree.branch, files, outcome: "conflict", reason: `${outcome.reason}: ${outcome.files.join(", ")}`, path: worktree.path };
  // Files the apply could not write without losing the parent's own edits: the task's versions stay in its worktree.
  if (outcome.status === "applied" && outcome.kept.length > 0) return { branch: worktree.branch, files, outcome: "conflict", reason: `applied except ${outcome.kept.map((entry) => `${entry.file} (${entry.reason})`).join(", ")}`, path: worktree.path };
  await removeWorktree(worktree);
  return { branch: worktree.branch, files, outcome: "applied" };
}
