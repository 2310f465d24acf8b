// Where a command would run from: as given when it names a path, else the first executable of
// that name on PATH (with Windows' executable extensions there). Used to tell which optional
// tools (external agents, a skill's required commands) are installed.
import { accessSync, constants } from "node:fs";
import path from "node:path";

export interface SearchPlace {
  /** The PATH value to search. */
  searchPath: string;
  /** Resolves a relative path such as ./bin/tool. */
  cwd?: string;
  platform?: NodeJS.Platform;
}

export function findExecutable(command: string, { searchPath, cwd = process.cwd(), platform = process.platform }: SearchPlace): string | undefined {
  if (command.includes("/") || (platform === "win32" && command.includes("\\"))) {
    const absolute = path.resolve(cwd, command);
    return isExecutable(absolute) ? absolute : undefined;
  }
  const extensions = platform === "win32" ? ["", ".exe", ".cmd", ".bat"] : [""];
  for (const dir of searchPath.split(path.delimiter)) {
    if (!dir) continue;
    for (const extension of extensions) {
      const candidate = path.join(dir, command + extension);
      if (isExecutable(candidate)) return candidate;
    }
  }
  return undefined;
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    // expected: not there or not executable: not this one
    return false;
  }
}
