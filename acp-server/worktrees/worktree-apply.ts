// Bringing a session's work back into the main checkout. Default: as uncommitted changes (one
// patch of everything the session did, checked whole against HEAD, then moved in crash-safely:
// apply-plan.ts),
// so the user reviews and commits it as their own. `merge`: the session's work committed on its
// branch and merged (--no-ff) after `git merge-tree` showed it merges cleanly. Either way nothing
// happens when it would conflict (a merge is built with merge-tree and commit-tree, the ref moved last), or when the main checkout has its own changes to the same
// files: the files are named and both sides are left as they were.
import { finishInterruptedApply, stageMerge, stagePatch, type CarriedOut, type StageOutcome, type StepHooks } from "./apply-plan";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { repoGit } from "./repo-git";
import { branchMovedElsewhere, recordBranchTip } from "../security/worktree-branch-tip";
import { acquireFileLockAsync } from "../util/file-lock";
import type { SessionWorktree } from "./session-worktree";
import { worktreeDiff, type WorktreeDiff } from "./worktree-diff";

export type ApplyMode = "patch" | "merge" | "squash";

export type ApplyOutcome =
  /** `kept`: files left as the checkout had them (changed there while the apply ran, or not writable safely), with why. */
  | { status: "applied"; mode: ApplyMode; files: string[]; kept: CarriedOut["kept"] }
  | { status: "nothing" }
  | { status: "refused"; reason: string; files: string[] };

/**
 * `only`: a part of the work to apply instead of all of it (the panel's accepted hunks:
 * worktree-review.ts). `hooks`: the crash test's stopping points (apply-plan.ts).
 */
export function applyWorktree(worktree: SessionWorktree, mode: ApplyMode, message: string, only?: WorktreeDiff, hooks: StepHooks = {}, options: ApplyOptions = {}): Promise<ApplyOutcome> {
  return oneAtATime(worktree.repo, () => acrossProcesses(worktree, hooks, () => applyNow(worktree, mode, message, only, hooks, options)));
}

export interface ApplyOptions {
  /** Merge the branch even where it is no longer where this chat left it (the user moved it: they said so). */
  acceptMovedBranch?: boolean;
}

/**
 * Applies into one checkout, one at a time in this process: two sessions applying at the same
 * moment would both find the files clean, and the second would write over the first. Each is
 * checked against what the one before left. Other Hermes processes wait on acrossProcesses.
 */
const applying = new Map<string, Promise<unknown>>();
function oneAtATime<T>(repo: string, work: () => Promise<T>): Promise<T> {
  const next = (applying.get(repo) ?? Promise.resolve()).then(work);
  const settled = next.catch(() => undefined); // expected: the caller hears of its own failure; the next apply still runs
  applying.set(repo, settled);
  void settled.then(() => {
    if (applying.get(repo) === settled) applying.delete(repo);
  });
  return next;
}

/** How long an apply waits for another process's apply into the same checkout. */
const APPLY_WAIT_MS = 5 * 60_000;

/**
 * One apply at a time per checkout across Hermes processes too: a lock file beside the
 * repository's worktrees ($HERMES_HOME/worktrees/<repo>-<hash>/, never in the repository). A
 * holder that died (kill -9) is taken over; its interrupted apply is finished first (applyNow).
 */
async function acrossProcesses<T>(worktree: SessionWorktree, hooks: StepHooks, work: () => Promise<T>): Promise<T> {
  const release = await acquireFileLockAsync(path.join(path.dirname(worktree.path), ".apply.lock"), {
    timeoutMs: APPLY_WAIT_MS,
    // Only a dead holder is taken over: a live apply of many files may take a while.
    staleMs: 60 * 60_000,
    onWait: () => hooks.onStep?.("waiting for another apply"),
  });
  try {
    return await work();
  } finally {
    release();
  }
}

