// Restoring the workspace to a checkpoint. planRestore snapshots the workspace as it is now and
// compares it with the target (the preview, the files that would change) and with the
// conflict baseline: the snapshot taken when the latest turn being undone ended. A file that
// differs from that baseline was changed after the turn (by the user, another session...) and
// is named as a conflict; restore() leaves conflicts alone unless told to overwrite them.
// restore() takes a backup snapshot first, journals the ops durably, applies them, then
// removes the journal; see recover.ts for what happens when it is interrupted.
import { randomBytes } from "node:crypto";
import path from "node:path";
import { sensitiveReason } from "../security/sensitive-paths";
import { applyOps, gitBlobReader } from "./apply-ops";
import { createCommit, setRef, treeOf } from "./commit";
import { backupRef, commitMessage, type BackupMeta } from "./refs";
import { removeJournal, writeJournal } from "./restore-journal";
import { readNestedRepos, type ShadowRepo } from "./shadow-repo";
import { snapshotTree, type SnapshotOptions } from "./snapshot";
import { describeDiff, rawDiff, type RawEntry } from "./tree-diff";
import { guardedPath } from "./path-guard";
import type { Checkpoint, RestoreConflict, RestoreOp, RestoreOptions, RestorePlan, RestoreResult } from "./types";
import { AgentError } from "../util/agent-error";

/** A restore that cannot go ahead (nothing to undo, another restore running, no snapshot). */
export class RestoreError extends AgentError<"invalid_request"> {
  constructor(message: string) {
    super("invalid_request", message, {});
    this.name = "RestoreError";
  }
}

/** In-process guard: one restore per shadow repository at a time (the journal guards across processes). */
const restoring = new Set<string>();

export interface RestoreDeps {
  repo: ShadowRepo;
  snapshot: SnapshotOptions;
  now: () => number;
}

/** A snapshot of the workspace as a (ref-less) commit, for comparisons. */
async function snapshotCommit(deps: RestoreDeps, message: string): Promise<{ commit: string; tooBig: Set<string> }> {
  const result = await snapshotTree(deps.repo, deps.snapshot);
  if (!result.ok) throw new RestoreError(`cannot snapshot the workspace before restoring: ${result.reason}`);
  const commit = await createCommit(deps.repo.git, result.tree, undefined, message, deps.now());
  return { commit, tooBig: new Set(result.notCovered.filter((entry) => entry.reason === "too-big").map((entry) => entry.path)) };
}

function toOp(entry: RawEntry): RestoreOp {
  const op: RestoreOp = { path: entry.path };
  if (entry.status !== "D") op.target = { oid: entry.newOid, mode: entry.newMode };
  if (entry.status !== "A") op.before = { oid: entry.oldOid, mode: entry.oldMode };
  return op;
}

/**
 * What restoring `target` would change. `baseline` is the conflict baseline (the post-turn
 * checkpoint of the latest turn being undone, or its latest checkpoint when the turn never
 * finished).
 */
export async function planRestore(
  deps: RestoreDeps,
  sessionId: string,
  target: Checkpoint,
  baseline: Checkpoint,
  /** (post of turn k, pre of turn k+1) for the turns being undone: what changed between them was not the agent. */
  betweenTurns: [Checkpoint, Checkpoint][] = [],
): Promise<RestorePlan> {
  const current = await snapshotCommit(deps, commitMessage({ kind: "backup", sessionId, time: deps.now() }));
  const git = deps.repo.git;
  const [entries, sinceTurn, diff, ...gaps] = await Promise.all([
    rawDiff(git, current.commit, target.commit, { renames: false }),
    rawDiff(git, baseline.commit, current.commit, { renames: false }),
    describeDiff(git, current.commit, target.commit),
    ...betweenTurns.map(([post, nextPre]) => rawDiff(git, post.commit, nextPre.commit, { renames: false })),
  ]);
  const changedAfterTurn = new Set(sinceTurn.map((entry) => entry.path));
  const changedBetweenTurns = new Set(gaps.flatMap((gap) => gap.map((entry) => entry.path)));
  const nested = readNestedRepos(deps.repo.dir);
  const ops: RestoreOp[] = [];
  const conflicts: RestoreConflict[] = [];
  const refused: RestorePlan["refused"] = [];
  const sensitive: RestorePlan["sensitive"] = [];
  // A path the target holds but the current snapshot does not cover (too big) would be
  // overwritten with no backup: named as a conflict too.
  for (const tooBig of current.tooBig) {
    if (entries.some((entry) => entry.path === tooBig)) conflicts.push({ path: tooBig, reason: "not-covered" });
  }
  const removedFirst = new Set(entries.filter((entry) => entry.status === "D").map((entry) => entry.path));
  for (const entry of entries) {
    if (entry.newMode === "160000" || entry.oldMode === "160000") continue; // gitlinks are never restored
    const guarded = guardedPath(deps.repo.workspace, entry.path, nested, removedFirst);
    if ("reason" in guarded) {
      refused.push({ path: entry.path, reason: guarded.reason });
      continue;
    }
    ops.push(toOp(entry));
    if (!current.tooBig.has(entry.path)) {
      if (changedAfterTurn.has(entry.path)) conflicts.push({ path: entry.path, reason: "changed-after-turn" });
      else if (changedBetweenTurns.has(entry.path)) conflicts.push({ path: entry.path, reason: "changed-between-turns" });
    }
    const reason = sensitiveReason(guarded.path);
    if (reason) sensitive.push({ path: entry.path, reason });
  }
  return {
    sessionId,
    targetCommit: target.commit,
    targetTurn: target.turn,
    currentCommit: current.commit,
    baselineCommit: baseline.commit,
    ops,
    diff,
    conflicts,
    sensitive,
    refused,
  };
}

