// A folder as the session index keys it: symlinks resolved, so one project reached two ways is
// one project. A folder that does not exist (any more) keeps its absolute path.
import { realpathSync } from "node:fs";
import path from "node:path";

export function resolveReal(dir: string): string {
  try {
    return realpathSync.native(dir);
  } catch {
    return path.resolve(dir);
  }
}
