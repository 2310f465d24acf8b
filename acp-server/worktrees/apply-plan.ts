// Crash-safe `/worktree apply` (as a patch): a kill -9 at any moment leaves the main checkout
// with either none of the session's change or all of it. `git apply` writes file after file, so
// it cannot promise that; instead:
//   1. stage: the patch is applied to a scratch index built from HEAD (this is the check: it
//      goes in whole or not at all), and the new files are written out of it with
//      `git checkout-index --prefix` into a staging folder beside the worktree
//      ($HERMES_HOME/worktrees/<repo>-<hash>/.apply-<session>/, where no sandbox can write: a
//      chat's commands reach its worktree, and its git folder in the repository, never this);
//   2. commit point: plan.json is renamed into place. It holds one op per file, in the terms of
//      a checkpoint restore (checkpoints/apply-ops.ts): "this path holds what it holds now
//      (before), make it hold the staged version (target), or be absent";
//   3. carry out: the ops run through the restore's own code: each file is written to a temp
//      sibling and renamed over its place (atomic per file), parents held without following
//      links, and only while the path still holds `before` or already holds `target`. Then the
//      plan goes, then the staging folder.
// A kill before 2 changes nothing in the checkout (the staging folder is thrown away next time);
// a kill after it is rolled forward by the next use of the worktree (finishInterruptedApply:
// /worktree, apply, discard, `hermes worktrees`, cleanup), which redoes step 3: a file already
// written holds its target and is skipped, and a file the user changed since is left as the user
// left it and named (never overwritten). The user's `.git` only gains objects.
import { existsSync, lstatSync, mkdtempSync, readFileSync, readlinkSync, rmSync } from "node:fs";
import { copyFile, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import * as z from "zod";
import { applyOps, removeRestoreLeftovers, type ApplyOutcome as OpsOutcome } from "../checkpoints/apply-ops";
import { blobId, diskState } from "../checkpoints/blob-hash";
import { guardedPath } from "../checkpoints/path-guard";
import type { RestoreOp } from "../checkpoints/types";
import { realPath } from "../security/sensitive-paths";
import { ToolError } from "../tools/registry";
import { createLogger } from "../util/log";
import { lstatOrUndefined } from "../util/path-kind";
import { repoGit } from "./repo-git";
import type { SessionWorktree } from "./session-worktree";

const blobState = z.object({ oid: z.string().regex(/^[0-9a-f]{40}$/), mode: z.string().regex(/^(100644|100755|120000)$/) });

const planSchema = z.object({
  v: z.literal(2),
  /** The main checkout's top folder, resolved: it must still be the worktree's repository. */
  repo: z.string(),
  ops: z.array(z.object({ path: z.string(), before: blobState.optional(), target: blobState.optional() })),
  /** A merge: after the files, the index entries (`update-index -z --index-info` input), then the ref moves from `old` to `commit`. */
  merge: z.object({ ref: z.string(), old: z.string(), commit: z.string(), index: z.string() }).optional(),
});
type ApplyPlan = z.infer<typeof planSchema>;

const log = createLogger("worktrees");

/** What carrying out a plan did to the checkout: files left as the user had them, and why. */
export interface CarriedOut {
  kept: { file: string; reason: string }[];
}

/** The crash test's way to stop at a known point (test/support/worktree-apply-child.ts). */
export interface StepHooks {
  onStep?: (point: string) => Promise<void>;
}

export type StageOutcome =
  | { staged: true }
  /** The patch does not apply to HEAD (git's words). */
  | { staged: false; stderr: string }
  /** Paths the apply may not write in the checkout (through a symlinked folder, onto a folder…). */
  | { staged: false; unsafe: { file: string; reason: string }[] };

/**
 * Where a worktree keeps an apply in progress: beside the worktree, in Hermes's own folder for
 * the repository's worktrees (with `.apply.lock`), never in the repository or the worktree: a
 * chat's sandboxed commands can write in both, and must not plant a plan for Hermes to carry out.
 */
function applyFolder(worktree: SessionWorktree): string {
  return path.join(path.dirname(worktree.path), `.apply-${path.basename(worktree.path)}`);
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
    if (applied.code !== 0) return { staged: false, stderr: applied.stderr };
    return commitPlan(worktree, folder, env, files, hooks);
  });
}

/**
 * The same for a merge (`apply --merge`): `commit`, the merge commit already written (an object
 * only), becomes the checkout's: its files are staged, and the plan also carries the index
 * entries and the ref move, done last. `files`: every path that differs between HEAD and it.
 */
