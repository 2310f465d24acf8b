// `_meta["hermes/worktree"]` on Hermes's answers to session/new, session/load and session/fork:
// the git worktree the session works in (docs/worktrees.md), so a client can show its branch.
// Absent when the session works in the client's folder itself.
import * as z from "zod";

export const WORKTREE_META = "hermes/worktree";

export const worktreeInfoSchema = z.object({
  branch: z.string().min(1),
  /** The worktree's top folder. */
  path: z.string().min(1),
  /** The main checkout, where "apply" brings the work. */
  repo: z.string().min(1),
});
export type WorktreeInfo = z.infer<typeof worktreeInfoSchema>;

/** The worktree an answer's `_meta` names; undefined when it names none (or a malformed one). */
export function worktreeInfoOf(meta: Record<string, unknown> | null | undefined): WorktreeInfo | undefined {
  const parsed = worktreeInfoSchema.safeParse(meta?.[WORKTREE_META]);
  return parsed.success ? parsed.data : undefined;
}
