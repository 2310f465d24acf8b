// The shapes of `_hermes/worktree/changes` and `_hermes/worktree/apply` (common/hermes-methods.ts):
// the panel's "Review & apply" of a chat that works in its own git worktree. The changes are
// each file's text at the chat's start and now; the panel cuts hunks from them
// (common/review-hunks.ts), the user decides each, and the apply names, per file, the accepted
// hunks by index and the version they were cut from. Hermes cuts the same hunks again and applies
// only those, with /worktree apply's checks; a file that changed since is refused, not guessed at.
import * as z from "zod";

const relativePath = z.string().min(1).max(4096);

export const worktreeChangeSchema = z.object({
  /** Relative to the repository's top. */
  path: relativePath,
  /** At the chat's start; null: the chat added the file. */
  oldText: z.string().nullable(),
  /** Now; null: the chat deleted the file. */
  newText: z.string().nullable(),
  /** Binary, a link or too large to review here (texts are null): /worktree apply brings it. */
  unreviewable: z.boolean(),
  /** Names this pair of texts (a hash): an apply of hunks cut from other texts is refused. */
  version: z.string(),
});
export type WorktreeChange = z.infer<typeof worktreeChangeSchema>;

export const worktreeChangesParamsSchema = z.object({ sessionId: z.string().min(1) });

export const worktreeChangesSchema = z.object({
  /** Null: the chat works in the folder itself (or its worktree was discarded). */
  worktree: z.object({ branch: z.string(), path: z.string(), repo: z.string() }).nullable(),
  files: z.array(worktreeChangeSchema),
});
export type WorktreeChanges = z.infer<typeof worktreeChangesSchema>;

export const worktreeApplyParamsSchema = z.object({
  sessionId: z.string().min(1),
  files: z.array(z.object({ path: relativePath, version: z.string().min(1), accepted: z.array(z.number().int().min(0).max(100_000)).max(100_000) })).min(1).max(10_000),
});
export type WorktreeApplyParams = z.infer<typeof worktreeApplyParamsSchema>;

export const worktreeApplyResultSchema = z.object({
  status: z.enum(["applied", "nothing", "refused"]),
  /** The files applied, or the ones that stood in the way. */
  files: z.array(z.string()),
  /** What the user reads (the same words go in the chat's record when it was refused). */
  message: z.string(),
});
export type WorktreeApplyResult = z.infer<typeof worktreeApplyResultSchema>;
