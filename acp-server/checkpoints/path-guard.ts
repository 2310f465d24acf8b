// The workspace guard for restores: a path that came out of git is only written or deleted
// when it is a plain relative path, stays inside the workspace after resolving symlinks of
// its existing parents, and is neither in a .git folder nor in a nested repository.
import { lstatSync } from "node:fs";
import path from "node:path";
import { realPath } from "../security/sensitive-paths";
import { isInside } from "../util/inside-folder";

/** Why `relative` (a path from a tree) may not be touched, or undefined when it may. */
export function unsafePathReason(relative: string): string | undefined {
  if (relative === "" || relative.includes("\0")) return "empty or malformed path";
  if (relative.startsWith("/") || path.isAbsolute(relative) || /^[A-Za-z]:/.test(relative)) return "absolute path";
  const segments = relative.split(/[\\/]/);
  if (segments.some((segment) => segment === "" || segment === "." || segment === "..")) return "path with . or .. segments";
  if (segments.some((segment) => segment.toLowerCase() === ".git")) return "inside a .git folder";
  return undefined;
}

/**
 * The absolute path of `relative` under `realRoot` when writing there cannot escape it. Like
 * git, a restore never writes through a symlinked parent folder (even one pointing inside: the
 * path would land somewhere else than the snapshot meant), and the nearest existing ancestor,
 * resolved, must still be inside the root.
 */
export function guardedPath(
  realRoot: string,
  relative: string,
  nestedRepos: readonly string[],
  /** Files and symlinks the restore deletes before writing (planning looks ahead to them). */
  removedFirst: ReadonlySet<string> = new Set(),
): { path: string } | { reason: string } {
  const unsafe = unsafePathReason(relative);
  if (unsafe) return { reason: unsafe };
  const inNested = nestedRepos.find((nested) => relative === nested || relative.startsWith(`${nested}/`));
  if (inNested) return { reason: `inside the nested repository ${inNested}/` };
  const segments = relative.split("/");
  const absolute = path.join(realRoot, ...segments);
  let parent = realRoot;
  let removedOnTheWay = false;
  for (const segment of segments.slice(0, -1)) {
    parent = path.join(parent, segment);
    let stat;
    try {
      stat = lstatSync(parent);
    } catch {
      // expected: ENOENT, missing from here on: the restore creates real folders
      break;
    }
    if (!stat.isDirectory() && removedFirst.has(path.relative(realRoot, parent).split(path.sep).join("/"))) {
      removedOnTheWay = true;
      break;
    }
    if (stat.isSymbolicLink()) return { reason: `${path.relative(realRoot, parent)} is a symlink` };
    if (!stat.isDirectory()) return { reason: `${path.relative(realRoot, parent)} is not a folder` };
  }
  if (!removedOnTheWay && !isInside(realRoot, realPath(path.dirname(absolute)))) return { reason: "a parent folder is a symlink leading outside the workspace" };
  return { path: absolute };
}
