// The worktree a session works in, told to the client in the `_meta` of its answers to
// session/new, load, resume and fork (common/worktree-meta.ts): the panel shows the branch and
// offers apply/discard. Nothing when the session works in the client's folder.
import type { WorktreeInfo } from "../../common/worktree-meta";
import { WORKTREE_META } from "./script-meta";
import type { SessionWorktree } from "../sessions/types";

export function worktreeAnswerMeta(worktree: SessionWorktree | undefined): { _meta?: Record<string, WorktreeInfo> } {
  if (!worktree) return {};
  return { _meta: { [WORKTREE_META]: { branch: worktree.branch, path: worktree.path, repo: worktree.repo } } };
}
