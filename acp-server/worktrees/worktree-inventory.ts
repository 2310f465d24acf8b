// Every session worktree on this machine ($HERMES_HOME/worktrees/<repo>/<session>), with its
// session (or none: the session was deleted), its branch, and whether it holds work that was
// never brought back: for `hermes worktrees list|prune` and doctor. A worktree whose session is
// gone is stale; pruning removes a stale one only when it holds no such work (or when forced).
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import type { SessionMeta, SessionWorktree } from "../sessions/types";
import { repoGit } from "./repo-git";
import { removeWorktree, worktreeState } from "./worktree-manage";

export interface WorktreeEntry {
  folder: string;
  sessionId: string;
  /** Its record (from the session, or read from git for a session that is gone). */
  worktree?: SessionWorktree;
  /** False when the session was deleted. */
  sessionExists: boolean;
  /** Changed files or commits that were never applied (false when unknown: it cannot be read). */
  unapplied: boolean;
  /** Why it cannot be read, when it cannot. */
  problem?: string;
}

export async function worktreeInventory(root: string, sessionMeta: (id: string) => Promise<SessionMeta | undefined>): Promise<WorktreeEntry[]> {
  const entries: WorktreeEntry[] = [];
  for (const repoFolder of safeList(root)) {
    for (const sessionId of safeList(path.join(root, repoFolder))) {
      const folder = path.join(root, repoFolder, sessionId);
      const meta = await sessionMeta(sessionId).catch(() => undefined); // expected: an unreadable journal counts as no session
      try {
        const worktree = meta?.worktree ?? (await fromGit(folder));
        const state = await worktreeState(worktree);
        entries.push({ folder, sessionId, worktree, sessionExists: meta !== undefined, unapplied: state.files.length > 0 });
      } catch (error) {
        entries.push({ folder, sessionId, sessionExists: meta !== undefined, unapplied: false, problem: (error as Error).message });
      }
    }
  }
  return entries;
}

/** Removes the stale worktrees (session deleted): those with unapplied work only when `force`. Returns what was removed and what was kept. */
export async function pruneWorktrees(entries: WorktreeEntry[], force: boolean): Promise<{ removed: WorktreeEntry[]; kept: WorktreeEntry[] }> {
  const removed: WorktreeEntry[] = [];
  const kept: WorktreeEntry[] = [];
  for (const entry of entries.filter((each) => !each.sessionExists)) {
    if (!entry.worktree || (entry.unapplied && !force)) {
      kept.push(entry);
      continue;
    }
    await removeWorktree(entry.worktree);
    removed.push(entry);
  }
  return { removed, kept };
}

/** A worktree whose session is gone, described by git itself: its branch, repository and the commit its branch left the repository's HEAD at. */
async function fromGit(folder: string): Promise<SessionWorktree> {
  if (!existsSync(path.join(folder, ".git"))) throw new Error("not a git worktree (no .git)");
  const [branch, common] = await Promise.all([repoGit(folder, ["rev-parse", "--abbrev-ref", "HEAD"]), repoGit(folder, ["rev-parse", "--path-format=absolute", "--git-common-dir"])]);
  const repo = path.dirname(common.stdout.trim());
  const base = await repoGit(folder, ["merge-base", "HEAD", (await repoGit(repo, ["rev-parse", "HEAD"])).stdout.trim()]);
  return { path: folder, cwd: folder, branch: branch.stdout.trim(), base: base.stdout.trim(), repo };
}

function safeList(folder: string): string[] {
  try {
    return readdirSync(folder, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
  } catch {
    // expected: no worktrees folder yet (nothing to list)
    return [];
  }
}
