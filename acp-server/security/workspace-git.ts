// The branch and change count the system prompt shows come from running `git` in the
// workspace, in the agent's own process: outside the OS sandbox. A sandboxed command can
// create a `.git` in a workspace that has none (or write one in a repository the sandbox
// does not protect) whose settings run commands: `core.fsmonitor` runs on every `git status`,
// a `filter.*.clean` driver runs for files whose timestamps changed. So the repository's own
// settings are read first (reading config runs nothing) and `git status` runs only when none
// of them names a command; it never writes the index (no hooks), never asks fsmonitor, and
// never enters submodules (whose settings were not read). Otherwise only the branch is shown.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { GIT_EXEC_KEY } from "./screen-exec";

const run = promisify(execFile);
const TIMEOUT_MS = 2_000;
/** Settings that come from the repository (its config, a worktree's, an include of theirs), not from the user. */
const REPO_SCOPES = new Set(["local", "worktree", "command"]);

export interface WorkspaceGit {
  branch: string;
  /** Undefined when the repository's settings would run a command under `git status`. */
  changedFiles?: number;
}

/** The repository's settings that make `git status` (or a later git run) execute a command; empty when none. */
export function commandSettings(configListZ: string): string[] {
  const found: string[] = [];
  const fields = configListZ.split("\0");
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const scope = fields[i] ?? "";
    const key = (fields[i + 1] ?? "").split("\n")[0] ?? "";
    if (REPO_SCOPES.has(scope) && GIT_EXEC_KEY.test(key)) found.push(key);
  }
  return found;
}

export async function workspaceGitSummary(cwd: string): Promise<WorkspaceGit | undefined> {
  const options = { cwd, timeout: TIMEOUT_MS, windowsHide: true };
  try {
    const branch = (await run("git", ["rev-parse", "--abbrev-ref", "HEAD"], options)).stdout.trim();
    // --show-scope needs git 2.26; an older git cannot be checked, so status is not run (fail closed).
    const config = await run("git", ["config", "--list", "--show-scope", "-z"], options).catch(() => undefined);
    if (config === undefined || commandSettings(config.stdout).length > 0) return { branch };
    const status = await run("git", ["-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", "--no-optional-locks", "status", "--porcelain", "--ignore-submodules=all"], options);
    return { branch, changedFiles: status.stdout.split("\n").filter((line) => line.trim() !== "").length };
  } catch {
    return undefined; // not a repository, or no git: the prompt says so
  }
}