async function applyNow(worktree: SessionWorktree, mode: ApplyMode, message: string, only: WorktreeDiff | undefined, hooks: StepHooks, options: ApplyOptions): Promise<ApplyOutcome> {
  // An apply a kill interrupted is finished first: its files are in the checkout now, so the diff below finds them there.
  await finishInterruptedApply(worktree);
  const diff = only ?? (await worktreeDiff(worktree));
  if (diff.files.length === 0) return { status: "nothing" };
  const local = await locallyChanged(worktree.repo, diff.files);
  if (local.length > 0) return { status: "refused", reason: "the main checkout has its own uncommitted changes to these files: commit, stash or discard them first", files: local };
  if (mode === "squash") return squash(worktree, diff.patch, diff.files, message, hooks);
  if (mode === "patch") return applyPatch(worktree, diff.patch, diff.files, hooks);
  // A merge commits in the worktree on whatever its HEAD names: the chat's commands can point
  // that at another branch (your main one), so it must still name the chat's own.
  const head = (await repoGit(worktree.path, ["symbolic-ref", "-q", "HEAD"], { okCodes: [1] })).stdout.trim();
  if (head !== `refs/heads/${worktree.branch}`) return { status: "refused", reason: `the worktree is no longer on its branch \`${worktree.branch}\` (its HEAD names ${head || "a bare commit"}), so Hermes will not commit there; \`/worktree apply\` (without --merge) brings its files as they are`, files: [] };
  // A merge is built from the branch's history, which another chat's command can move (security/worktree-branch-tip.ts).
  const moved = options.acceptMovedBranch ? undefined : await branchMovedElsewhere(worktree.path, worktree.branch);
  if (moved) return { status: "refused", reason: movedBranchReason(worktree, moved), files: [] };
  return merge(worktree, diff.files, message, hooks);
}

function movedBranchReason(worktree: SessionWorktree, moved: { noted?: string; now: string }): string {
  const short = (commit: string) => commit.slice(0, 10);
  const where = moved.noted ? `this chat left it at ${short(moved.noted)}; it is at ${short(moved.now)} now` : `Hermes has no note of where this chat left it; it is at ${short(moved.now)} now`;
  const look = moved.noted ? ` See what it holds with \`git -C ${worktree.repo} log --stat ${short(moved.noted)}..${short(moved.now)}\`.` : "";
  return `the branch \`${worktree.branch}\` was moved by something other than this chat (${where}): a command in another chat, or someone outside Hermes, committed on it or reset it, and a merge would bring in whatever it points at.${look} \`/worktree apply\` (without --merge) brings this worktree's files as they are; if you moved the branch yourself, \`/worktree apply --merge --accept-branch\` merges it as it is`;
}

async function applyPatch(worktree: SessionWorktree, patch: string, files: string[], hooks: StepHooks): Promise<ApplyOutcome> {
  // Staged whole first, then moved in file by file from a committed plan (apply-plan.ts): a kill
  // leaves the checkout as it was, or the next use of the worktree finishes the move.
  const staged = await stagePatch(worktree, patch, files, hooks);
  if (!staged.staged) return notStaged(staged, files);
  return { status: "applied", mode: "patch", files, kept: await carryOut(worktree, hooks) };
}

async function merge(worktree: SessionWorktree, files: string[], message: string, hooks: StepHooks): Promise<ApplyOutcome> {
  await commitEverything(worktree, message);
  const tree = await repoGit(worktree.repo, ["merge-tree", "--write-tree", "--name-only", "--no-messages", "HEAD", worktree.branch], { okCodes: [1] });
  if (tree.code === 1) {
    const conflicted = tree.stdout.split("\n").slice(1).filter(Boolean);
    return { status: "refused", reason: "merging it would conflict", files: conflicted.length ? conflicted : files };
  }
  // The merge commit is written as an object first; the checkout's files, index and ref follow
  // from a committed plan, the ref last (apply-plan.ts): a kill leaves the old state or is rolled forward.
  const head = (await repoGit(worktree.repo, ["rev-parse", "--verify", "HEAD"])).stdout.trim();
  const identity = (await repoGit(worktree.repo, ["config", "user.email"], { okCodes: [1] })).code === 0 ? [] : ["-c", "user.name=Hermes", "-c", "user.email=hermes@localhost"];
  const commit = (await repoGit(worktree.repo, [...identity, "commit-tree", tree.stdout.split("\n")[0]!.trim(), "-p", head, "-p", worktree.branch, "-m", `Merge ${worktree.branch}: ${message}`])).stdout.trim();
  const changed = (await repoGit(worktree.repo, ["diff", "--name-only", "-z", "--no-renames", head, commit])).stdout.split("\0").filter(Boolean);
  const staged = await stageMerge(worktree, commit, changed, hooks);
  if (!staged.staged) return notStaged(staged, files);
  return { status: "applied", mode: "merge", files, kept: await carryOut(worktree, hooks) };
}

