// $HERMES_HOME/worktrees/ holds the user's code, not Hermes's state: sessions that work in their
// own git worktree (worktrees/) edit there. So a path in it is not "Hermes's own state" to the
// command screen and the file tools, but only when its real path is in that folder too: a
// symlink planted there that leads back into $HERMES_HOME (config.yaml, .env) stays refused.
import path from "node:path";
import { isInside } from "../util/inside-folder";

/** The folder of session worktrees inside $HERMES_HOME. */
export function hermesWorktreesFolder(hermesHome: string): string {
  return path.join(hermesHome, "worktrees");
}

/**
 * Is `abs` strictly inside $HERMES_HOME/worktrees/, as written and once every link is resolved
 * (`realPath`: sensitive-paths.ts's, which follows dangling links to where a write would land)?
 */
export function inHermesWorktrees(abs: string, hermesHome: string, realPath: (target: string) => string): boolean {
  const folder = hermesWorktreesFolder(path.resolve(hermesHome));
  const lexical = path.resolve(abs);
  if (lexical === folder || !isInside(folder, lexical)) return false;
  const realFolder = realPath(folder);
  const real = realPath(lexical);
  return real !== realFolder && isInside(realFolder, real);
}
