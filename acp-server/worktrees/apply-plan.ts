// Crash-safe `/worktree apply` (as a patch): a kill -9 at any moment leaves the main checkout
// with either none of the session's change or all of it. `git apply` writes file after file, so
// it cannot promise that; instead:
//   1. stage: the patch is applied to a scratch index built from HEAD (this is the check: it
//      goes in whole or not at all), and the new files are written out of it with
//      `git checkout-index --prefix` into a staging folder in the worktree's own git folder
//      (`.git/worktrees/<name>/`, so on the checkout's file system: a rename moves them);
//   2. commit point: plan.json, naming every file to write or delete, is renamed into place;
//   3. carry out: each staged file is renamed over its place in the checkout (atomic per file),
//      each deleted one removed; then plan.json goes, then the staging folder.
// A kill before 2 changes nothing in the checkout (the staging folder is thrown away next time);
// a kill after it is rolled forward by the next use of the worktree (finishInterruptedApply:
// /worktree, apply, discard, `hermes worktrees`, cleanup), which redoes step 3: renaming a file
// already moved finds it gone from staging and skips it. The user's `.git` only gains objects.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { copyFile, mkdir, readFile, rename, rm, rmdir, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import * as z from "zod";
import { repoGit } from "./repo-git";
import type { SessionWorktree } from "./session-worktree";

const planSchema = z.object({
  v: z.literal(1),
  /** The main checkout's top folder. */
  repo: z.string(),
  /** Paths relative to it: written from staging, or removed. */
  write: z.array(z.string()),
  remove: z.array(z.string()),
  /** A merge: after the files, the index entries (`update-index -z --index-info` input), then the ref moves from `old` to `commit`. */
  merge: z.object({ ref: z.string(), old: z.string(), commit: z.string(), index: z.string() }).optional(),
});
type ApplyPlan = z.infer<typeof planSchema>;

/** The crash test's way to stop at a known point (test/support/worktree-apply-child.ts). */
export interface StepHooks {
  onStep?: (point: string) => Promise<void>;
}

export type StageOutcome = { staged: true } | { staged: false; stderr: string };

/** Where a worktree keeps an apply in progress: its own git folder (a worktree entry of the repository). */
async function applyFolder(worktree: SessionWorktree): Promise<string> {
  const gitDir = (await repoGit(worktree.path, ["rev-parse", "--absolute-git-dir"])).stdout.trim();
  return path.join(gitDir, "hermes-apply");
}

/**
 * Steps 1 and 2: checks the patch against HEAD and stages it; `files` are every path it
 * touches (the caller checked the checkout has no changes of its own there, so HEAD's version
 * is what the checkout holds). Nothing in the checkout changes here.
 */
export function stagePatch(worktree: SessionWorktree, patch: string, files: string[], hooks: StepHooks = {}): Promise<StageOutcome> {
  return withFreshStaging(worktree, async (folder, env) => {
    await repoGit(worktree.repo, ["read-tree", "HEAD"], { env });
    const applied = await repoGit(worktree.repo, ["apply", "--cached", "--binary", "--whitespace=nowarn", "-"], { env, input: patch, okCodes: [1, 128] });
    if (applied.code !== 0) {
      await rm(folder, { recursive: true, force: true });
      return { staged: false, stderr: applied.stderr };
    }
    await commitPlan(worktree, folder, env, files, hooks);
    return { staged: true };
  });
}

/**
 * The same for a merge (`apply --merge`): `commit`, the merge commit already written (an object
 * only), becomes the checkout's: its files are staged, and the plan also carries the index
 * entries and the ref move, done last. `files`: every path that differs between HEAD and it.
 */
export function stageMerge(worktree: SessionWorktree, commit: string, files: string[], hooks: StepHooks = {}): Promise<void> {
  return withFreshStaging(worktree, async (folder, env) => {
    const symbolic = await repoGit(worktree.repo, ["symbolic-ref", "-q", "HEAD"], { okCodes: [1] });
    const ref = symbolic.code === 0 ? symbolic.stdout.trim() : "HEAD";
    const old = (await repoGit(worktree.repo, ["rev-parse", "--verify", "HEAD"])).stdout.trim();
    await repoGit(worktree.repo, ["read-tree", commit], { env });
    const entries = (await repoGit(worktree.repo, ["ls-files", "-s", "-z", "--", ...files], { env })).stdout.split("\0").filter(Boolean);
    const present = new Set(entries.map((entry) => entry.slice(entry.indexOf("\t") + 1)));
    const removals = files.filter((file) => !present.has(file)).map((file) => `0 ${"0".repeat(old.length)}\t${file}`);
    const index = [...entries, ...removals].map((line) => `${line}\0`).join("");
    await commitPlan(worktree, folder, env, files, hooks, { ref, old, commit, index });
  });
}

/**
 * Runs `work` on a fresh staging folder (what a kill left before its commit point is dropped)
 * and a scratch index (`env`: GIT_INDEX_FILE), so the repository's own index is not touched
 * before the commit point; the scratch index goes afterwards.
 */
