// THE "is this path inside that folder" check. Lexical: both paths are compared as written,
// after `.`/`..` and duplicate separators are resolved, without touching the disk. A caller
// that must not be fooled by symlinks resolves both sides first (security/sensitive-paths.ts
// insideWorkspace does, with realPath) and then asks here.
import path from "node:path";

/**
 * True when `target` is `root` itself or below it. Both must be absolute: a relative path
 * (an unexpanded `$VAR/x` from the command screen) is inside nothing, rather than being
 * resolved against this process's working folder.
 */
export function isInside(root: string, target: string): boolean {
  return relativeInside(root, target) !== undefined;
}

/** `target` relative to `root` ("" for the root itself) when it is inside, else undefined. */
export function relativeInside(root: string, target: string): string | undefined {
  if (!path.isAbsolute(root) || !path.isAbsolute(target)) return undefined;
  const relative = path.relative(root, target);
  // "..foo" is a name inside; only ".." itself or a "../" prefix leaves the folder.
  if (relative === ".." || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) return undefined;
  return relative;
}