export async function restore(deps: RestoreDeps, plan: RestorePlan, options: RestoreOptions = {}): Promise<RestoreResult> {
  const { repo } = deps;
  if (restoring.has(repo.dir)) throw new RestoreError("another restore of this workspace is running");
  restoring.add(repo.dir);
  try {
    // The backup comes first: whatever happens next, the state before the restore is kept.
    const time = deps.now();
    const meta: BackupMeta = { kind: "backup", sessionId: plan.sessionId, time };
    const backup = await snapshotCommit(deps, commitMessage(meta));
    const unique = randomBytes(4).toString("hex");
    await setRef(repo.git, backupRef(plan.sessionId, time, unique), backup.commit);

    const skipped: RestoreResult["skipped"] = plan.refused.map((entry) => ({ path: entry.path, reason: `refused: ${entry.reason}` }));
    // Files changed between the preview and now were never shown to the user: never overwritten.
    const changedSincePlan = new Set(
      (await treeOf(repo.git, plan.currentCommit)) === (await treeOf(repo.git, backup.commit))
        ? []
        : (await rawDiff(repo.git, plan.currentCommit, backup.commit, { renames: false })).map((entry) => entry.path),
    );
    const conflicted = new Set(plan.conflicts.map((conflict) => conflict.path));
    // A file too big to back up could not be brought back after an overwrite: always kept.
    const uncovered = new Set(plan.conflicts.filter((conflict) => conflict.reason === "not-covered").map((conflict) => conflict.path));
    const ops: RestoreOp[] = [];
    for (const op of plan.ops) {
      if (changedSincePlan.has(op.path)) skipped.push({ path: op.path, reason: "changed after the preview" });
      else if (uncovered.has(op.path)) skipped.push({ path: op.path, reason: "too big to back up, so never overwritten" });
      else if (conflicted.has(op.path) && !options.overwriteConflicts) skipped.push({ path: op.path, reason: "changed after the turn (conflict)" });
      else ops.push(op);
    }

    try {
      writeJournal(repo.dir, {
        version: 1,
        id: unique,
        pid: process.pid,
        startedAt: time,
        sessionId: plan.sessionId,
        backupCommit: backup.commit,
        targetCommit: plan.targetCommit,
        ops,
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") {
        throw new RestoreError(`an unfinished restore of this workspace is journaled in ${path.join(repo.dir, "hermes-restore.json")}; it is completed when checkpoints are next opened`);
      }
      throw error;
    }
    const outcome = await applyOps(ops, { readBlobs: gitBlobReader(repo.git), realRoot: repo.workspace, nestedRepos: readNestedRepos(repo.dir), onApplied: options.onApplied });
    removeJournal(repo.dir);
    for (const file of outcome.leftAlone) skipped.push({ path: file, reason: "changed while restoring" });
    return { backupCommit: backup.commit, applied: [...outcome.applied, ...outcome.unchanged].sort(), skipped, failed: outcome.failed };
  } finally {
    restoring.delete(repo.dir);
  }
}