/**
 * The session's whole change as ONE commit on the checkout's branch (its own message, the
 * checkout's HEAD as only parent): the patch applied to a scratch index from HEAD (the check),
 * its tree committed, then brought in as a merge is (files, index, ref last: apply-plan.ts).
 */
async function squash(worktree: SessionWorktree, patch: string, files: string[], message: string, hooks: StepHooks): Promise<ApplyOutcome> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), "hermes-squash-index-"));
  const env = { GIT_INDEX_FILE: path.join(scratch, "index") };
  let commit: string;
  try {
    await repoGit(worktree.repo, ["read-tree", "HEAD"], { env });
    const applied = await repoGit(worktree.repo, ["apply", "--cached", "--binary", "--whitespace=nowarn", "-"], { env, input: patch, okCodes: [1, 128] });
    if (applied.code !== 0) return { status: "refused", reason: "it does not apply to the main checkout as it is now (it moved on since the session started)", files: failingFiles(applied.stderr, files) };
    const tree = (await repoGit(worktree.repo, ["write-tree"], { env })).stdout.trim();
    const head = (await repoGit(worktree.repo, ["rev-parse", "--verify", "HEAD"])).stdout.trim();
    commit = (await repoGit(worktree.repo, [...(await identityFor(worktree.repo)), "commit-tree", tree, "-p", head, "-m", message])).stdout.trim();
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const staged = await stageMerge(worktree, commit, files, hooks);
  if (!staged.staged) return notStaged(staged, files);
  return { status: "applied", mode: "squash", files, kept: await carryOut(worktree, hooks) };
}

/** Step 3 of the plan just committed (apply-plan.ts): the files it left as they were. */
async function carryOut(worktree: SessionWorktree, hooks: StepHooks): Promise<CarriedOut["kept"]> {
  return (await finishInterruptedApply(worktree, hooks))?.kept ?? [];
}

/** A stage that stopped before its commit point: nothing changed in the checkout. */
function notStaged(staged: Exclude<StageOutcome, { staged: true }>, files: string[]): ApplyOutcome {
  if ("unsafe" in staged) return { status: "refused", reason: `the main checkout cannot take these files safely (${staged.unsafe.map((entry) => `${entry.file}: ${entry.reason}`).join("; ")})`, files: staged.unsafe.map((entry) => entry.file) };
  return { status: "refused", reason: "it does not apply to the main checkout as it is now (it moved on since the session started)", files: failingFiles(staged.stderr, files) };
}

/** `-c` settings for a commit Hermes writes when git has no identity configured there. */
async function identityFor(cwd: string): Promise<string[]> {
  return (await repoGit(cwd, ["config", "user.email"], { okCodes: [1] })).code === 0 ? [] : ["-c", "user.name=Hermes", "-c", "user.email=hermes@localhost"];
}

/** The session's uncommitted work becomes a commit on its branch (with a fallback identity when git has none). */
async function commitEverything(worktree: SessionWorktree, message: string): Promise<void> {
  const status = await repoGit(worktree.path, ["status", "--porcelain"]);
  if (!status.stdout.trim()) return;
  await repoGit(worktree.path, ["add", "-A", "--", "."]);
  const identity = (await repoGit(worktree.path, ["config", "user.email"], { okCodes: [1] })).code === 0 ? [] : ["-c", "user.name=Hermes", "-c", "user.email=hermes@localhost"];
  await repoGit(worktree.path, [...identity, "commit", "--quiet", "--no-verify", "-m", message]);
  await recordBranchTip(worktree.path);
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