async function withFreshStaging<T>(worktree: SessionWorktree, work: (folder: string, env: Record<string, string>) => Promise<T>): Promise<T> {
  const folder = await applyFolder(worktree);
  await rm(folder, { recursive: true, force: true });
  await mkdir(path.join(folder, "files"), { recursive: true, mode: 0o700 });
  const scratch = mkdtempSync(path.join(os.tmpdir(), "hermes-apply-index-"));
  try {
    return await work(folder, { GIT_INDEX_FILE: path.join(scratch, "index") });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Writes out the new versions of `files` from the scratch index and commits to the plan. */
async function commitPlan(worktree: SessionWorktree, folder: string, env: Record<string, string>, files: string[], hooks: StepHooks, merge?: ApplyPlan["merge"]): Promise<void> {
  const present = new Set((await repoGit(worktree.repo, ["ls-files", "-z", "--", ...files], { env })).stdout.split("\0").filter(Boolean));
  const write = files.filter((file) => present.has(file));
  const remove = files.filter((file) => !present.has(file));
  if (write.length > 0) await repoGit(worktree.repo, ["checkout-index", "--force", `--prefix=${path.join(folder, "files")}/`, "-z", "--stdin"], { env, input: write.join("\0") });
  const plan: ApplyPlan = { v: 1, repo: worktree.repo, write, remove, ...(merge ? { merge } : {}) };
  await writeFile(path.join(folder, "plan.tmp"), JSON.stringify(plan));
  await hooks.onStep?.("staged");
  await rename(path.join(folder, "plan.tmp"), path.join(folder, "plan.json")); // the commit point
}

/** Step 3, for an apply just staged or one a kill interrupted: true when there was one to finish. */
export async function finishInterruptedApply(worktree: SessionWorktree, hooks: StepHooks = {}): Promise<boolean> {
  const folder = await applyFolder(worktree).catch(() => undefined); // expected: the worktree is gone: nothing of it can be pending
  if (!folder) return false;
  let text: string;
  try {
    text = await readFile(path.join(folder, "plan.json"), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    await rm(folder, { recursive: true, force: true }); // a staging without its commit point: never applied
    return false;
  }
  const plan = planSchema.parse(JSON.parse(text));
  const staging = path.join(folder, "files");
  let done = 0;
  await hooks.onStep?.("moved 0");
  for (const file of plan.write) {
    const target = path.join(plan.repo, file);
    await mkdir(path.dirname(target), { recursive: true });
    try {
      await rename(path.join(staging, file), target);
    } catch (error) {
      // Moved already, by the run a kill interrupted.
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    await hooks.onStep?.(`moved ${++done}`);
  }
  for (const file of plan.remove) {
    await rm(path.join(plan.repo, file), { force: true });
    await removeEmptyParents(plan.repo, path.dirname(file));
    await hooks.onStep?.(`moved ${++done}`);
  }
  if (plan.merge) await finishMerge(plan.repo, plan.merge, hooks);
  await rm(path.join(folder, "plan.json"));
  await hooks.onStep?.("plan removed");
  await rm(folder, { recursive: true, force: true });
  return true;
}

/**
 * A merge's last steps: the index takes the merge's entries for the files (a copy updated, then
 * renamed over the index, so a kill leaves the old index or the new one, never git's lock), then
 * the ref moves, checked against where it was (a ref someone moved meanwhile is not overwritten).
 * Both can be redone: an entry set again is the same, a ref already moved is left.
 */
async function finishMerge(repo: string, merge: NonNullable<ApplyPlan["merge"]>, hooks: StepHooks): Promise<void> {
  const indexFile = (await repoGit(repo, ["rev-parse", "--path-format=absolute", "--git-path", "index"])).stdout.trim();
  if (existsSync(`${indexFile}.lock`)) throw new Error(`another git command holds ${indexFile}.lock: the merge's files are in place; run /worktree again once it is done`);
  const scratch = `${indexFile}.hermes-merge`;
  await copyFile(indexFile, scratch);
  await repoGit(repo, ["update-index", "-z", "--index-info"], { env: { GIT_INDEX_FILE: scratch }, input: merge.index });
  await rename(scratch, indexFile);
  await hooks.onStep?.("index updated");
  const current = (await repoGit(repo, ["rev-parse", "--verify", merge.ref])).stdout.trim();
  if (current !== merge.commit) await repoGit(repo, ["update-ref", "-m", "hermes: merge a chat's worktree", merge.ref, merge.commit, merge.old]);
  await hooks.onStep?.("ref moved");
}

/** As git apply does: a folder a deletion left empty goes too (up to the checkout's top). */
async function removeEmptyParents(repo: string, relative: string): Promise<void> {
  for (let folder = relative; folder !== "." && folder !== "" && folder !== path.sep; folder = path.dirname(folder)) {
    try {
      await rmdir(path.join(repo, folder));
    } catch {
      return; // expected: not empty (or gone): the folders above are not empty either
    }
  }
}