export function stageMerge(worktree: SessionWorktree, commit: string, files: string[], hooks: StepHooks = {}): Promise<StageOutcome> {
  return withFreshStaging(worktree, async (folder, env) => {
    const symbolic = await repoGit(worktree.repo, ["symbolic-ref", "-q", "HEAD"], { okCodes: [1] });
    const ref = symbolic.code === 0 ? symbolic.stdout.trim() : "HEAD";
    const old = (await repoGit(worktree.repo, ["rev-parse", "--verify", "HEAD"])).stdout.trim();
    await repoGit(worktree.repo, ["read-tree", commit], { env });
    const entries = (await repoGit(worktree.repo, ["ls-files", "-s", "-z", "--", ...files], { env })).stdout.split("\0").filter(Boolean);
    const present = new Set(entries.map((entry) => entry.slice(entry.indexOf("\t") + 1)));
    const removals = files.filter((file) => !present.has(file)).map((file) => `0 ${"0".repeat(old.length)}\t${file}`);
    const index = [...entries, ...removals].map((line) => `${line}\0`).join("");
    return commitPlan(worktree, folder, env, files, hooks, { ref, old, commit, index });
  });
}

/**
 * Runs `work` on a fresh staging folder (what a kill left before its commit point is dropped)
 * and a scratch index (`env`: GIT_INDEX_FILE), so the repository's own index is not touched
 * before the commit point; the scratch index goes afterwards, and the staging folder too unless
 * a plan was committed in it.
 */
async function withFreshStaging(worktree: SessionWorktree, work: (folder: string, env: Record<string, string>) => Promise<StageOutcome>): Promise<StageOutcome> {
  const folder = applyFolder(worktree);
  await rm(folder, { recursive: true, force: true });
  await mkdir(path.join(folder, "files"), { recursive: true, mode: 0o700 });
  const scratch = mkdtempSync(path.join(os.tmpdir(), "hermes-apply-index-"));
  let outcome: StageOutcome | undefined;
  try {
    outcome = await work(folder, { GIT_INDEX_FILE: path.join(scratch, "index") });
    return outcome;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    if (!outcome?.staged) await rm(folder, { recursive: true, force: true });
  }
}

/**
 * Writes out the new versions of `files` from the scratch index, makes an op of each (what the
 * checkout holds now, what it is to hold) and commits to the plan. Refused before the commit
 * point when a path cannot be written safely (the checkout must hold no symlink on the way).
 */
async function commitPlan(worktree: SessionWorktree, folder: string, env: Record<string, string>, files: string[], hooks: StepHooks, merge?: ApplyPlan["merge"]): Promise<StageOutcome> {
  const repo = realPath(worktree.repo);
  const unsafe = files.flatMap((file) => {
    const guarded = guardedPath(repo, file, []);
    return "reason" in guarded ? [{ file, reason: guarded.reason }] : [];
  });
  if (unsafe.length > 0) return { staged: false, unsafe };
  // "<mode> <oid> <stage>\t<path>" for what the staged tree holds of `files`.
  const entries = (await repoGit(worktree.repo, ["ls-files", "-s", "-z", "--", ...files], { env })).stdout.split("\0").filter(Boolean);
  const present = new Set(entries.map((entry) => entry.slice(entry.indexOf("\t") + 1)));
  // A submodule's commit (a gitlink) is no file to write: refused by name, not half applied.
  for (const entry of entries.filter((line) => line.startsWith("160000 "))) {
    unsafe.push({ file: entry.slice(entry.indexOf("\t") + 1), reason: "a git repository inside the worktree (a submodule): Hermes brings files, not repositories; add or update it in your checkout with `git submodule`" });
  }
  if (unsafe.length > 0) return { staged: false, unsafe };
  const staging = path.join(folder, "files");
  const write = files.filter((file) => present.has(file));
  if (write.length > 0) await repoGit(worktree.repo, ["checkout-index", "--force", `--prefix=${staging}/`, "-z", "--stdin"], { env, input: write.join("\0") });
  const ops: RestoreOp[] = [];
  for (const file of files) {
    const before = diskState(path.join(repo, file));
    if (before.kind === "other") unsafe.push({ file, reason: "the checkout has a folder or special file there" });
    const target = present.has(file) ? diskState(path.join(staging, file)) : ({ kind: "absent" } as const);
    if (target.kind === "other") throw new ToolError(`staging ${file} did not produce a file`);
    ops.push({ path: file, ...(before.kind === "blob" ? { before: { oid: before.oid, mode: before.mode } } : {}), ...(target.kind === "blob" ? { target: { oid: target.oid, mode: target.mode } } : {}) });
  }
  if (unsafe.length > 0) return { staged: false, unsafe };
  const plan: ApplyPlan = { v: 2, repo, ops, ...(merge ? { merge } : {}) };
  await writeFile(path.join(folder, "plan.tmp"), JSON.stringify(plan));
  await hooks.onStep?.("staged");
  await rename(path.join(folder, "plan.tmp"), path.join(folder, "plan.json")); // the commit point
  return { staged: true };
}

/**
 * Step 3, for an apply just staged or one a kill interrupted: what it did, or undefined when
 * there was none to finish.
 */
