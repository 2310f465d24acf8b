// Runs the system git against a shadow repository, isolated from everything that could
// redirect or colour it: no GIT_* variable of the caller (GIT_DIR, GIT_INDEX_FILE, GIT_WORK_TREE,
// alternates...), no system or global config, no hooks, no pager, no prompts, C locale. Every
// call names --git-dir and --work-tree explicitly, so the user's own .git is never consulted.
import { spawn } from "node:child_process";
import { findExecutable } from "../util/find-executable";
import { AgentError } from "../util/agent-error";

export class GitError extends AgentError<"internal"> {
  constructor(
    message: string,
    readonly args: readonly string[],
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super("internal", message, { exitCode });
    this.name = "GitError";
  }
}

export interface GitRunOptions {
  /** Bytes written to git's stdin (then closed). */
  input?: string | Buffer;
  /** Extra variables (e.g. GIT_INDEX_FILE for a per-operation index, commit dates). */
  env?: Record<string, string>;
  /** Exit codes that are not failures (e.g. 1 for `diff --quiet`). */
  okCodes?: number[];
  /** Leave out --git-dir/--work-tree (for `init --bare <dir>`). */
  noRepo?: boolean;
  /** A git that has not finished by then is killed and the call fails (default 120 s): never a hung turn. */
  timeoutMs?: number;
}

export interface GitResult {
  stdout: Buffer;
  stderr: string;
  exitCode: number;
}

/** Settings passed on every command line: command-line config outranks any config file. */
const FORCED_CONFIG = [
  "safe.directory=*", // the workspace may belong to another user; we only read it
  "core.hooksPath=/dev/null",
  "core.fsmonitor=false",
  "core.autocrlf=false",
  "core.safecrlf=false",
  "core.fileMode=true",
  "core.symlinks=true",
  "core.quotePath=false",
  "core.excludesFile=/dev/null", // the user's global ignore file is not ours to follow
  "gc.auto=0",
  "commit.gpgSign=false",
  "diff.external=",
  "advice.addEmbeddedRepo=false",
];

const DEFAULT_TIMEOUT_MS = 120_000;

export function findGit(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return findExecutable("git", { searchPath: env.PATH ?? "" });
}

/** The environment git runs with: the caller's minus every GIT_* variable, plus isolation. */
export function isolatedGitEnv(base: NodeJS.ProcessEnv, scratchHome: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(base)) {
    if (value === undefined || key.startsWith("GIT_") || key === "XDG_CONFIG_HOME") continue;
    env[key] = value;
  }
  return {
    ...env,
    // A home with no .gitconfig, for gits older than GIT_CONFIG_GLOBAL (2.32).
    HOME: scratchHome,
    XDG_CONFIG_HOME: scratchHome,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_TERMINAL_PROMPT: "0",
    GIT_OPTIONAL_LOCKS: "0",
    GIT_PAGER: "cat",
    LC_ALL: "C",
    LANG: "C",
  };
}

export class Git {
  private readonly env: NodeJS.ProcessEnv;

  constructor(
    readonly executable: string,
    readonly gitDir: string,
    readonly workTree: string,
    baseEnv: NodeJS.ProcessEnv = process.env,
  ) {
    this.env = isolatedGitEnv(baseEnv, gitDir);
  }

  /** Runs `git <args>` and resolves with its output; rejects with GitError on failure. */
  run(args: readonly string[], options: GitRunOptions = {}): Promise<GitResult> {
    const full = [...FORCED_CONFIG.flatMap((setting) => ["-c", setting]), ...(options.noRepo ? [] : [`--git-dir=${this.gitDir}`, `--work-tree=${this.workTree}`]), ...args];
    return new Promise((resolve, reject) => {
      const child = spawn(this.executable, full, {
        cwd: this.workTree,
        env: options.env ? { ...this.env, ...options.env } : this.env,
        stdio: ["pipe", "pipe", "pipe"],
        windowsHide: true,
      });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
      child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        reject(new GitError(`git ${args[0]} did not finish within ${(options.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000} s`, args, null, ""));
      }, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
      child.once("error", (error) => {
        clearTimeout(timer);
        reject(new GitError(`git could not start: ${error.message}`, args, null, ""));
      });
      child.once("close", (code) => {
        clearTimeout(timer);
        const stderr = Buffer.concat(err).toString("utf8");
        const exitCode = code ?? -1;
        if (exitCode === 0 || options.okCodes?.includes(exitCode)) {
          resolve({ stdout: Buffer.concat(out), stderr, exitCode });
        } else {
          reject(new GitError(`git ${args[0]} failed (exit ${code}): ${stderr.trim().split("\n").slice(-3).join(" ")}`, args, code, stderr));
        }
      });
      // git may exit before reading all of stdin (e.g. on a usage error): not our failure to report.
      child.stdin.on("error", () => {});
      child.stdin.end(options.input ?? "");
    });
  }

  async text(args: readonly string[], options: GitRunOptions = {}): Promise<string> {
    return (await this.run(args, options)).stdout.toString("utf8");
  }
}

/** Splits NUL-terminated output (`-z`) into its fields. */
export function splitNul(output: Buffer | string): string[] {
  const text = typeof output === "string" ? output : output.toString("utf8");
  const parts = text.split("\0");
  if (parts[parts.length - 1] === "") parts.pop();
  return parts;
}
