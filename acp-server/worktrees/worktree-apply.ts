// Bringing a session's work back into the main checkout. Default: as uncommitted changes (one
// patch of everything the session did, checked whole against HEAD, then moved in crash-safely:
// apply-plan.ts),
// so the user reviews and commits it as their own. `merge`: the session's work committed on its
// branch and merged (--no-ff) after `git merge-tree` showed it merges cleanly. Either way nothing
// happens when it would conflict, or when the main checkout has its own changes to the same
// files: the files are named and both sides are left as they were.
import { finishInterruptedApply, stagePatch } from "./apply-plan";
import { repoGit } from "./repo-git";
import type { SessionWorktree } from "./session-worktree";
import { worktreeDiff } from "./worktree-diff";

export type ApplyMode = "patch" | "merge";

export type ApplyOutcome =
  | { status: "applied"; mode: ApplyMode; files: string[] }
  | { status: "nothing" }
  | { status: "refused"; reason: string; files: string[] };

export async function applyWorktree(worktree: SessionWorktree, mode: ApplyMode, message: string): Promise<ApplyOutcome> {
  // An apply a kill interrupted is finished first: its files are in the checkout now, so the diff below finds them there.
  await finishInterruptedApply(worktree);
  const diff = await worktreeDiff(worktree);
  if (diff.files.length === 0) return { status: "nothing" };
  const local = await locallyChanged(worktree.repo, diff.files);
  if (local.length > 0) return { status: "refused", reason: "the main checkout has its own uncommitted changes to these files: commit, stash or discard them first", files: local };
  return mode === "patch" ? applyPatch(worktree, diff.patch, diff.files) : merge(worktree, diff.files, message);
}

async function applyPatch(worktree: SessionWorktree, patch: string, files: string[]): Promise<ApplyOutcome> {
  // Staged whole first, then moved in file by file from a committed plan (apply-plan.ts): a kill
  // leaves the checkout as it was, or the next use of the worktree finishes the move.
  const staged = await stagePatch(worktree, patch, files);
  if (!staged.staged) return { status: "refused", reason: "it does not apply to the main checkout as it is now (it moved on since the session started)", files: failingFiles(staged.stderr, files) };
  await finishInterruptedApply(worktree);
  return { status: "applied", mode: "patch", files };
}

async function merge(worktree: SessionWorktree, files: string[], message: string): Promise<ApplyOutcome> {
  await commitEverything(worktree, message);
  const tree = await repoGit(worktree.repo, ["merge-tree", "--write-tree", "--name-only", "--no-messages", "HEAD", worktree.branch], { okCodes: [1] });
  if (tree.code === 1) {
    const conflicted = tree.stdout.split("\n").slice(1).filter(Boolean);
    return { status: "refused", reason: "merging it would conflict", files: conflicted.length ? conflicted : files };
  }
  await repoGit(worktree.repo, ["merge", "--no-ff", "--no-edit", "-m", `Merge ${worktree.branch}: ${message}`, worktree.branch]);
  return { status: "applied", mode: "merge", files };
}

/** The session's uncommitted work becomes a commit on its branch (with a fallback identity when git has none). */
async function commitEverything(worktree: SessionWorktree, message: string): Promise<void> {
  const status = await repoGit(worktree.path, ["status", "--porcelain"]);
  if (!status.stdout.trim()) return;
  await repoGit(worktree.path, ["add", "-A", "--", "."]);
  const identity = (await repoGit(worktree.path, ["config", "user.email"], { okCodes: [1] })).code === 0 ? [] : ["-c", "user.name=Hermes", "-c", "user.email=hermes@localhost"];
  await repoGit(worktree.path, [...identity, "commit", "--quiet", "--no-verify", "-m", message]);
}

/** Of `files`, those the main checkout has changed itself (staged, unstaged or untracked). */
async function locallyChanged(repo: string, files: string[]): Promise<string[]> {
  const status = await repoGit(repo, ["status", "--porcelain", "-z", "--untracked-files=all", "--", ...files]);
  return status.stdout
    .split("\0")
    .filter((entry) => entry.length > 3)
    .map((entry) => entry.slice(3));
}

function failingFiles(stderr: string, files: string[]): string[] {
  const named = [...stderr.matchAll(/(?:patch failed|already exists in working directory|does not exist in index|No such file or directory): ?([^:\n]+)/g)].map((match) => match[1]!.trim());
  const known = [...new Set(named)].filter((file) => files.includes(file));
  return known.length ? known : files;
}
