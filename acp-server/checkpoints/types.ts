// The checkpoint engine's public shapes: what the loop, the slash commands and the panel
// will receive. Plain data, no behaviour.

export interface CheckpointLimits {
  /** Over this many files (after ignores) no checkpoint is taken. */
  maxFiles: number;
  /** Files bigger than this are skipped and reported as not covered. */
  maxFileBytes: number;
}

export const DEFAULT_LIMITS: CheckpointLimits = { maxFiles: 50_000, maxFileBytes: 10 * 1024 * 1024 };

/** "pre": before the turn's first change. "post": when the turn ended (the conflict baseline). */
export type CheckpointPhase = "pre" | "post";

export interface CheckpointMeta {
  sessionId: string;
  turn: number;
  phase: CheckpointPhase;
  /** Milliseconds since the epoch, from the store's clock. */
  time: number;
  /** The first characters of the turn's prompt. */
  prompt: string;
  /** Paths left out of the snapshot (too big, nested repositories). */
  notCovered: NotCovered[];
  /** For a post checkpoint: what the turn changed (capped), and how many in all. */
  changed?: string[];
  changedCount?: number;
}

export interface Checkpoint extends CheckpointMeta {
  /** The commit holding the snapshot. */
  commit: string;
  ref: string;
}

export interface NotCovered {
  path: string;
  reason: "too-big" | "nested-repository";
  /** For too-big files. */
  bytes?: number;
}

export type FileChangeStatus = "added" | "modified" | "deleted" | "renamed" | "mode-changed" | "type-changed";

export interface FileChange {
  path: string;
  /** For a rename: where it came from. */
  oldPath?: string;
  status: FileChangeStatus;
  oldMode?: string;
  newMode?: string;
  /** Set by diff() (git's numstat); checkpoint() leaves it out to stay fast. */
  binary?: boolean;
}

export type CheckpointResult =
  | { ok: true; checkpoint: Checkpoint; changes: FileChange[]; notCovered: NotCovered[] }
  | { ok: false; reason: string };

export interface DiffResult {
  changes: FileChange[];
  /** Unified diff of the text files (binary ones are only named), capped. */
  patch: string;
  patchTruncated: boolean;
}

/** One step of a restore: make `path` hold this blob/mode, or be absent. */
export interface RestoreOp {
  path: string;
  /** Absent in the target: delete. */
  target?: { oid: string; mode: string };
  /** What the backup snapshot holds (absent: the file is new to the restore). */
  before?: { oid: string; mode: string };
}

export interface RestoreConflict {
  path: string;
  /** Why applying this path could lose the user's work. */
  reason: "changed-after-turn" | "changed-between-turns" | "not-covered";
}

export interface SensitiveChange {
  path: string;
  reason: string;
}

export interface RestorePlan {
  sessionId: string;
  /** The commit whose state the workspace returns to. */
  targetCommit: string;
  targetTurn: number;
  /** The snapshot of the workspace when the plan was made. */
  currentCommit: string;
  /** The conflict baseline: the snapshot taken when the latest turn being undone ended. */
  baselineCommit: string;
  ops: RestoreOp[];
  diff: DiffResult;
  conflicts: RestoreConflict[];
  sensitive: SensitiveChange[];
  /** Paths the guard will not touch (outside the workspace, through a symlink...). */
  refused: { path: string; reason: string }[];
}

export interface RestoreOptions {
  /** Also restore the paths named as conflicts. */
  overwriteConflicts?: boolean;
  /** Test hook: called after each applied op; may pause (a crash test kills the process there). */
  onApplied?: (done: number, total: number) => void | Promise<void>;
}

export interface RestoreResult {
  /** The snapshot of the state before the restore (a restore can itself be undone). */
  backupCommit: string;
  applied: string[];
  /** Left as they were: conflicts not overwritten, files changed after the preview, refused paths. */
  skipped: { path: string; reason: string }[];
  failed: { path: string; error: string }[];
}

export interface RecoveryReport {
  /** The interrupted restore was completed. */
  completed: boolean;
  journalId: string;
  applied: number;
  /** Files found in neither the before nor the target state (someone changed them): left alone. */
  leftAlone: string[];
  failed: { path: string; error: string }[];
}
