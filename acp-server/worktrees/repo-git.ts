// git in the user's own repository, for worktrees: run the safe way (security/safe-git.ts:
// hooks, fsmonitor, external diff and pager overridden, no GIT_* of the caller, a time limit).
// Identity and the rest of the user's config stay (a merge commit is theirs).
import { safeGit, type GitRun, type SafeGitOptions } from "../security/safe-git";
import { ToolError } from "../tools/registry";

export type { GitRun } from "../security/safe-git";

/** Runs git in `cwd`; a non-zero exit not in `okCodes` throws with git's own words. */
export function repoGit(cwd: string, args: string[], options: SafeGitOptions = {}): Promise<GitRun> {
  return safeGit(cwd, args, options, (message) => new ToolError(message));
}
