// A folder as the session index keys it: symlinks resolved, so one project reached two ways is
// one project. A folder that does not exist (any more) keeps its absolute path.
import { realpathSync } from "node:fs";
import path from "node:path";

export function resolveReal(dir: string): string {
  try {
    return realpathSync.native(dir);
  } catch {
    // expected: a folder that does not resolve (missing) is used as given, made absolute
    return path.resolve(dir);
  }
}