export async function finishInterruptedApply(worktree: SessionWorktree, hooks: StepHooks = {}): Promise<CarriedOut | undefined> {
  const folder = applyFolder(worktree);
  let text: string;
  try {
    text = await readFile(path.join(folder, "plan.json"), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    await rm(folder, { recursive: true, force: true }); // a staging without its commit point: never applied
    return undefined;
  }
  const plan = planSchema.parse(JSON.parse(text));
  if (plan.repo !== realPath(worktree.repo)) throw new ToolError(`${path.join(folder, "plan.json")} is an apply into ${plan.repo}, not into this worktree's repository ${worktree.repo}: remove the folder ${folder} by hand`);
  await hooks.onStep?.("moved 0");
  // Temp files a killed run left beside the files it was writing.
  removeRestoreLeftovers(plan.ops, plan.repo);
  const outcome = await applyOps(plan.ops, {
    readBlobs: async () => stagedBlobs(path.join(folder, "files"), plan.ops),
    realRoot: plan.repo,
    nestedRepos: [],
    onApplied: (done) => hooks.onStep?.(`moved ${done}`),
  });
  if (plan.merge) await finishMerge(plan.repo, plan.merge, path.join(folder, "ref-move"), hooks);
  await rm(path.join(folder, "plan.json"));
  await hooks.onStep?.("plan removed");
  await rm(folder, { recursive: true, force: true });
  const kept = keptFiles(outcome);
  // The caller says so to the user when it ran this apply; an apply finished after a kill is only here.
  if (kept.length > 0) log.warn("an apply into the main checkout left files as they were", { repo: plan.repo, kept });
  return { kept };
}

/** The staged new versions, by blob id (what each op's target names). */
function stagedBlobs(staging: string, ops: readonly RestoreOp[]): Map<string, Buffer> {
  const blobs = new Map<string, Buffer>();
  for (const op of ops) {
    if (!op.target) continue;
    const file = path.join(staging, op.path);
    const content = lstatSync(file).isSymbolicLink() ? readlinkSync(file, { encoding: "buffer" }) : readFileSync(file);
    blobs.set(blobId(content), content);
  }
  return blobs;
}

function keptFiles(outcome: OpsOutcome): CarriedOut["kept"] {
  return [
    ...outcome.leftAlone.map((file) => ({ file, reason: "changed in the checkout while the apply ran: your version was kept" })),
    ...outcome.failed.map(({ path: file, error }) => ({ file, reason: error })),
  ];
}

/**
 * A merge's last steps: the index takes the merge's entries for the files (a copy updated, then
 * renamed over the index, so a kill leaves the old index or the new one, never git's lock), then
 * the ref moves, checked against where it was (a ref someone moved meanwhile is not overwritten).
 * Both can be redone: an entry set again is the same, a ref already moved is left. `marker` (in
 * the apply's own folder) says a run began moving the ref, for the lock its killed git left.
 */
async function finishMerge(repo: string, merge: NonNullable<ApplyPlan["merge"]>, marker: string, hooks: StepHooks): Promise<void> {
  const indexFile = (await repoGit(repo, ["rev-parse", "--path-format=absolute", "--git-path", "index"])).stdout.trim();
  if (existsSync(`${indexFile}.lock`)) throw new Error(`another git command holds ${indexFile}.lock: the merge's files are in place; run /worktree again once it is done`);
  const scratch = `${indexFile}.hermes-merge`;
  await copyFile(indexFile, scratch);
  await repoGit(repo, ["update-index", "-z", "--index-info"], { env: { GIT_INDEX_FILE: scratch }, input: merge.index });
  await rename(scratch, indexFile);
  await hooks.onStep?.("index updated");
  const current = (await repoGit(repo, ["rev-parse", "--verify", merge.ref])).stdout.trim();
  if (current !== merge.commit) {
    await clearRefLock(repo, merge.ref, marker);
    await writeFile(marker, "");
    await hooks.onStep?.("moving ref");
    await repoGit(repo, ["update-ref", "-m", "hermes: merge a chat's worktree", merge.ref, merge.commit, merge.old]);
  }
  await hooks.onStep?.("ref moved");
}

/**
 * A kill -9 while `git update-ref` held the ref's lock leaves `<ref>.lock` behind, and every git
 * after it refuses to move the ref. A lock made after an earlier run of this apply began moving
 * the ref (its marker) is that run's killed git: removed, and said. Any other lock (older than
 * the marker, or no marker: nothing of ours was moving the ref) is another git's: kept, and the
 * apply stops naming it (it finishes on the next use).
 */
async function clearRefLock(repo: string, ref: string, marker: string): Promise<void> {
  const common = (await repoGit(repo, ["rev-parse", "--path-format=absolute", "--git-common-dir"])).stdout.trim();
  const lock = path.join(common, `${ref}.lock`);
  const held = lstatOrUndefined(lock);
  if (!held) return;
  const began = lstatOrUndefined(marker)?.mtimeMs;
  if (began !== undefined && held.isFile() && held.mtimeMs >= began) {
    log.warn("removed the ref lock a killed apply's git left behind", { repo, lock });
    await rm(lock, { force: true });
    return;
  }
  throw new Error(`another git command holds ${lock}: the merge's files are in place; run /worktree again once it is done (if no git is running, remove that file)`);
}
