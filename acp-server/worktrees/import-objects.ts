// Before Hermes reads a chat worktree's branch (its diff, state, apply, review): the git objects
// its sandboxed commands wrote privately go into the main repository first, verified by content
// (security/worktree-objects.ts). Fails closed: objects that could not be brought in, or that
// were planted under a false name, stop the operation with a clear error.
import { importWorktreeObjects } from "../security/worktree-objects";
import { ToolError } from "../tools/registry";
import type { SessionWorktree } from "./session-worktree";

export async function importChatObjects(worktree: SessionWorktree): Promise<void> {
  let dropped: string[];
  try {
    ({ dropped } = await importWorktreeObjects(worktree.path));
  } catch (err) {
    throw new ToolError((err as Error).message ?? String(err));
  }
  if (dropped.length > 0) {
    throw new ToolError(
      `The worktree ${worktree.path} held git objects whose content does not match their names (${dropped.slice(0, 5).join(", ")}${dropped.length > 5 ? ", …" : ""}); they were not brought into ${worktree.repo}, so its branch ${worktree.branch} may be broken. Check it with \`git -C ${worktree.repo} fsck\` before using it.`,
    );
  }
}
