// A session that works in its own git worktree: made from the repository's HEAD (or a given
// base) on a new branch, outside the user's tree; the session's tools, sandbox, checkpoints and
// context files all see the worktree as the workspace (the session's cwd is inside it). Made
// with git's hooks and fsmonitor off (repo-git.ts): creating it runs nothing the repository names.
import { mkdirSync } from "node:fs";
import path from "node:path";
import * as z from "zod";
import type { SessionWorktree } from "../sessions/types";
import { repoGit } from "./repo-git";
import { branchNameFor, worktreePathFor } from "./worktree-location";

/** `_meta["hermes/worktree"]` on session/new: `true`, or what to start from (built on first use). */
export function worktreeRequestSchema() {
  return z.union([
    z.literal(true),
    z
      .object({
        /** The branch to create (default hermes/<id>-session). */
        branch: z.string().min(1).max(200).optional(),
        /** What to start from: a branch, tag or commit (default HEAD). */
        base: z.string().min(1).max(200).optional(),
        /** Bring the main checkout's uncommitted changes to tracked files along. */
        carry: z.boolean().optional(),
      })
      .strict(),
  ]);
}
export type WorktreeRequest = z.infer<ReturnType<typeof worktreeRequestSchema>>;

export type { SessionWorktree } from "../sessions/types";

export type WorktreeOutcome = { worktree: SessionWorktree } | { unavailable: string };

/** Makes the worktree for `sessionId`; `cwd` is where the user works (a folder of the repository). */
export async function createSessionWorktree(options: { cwd: string; sessionId: string; root: string; request: WorktreeRequest }): Promise<WorktreeOutcome> {
  const { cwd, sessionId, root } = options;
  const request = options.request === true ? {} : options.request;
  const top = await repoGit(cwd, ["rev-parse", "--show-toplevel"], { okCodes: [128] }).catch(() => undefined); // expected: no git on this machine reads as "not in a repository": the session works in the folder
  if (!top || top.code !== 0) return { unavailable: `${cwd} is not in a git repository, so the session works in the folder itself` };
  const repo = top.stdout.trim();
  const baseRef = request.base ?? "HEAD";
  const base = await repoGit(repo, ["rev-parse", "--verify", "--quiet", `${baseRef}^{commit}`], { okCodes: [1] });
  if (base.code !== 0) return { unavailable: request.base ? `"${request.base}" is not a branch, tag or commit of ${repo}` : `${repo} has no commit yet, so the session works in the folder itself` };
  const branch = request.branch ?? branchNameFor(sessionId);
  const valid = await repoGit(repo, ["check-ref-format", "--branch", branch], { okCodes: [1, 128] });
  if (valid.code !== 0) return { unavailable: `"${branch}" is not a valid branch name` };
  const folder = worktreePathFor(root, repo, sessionId);
  mkdirSync(path.dirname(folder), { recursive: true, mode: 0o700 });
  await repoGit(repo, ["worktree", "add", "--quiet", "-b", branch, folder, base.stdout.trim()]);
  // The branch's first commit as the chat's own: a merge later checks no other chat moved it.
  // Loaded here, not with this module: session/new reads the request schema above on every session.
  const { recordBranchTip } = await import("../security/worktree-branch-tip");
  await recordBranchTip(folder);
  if (request.carry) {
    // A stash commit of the tracked changes, made without touching the main checkout, applied in the worktree.
    const stash = (await repoGit(repo, ["stash", "create"])).stdout.trim();
    if (stash) await repoGit(folder, ["stash", "apply", "--quiet", stash]);
  }
  const relative = path.relative(repo, path.resolve(cwd));
  return { worktree: { path: folder, cwd: relative && !relative.startsWith("..") ? path.join(folder, relative) : folder, branch, base: base.stdout.trim(), repo } };
}
