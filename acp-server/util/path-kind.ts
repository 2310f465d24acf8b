// What is at a path, asked without throwing: the one place for the "stat it, and a missing path
// is simply absent" checks that folders, skills, the sandbox policy and the plant guard all need.
// Each answer is a snapshot; code that acts on a path must still cope with it changing after.
import { lstatSync, realpathSync, statSync, type Stats } from "node:fs";

/** A folder or a file (anything else that exists), following links; undefined when missing or a dangling link. */
export function pathKind(target: string): "dir" | "file" | undefined {
  try {
    return statSync(target).isDirectory() ? "dir" : "file";
  } catch {
    // expected: a missing or unreadable path has no kind
    return undefined;
  }
}

/** A folder, following links. */
export function isDirectory(target: string): boolean {
  return pathKind(target) === "dir";
}

/** A regular file, following links. */
export function isRegularFile(target: string): boolean {
  try {
    return statSync(target).isFile();
  } catch {
    // expected: a missing or unreadable path is not a file
    return false;
  }
}

/** The path's own entry (a link is a link), or undefined when nothing is there. */
export function lstatOrUndefined(target: string): Stats | undefined {
  try {
    return lstatSync(target);
  } catch {
    // expected: a path that does not exist
    return undefined;
  }
}

/** The path with every link resolved, or undefined when it leads nowhere. */
export function realPathOrUndefined(target: string): string | undefined {
  try {
    return realpathSync(target);
  } catch {
    // expected: missing, or a link to nothing
    return undefined;
  }
}
