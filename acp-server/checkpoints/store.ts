// The checkpoint engine's front door: one CheckpointStore per workspace. The agent loop calls
// checkpoint() before a turn's first change and after the turn; /checkpoints, /rollback and
// /undo call list(), planRestore() (the preview with conflicts), then restore(). Opening a
// store finishes any restore a crash interrupted (recovery). Without git, open() says why
// checkpoints are off instead of failing.
import { realpathSync, statSync } from "node:fs";
import path from "node:path";
import { realPath } from "../security/sensitive-paths";
import { isInside } from "../util/inside-folder";
import { createCommit, setRef } from "./commit";
import { findGit } from "./git";
import { pruneCheckpoints, type PruneResult } from "./prune";
import { CHANGED_PATHS_KEPT, checkpointRef, commitMessage, excerpt, listCheckpoints } from "./refs";
import { recoverRestore } from "./recover";
import { planRestore, restore, RestoreError, type RestoreDeps } from "./restore";
import { openShadowRepo, type ShadowRepo } from "./shadow-repo";
import { snapshotTree } from "./snapshot";
import { describeDiff, EMPTY_TREE, rawDiff, toFileChange } from "./tree-diff";
import {
  DEFAULT_LIMITS,
  type Checkpoint,
  type CheckpointLimits,
  type CheckpointMeta,
  type CheckpointPhase,
  type CheckpointResult,
  type DiffResult,
  type RecoveryReport,
  type RestoreOptions,
  type RestorePlan,
  type RestoreResult,
} from "./types";

export interface OpenOptions {
  hermesHome: string;
  /** checkpoints.enabled; false: open() answers why checkpoints are off. */
  enabled?: boolean;
  limits?: Partial<CheckpointLimits>;
  /** checkpoints.keep_days, the default for prune(). */
  keepDays?: number;
  /** Where git is looked up (PATH) and the base of its scrubbed environment. */
  env?: NodeJS.ProcessEnv;
  /** The clock (ms); tests inject one to prune by age without waiting. */
  now?: () => number;
}

export interface TurnSummary {
  turn: number;
  time: number;
  prompt: string;
  /** The pre-turn checkpoint (what /rollback N restores). */
  commit: string;
  changed?: string[];
  changedCount?: number;
}

export type OpenResult =
  | { ok: true; store: CheckpointStore; recovery?: RecoveryReport }
  | { ok: false; reason: string };

export interface CheckpointRequest {
  sessionId: string;
  turn: number;
  prompt?: string;
  phase?: CheckpointPhase;
}

/** Opens the checkpoints of `workspace`, finishing an interrupted restore first. */
export async function openCheckpointStore(workspace: string, options: OpenOptions): Promise<OpenResult> {
  if (options.enabled === false) return { ok: false, reason: "checkpoints are turned off (checkpoints.enabled: false in config.yaml)" };
  const env = options.env ?? process.env;
  const git = findGit(env);
  if (!git) return { ok: false, reason: "git was not found on PATH, so checkpoints are off (install git to enable /undo and /rollback)" };
  let realWorkspace: string;
  try {
    realWorkspace = realpathSync(workspace);
    if (!statSync(realWorkspace).isDirectory()) return { ok: false, reason: `${workspace} is not a folder` };
  } catch {
    // expected: ENOENT or no access: the reason says the workspace does not exist, and checkpoints are off for it
    return { ok: false, reason: `${workspace} does not exist` };
  }
  const checkpointsRoot = realPath(path.join(options.hermesHome, "checkpoints"));
  if (isInside(checkpointsRoot, realWorkspace)) return { ok: false, reason: "the workspace is inside Hermes' checkpoint storage" };
  let repo: ShadowRepo;
  try {
    repo = await openShadowRepo(git, realWorkspace, options.hermesHome, env);
  } catch (error) {
    return { ok: false, reason: `the checkpoint repository could not be opened: ${(error as Error).message}` };
  }
  const store = new CheckpointStore(repo, options);
  const recovery = await recoverRestore(repo);
  return recovery ? { ok: true, store, recovery } : { ok: true, store };
}

export class CheckpointStore {
  readonly limits: CheckpointLimits;
  private readonly now: () => number;
  private readonly keepDays: number;
  private readonly hermesHome: string;
  /** The newest checkpoint per session (the parent of the next one). */
  private readonly latest = new Map<string, Checkpoint>();

  constructor(
    private readonly repo: ShadowRepo,
    options: OpenOptions,
  ) {
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.now = options.now ?? Date.now;
    this.keepDays = options.keepDays ?? 14;
    this.hermesHome = options.hermesHome;
  }

  /** The workspace's real path. */
  get workspace(): string {
    return this.repo.workspace;
  }

  /** The shadow repository (GIT_DIR). */
  get repositoryDir(): string {
    return this.repo.dir;
  }

