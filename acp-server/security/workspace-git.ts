// The branch and change count the system prompt shows come from running `git` in the
// workspace, in the agent's own process: outside the OS sandbox. A sandboxed command can
// create a `.git` in a workspace that has none (or write one in a repository the sandbox
// does not protect) whose settings run commands: `core.fsmonitor` runs on every `git status`,
// a `filter.*.clean` driver runs for files whose timestamps changed. So the repository's own
// settings are read first (reading config runs nothing) and `git status` runs only when none
// of them names a command; it never writes the index (no hooks), never asks fsmonitor, and
// never enters submodules (whose settings were not read). Otherwise only the branch is shown.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
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

/**
 * Whether git could find a repository from `cwd`: a `.git` there or in a folder above, a bare
 * repository's HEAD and objects, or GIT_DIR / GIT_WORK_TREE in the environment. When none is
 * there, git is not run at all: each run is a process spawn the session's first prompt waits for.
 */
export function mayBeRepository(cwd: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.GIT_DIR || env.GIT_WORK_TREE) return true;
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, ".git"))) return true;
    if (existsSync(path.join(dir, "HEAD")) && existsSync(path.join(dir, "objects"))) return true;
    if (path.dirname(dir) === dir) return false;
  }
}

export async function workspaceGitSummary(cwd: string): Promise<WorkspaceGit | undefined> {
  if (!mayBeRepository(cwd)) return undefined;
  const options = { cwd, timeout: TIMEOUT_MS, windowsHide: true };
  try {
    // Both only read (neither runs a command the repository names): side by side, one wait.
    // --show-scope needs git 2.26; an older git cannot be checked, so status is not run (fail closed).
    const [head, config] = await Promise.all([
      run("git", ["rev-parse", "--abbrev-ref", "HEAD"], options),
      run("git", ["config", "--list", "--show-scope", "-z"], options).catch(() => undefined), // expected: a git older than 2.26 has no --show-scope: status is then not run (fail closed, below)
    ]);
    const branch = head.stdout.trim();
    if (config === undefined || commandSettings(config.stdout).length > 0) return { branch };
    const status = await run("git", ["-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", "--no-optional-locks", "status", "--porcelain", "--ignore-submodules=all"], options);
    return { branch, changedFiles: status.stdout.split("\n").filter((line) => line.trim() !== "").length };
  } catch {
    // expected: not a repository, or no git: the prompt says so
    return undefined;
  }
}
