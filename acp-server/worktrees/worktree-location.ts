// Where a session's worktree lives and what its branch is called: outside the user's tree,
// under $HERMES_HOME/worktrees/<repo>-<hash of its path>/<session id> (or `worktrees.root`),
// on a new branch `hermes/<first 8 of the session id>-<slug of the title or "session">`.
import { createHash } from "node:crypto";
import path from "node:path";

export function worktreesRoot(home: string, configured?: string): string {
  return configured ? path.resolve(configured) : path.join(home, "worktrees");
}

export function worktreePathFor(root: string, repoRoot: string, sessionId: string): string {
  const repoFolder = `${path.basename(repoRoot).replace(/[^\w.-]/g, "_")}-${createHash("sha256").update(repoRoot).digest("hex").slice(0, 8)}`;
  return path.join(root, repoFolder, sessionId);
}

export function branchNameFor(sessionId: string, hint?: string): string {
  const slug = (hint ?? "session")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40)
    .replace(/-+$/g, "");
  return `hermes/${sessionId.slice(0, 8)}-${slug || "session"}`;
}