  /**
   * Snapshots the workspace. "pre" before a turn's first change, "post" when it ends (the
   * conflict baseline for later restores). Returns the files changed since the session's
   * previous checkpoint, or why no checkpoint was taken (over the file cap).
   */
  async checkpoint({ sessionId, turn, prompt = "", phase = "pre" }: CheckpointRequest): Promise<CheckpointResult> {
    if (!Number.isInteger(turn) || turn < 0) throw new RangeError(`turn must be a non-negative integer, got ${turn}`);
    const snap = await snapshotTree(this.repo, { limits: this.limits, hermesHome: this.hermesHome });
    if (!snap.ok) return snap;
    const parent = await this.latestOf(sessionId);
    const entries = await rawDiff(this.repo.git, parent?.commit ?? EMPTY_TREE, snap.tree, { renames: true });
    const changes = parent ? entries.map((entry) => toFileChange(entry)) : [];
    const meta: CheckpointMeta = {
      sessionId,
      turn,
      phase,
      time: this.now(),
      prompt: excerpt(prompt),
      notCovered: snap.notCovered.slice(0, 100),
    };
    if (phase === "post") {
      meta.changed = changes.slice(0, CHANGED_PATHS_KEPT).map((change) => change.path);
      meta.changedCount = changes.length;
    }
    const commit = await createCommit(this.repo.git, snap.tree, parent?.commit, commitMessage(meta), meta.time);
    const ref = checkpointRef(sessionId, phase, turn);
    await setRef(this.repo.git, ref, commit);
    const checkpoint: Checkpoint = { ...meta, commit, ref };
    this.latest.set(sessionId, checkpoint);
    return { ok: true, checkpoint, changes, notCovered: snap.notCovered };
  }

  /** A session's checkpoints, oldest turn first (pre before post). */
  list(sessionId: string): Promise<Checkpoint[]> {
    return listCheckpoints(this.repo.git, sessionId);
  }

  /**
   * One line per turn for /checkpoints: turn, time and prompt (from the pre checkpoint) and the
   * files the turn changed (from its post checkpoint; unknown while the turn has none).
   */
  async turns(sessionId: string): Promise<TurnSummary[]> {
    const summaries = new Map<number, TurnSummary>();
    for (const checkpoint of await this.list(sessionId)) {
      if (checkpoint.phase === "pre") {
        summaries.set(checkpoint.turn, { turn: checkpoint.turn, time: checkpoint.time, prompt: checkpoint.prompt, commit: checkpoint.commit });
        continue;
      }
      const summary = summaries.get(checkpoint.turn);
      if (summary) {
        summary.changed = checkpoint.changed ?? [];
        summary.changedCount = checkpoint.changedCount ?? 0;
      }
    }
    return [...summaries.values()];
  }

  /** Changes from a checkpoint (commit) to another one or, for `to` = "worktree", to the workspace as it is now. */
  async diff(from: string, to: string): Promise<DiffResult> {
    let target = to;
    if (to === "worktree") {
      const snap = await snapshotTree(this.repo, { limits: this.limits, hermesHome: this.hermesHome });
      if (!snap.ok) throw new RestoreError(snap.reason);
      target = snap.tree;
    }
    return describeDiff(this.repo.git, from, target);
  }

  /** The preview of restoring the workspace to before `turn` of the session. */
  async planRestore(sessionId: string, turn: number): Promise<RestorePlan> {
    const checkpoints = await this.list(sessionId);
    const target = checkpoints.find((checkpoint) => checkpoint.turn === turn && checkpoint.phase === "pre");
    if (!target) throw new RestoreError(`no checkpoint before turn ${turn} in this session`);
    const newest = checkpoints.at(-1) ?? target; // never empty: target is one of them
    const baseline = checkpoints.filter((checkpoint) => checkpoint.turn === newest.turn).find((checkpoint) => checkpoint.phase === "post") ?? newest;
    // Between one undone turn's end and the next one's start, changes were someone else's.
    const betweenTurns: [Checkpoint, Checkpoint][] = [];
    const undone = checkpoints.filter((checkpoint) => checkpoint.turn >= turn);
    for (const post of undone.filter((checkpoint) => checkpoint.phase === "post")) {
      const nextPre = undone.find((checkpoint) => checkpoint.phase === "pre" && checkpoint.turn > post.turn);
      if (nextPre) betweenTurns.push([post, nextPre]);
    }
    return planRestore(this.deps(), sessionId, target, baseline, betweenTurns);
  }

  /** The preview of undoing the session's last turn that changed files. */
  async planUndo(sessionId: string): Promise<RestorePlan> {
    const last = (await this.list(sessionId)).filter((checkpoint) => checkpoint.phase === "pre").at(-1);
    if (!last) throw new RestoreError("this session has no checkpoint to undo");
    return this.planRestore(sessionId, last.turn);
  }

  restore(plan: RestorePlan, options: RestoreOptions = {}): Promise<RestoreResult> {
    return restore(this.deps(), plan, options);
  }

  /** A file's content as a checkpoint holds it (a blob id from a plan's ops), for previews. */
  async readBlob(oid: string): Promise<Buffer> {
    return (await this.repo.git.run(["cat-file", "blob", oid])).stdout;
  }

  /** Drops checkpoints older than keep_days (default: the store's). */
  prune(keepDays = this.keepDays): Promise<PruneResult> {
    this.latest.clear();
    return pruneCheckpoints(this.repo, keepDays, this.now());
  }

  /** Finishes an interrupted restore (open() already does; for a caller that retries later). */
  recover(): Promise<RecoveryReport | undefined> {
    return recoverRestore(this.repo);
  }

  private deps(): RestoreDeps {
    return { repo: this.repo, snapshot: { limits: this.limits, hermesHome: this.hermesHome }, now: this.now };
  }

  private async latestOf(sessionId: string): Promise<Checkpoint | undefined> {
    const cached = this.latest.get(sessionId);
    if (cached) return cached;
    const all = await this.list(sessionId);
    return all[all.length - 1];
  }
}
