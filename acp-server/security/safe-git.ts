// git run from Hermes's own process on a repository a command may have touched: the settings
// that would make a git run execute something the repository names (hooks, fsmonitor, an
// external diff, a pager) are overridden on the command line, no GIT_* variable of the caller
// redirects it, and every run has a time limit. worktrees/repo-git.ts is this with the tool's
// error type; security code (worktree-objects.ts) uses it directly.
import { execFile } from "node:child_process";

const SAFE_CONFIG = ["core.hooksPath=/dev/null", "core.fsmonitor=false", "diff.external=", "core.pager=cat", "core.quotePath=false", "gc.auto=0", "commit.gpgSign=false"];

export interface GitRun {
  stdout: string;
  stderr: string;
  code: number;
}

export interface SafeGitOptions {
  okCodes?: number[];
  env?: Record<string, string>;
  input?: string | Buffer;
  timeoutMs?: number;
}

/** Runs git in `cwd`; a non-zero exit not in `okCodes` rejects with `fail(git's own words)`. */
export function safeGit(cwd: string, args: string[], options: SafeGitOptions, fail: (message: string) => Error): Promise<GitRun> {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && !key.startsWith("GIT_")) env[key] = value;
  Object.assign(env, { GIT_TERMINAL_PROMPT: "0", LC_ALL: "C", ...options.env });
  const full = SAFE_CONFIG.flatMap((setting) => ["-c", setting]).concat(args);
  return new Promise((resolve, reject) => {
    const child = execFile("git", full, { cwd, env, timeout: options.timeoutMs ?? 60_000, maxBuffer: 64 * 1024 * 1024, windowsHide: true }, (error, stdout, stderr) => {
      const code = error ? (typeof (error as { code?: unknown }).code === "number" ? ((error as { code: number }).code) : -1) : 0;
      if (code === 0 || options.okCodes?.includes(code)) return resolve({ stdout, stderr, code });
      reject(fail(`git ${args.slice(0, 2).join(" ")} failed${code === -1 ? ` (${(error as Error).message})` : ` (exit ${code})`}: ${stderr.trim().split("\n").slice(-3).join(" ") || stdout.trim().slice(0, 300)}`));
    });
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}
