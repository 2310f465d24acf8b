// The ripgrep backend of search_files: used when `rg` is on PATH because it is much
// faster than the JS walker on big trees. Both backends share the same filters
// (.gitignore honoured, hidden files included, .git and node_modules skipped).
import { spawn } from "node:child_process";
import { accessSync, constants, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { SENSITIVE_DIRS, SENSITIVE_EXCEPTION_GLOBS, SENSITIVE_FILE_GLOBS } from "../security/sensitive-paths";
import { AgentError } from "../util/agent-error";

/** ripgrep could not run the search (missing binary, unsupported flag or regex). */
/** rg missing or failing: search_files falls back to its own walk. */
export class RipgrepError extends AgentError<"tool"> {
  constructor(message: string) {
    super("tool", message, {});
    this.name = "RipgrepError";
  }
}

let cachedPath: string | null | undefined;

/** Absolute path of `rg` on PATH, looked up once; null when not installed. */
export function ripgrepPath(): string | null {
  if (cachedPath !== undefined) return cachedPath;
  cachedPath = null;
  const names = process.platform === "win32" ? ["rg.exe", "rg.cmd"] : ["rg"];
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    if (!dir) continue;
    for (const name of names) {
      const candidate = path.join(dir, name);
      try {
        accessSync(candidate, constants.X_OK);
        cachedPath = candidate;
        return cachedPath;
      } catch {
        // expected: not at this candidate path, or not executable: the next one is tried
      }
    }
  }
  return cachedPath;
}

/** Tests force a backend: a path to use that binary, null for "not installed", undefined to look again. */
export function setRipgrepPath(value: string | null | undefined): void {
  cachedPath = value;
}

const COMMON_ARGS = ["--no-config", "--hidden", "--no-require-git", "--glob", "!.git", "--glob", "!node_modules"];

/**
 * Runs rg in `root`'s folder (so globs with `/` match relative to the search root, as
 * in the JS walker) and yields its stdout records split on `separator`. Kills rg when
 * the consumer stops early or the signal aborts. Throws RipgrepError when rg fails
 * before producing any record.
 */
async function* runRipgrep(
  args: string[],
  cwd: string,
  separator: "\n" | "\0",
  signal: AbortSignal | undefined,
): AsyncGenerator<string> {
  const rg = ripgrepPath();
  if (!rg) throw new RipgrepError("ripgrep is not installed");
  if (signal?.aborted) return;
  const child = spawn(rg, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
  const kill = (): void => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  };
  signal?.addEventListener("abort", kill, { once: true });
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => {
    if (stderr.length < 4000) stderr += chunk;
  });
  const closed = new Promise<number | null>((resolve) => {
    child.on("error", (error) => {
      stderr += error.message;
      resolve(null);
    });
    child.on("close", (code) => resolve(code));
  });
  let produced = 0;
  try {
    if (separator === "\n") {
      for await (const line of createInterface({ input: child.stdout, crlfDelay: Infinity })) {
        if (line) {
          produced++;
          yield line;
        }
      }
    } else {
      let pending = "";
      child.stdout.setEncoding("utf8");
      for await (const chunk of child.stdout as AsyncIterable<string>) {
        const parts = (pending + chunk).split("\0");
        pending = parts.pop() ?? "";
        for (const part of parts) {
          if (!part) continue;
          produced++;
          yield part;
        }
      }
      if (pending) {
        produced++;
        yield pending;
      }
    }
    const code = await closed;
    // Exit 1 means "nothing found"; 2 with output means some files were unreadable.
    if (produced === 0 && code !== 0 && code !== 1 && !signal?.aborted) {
      throw new RipgrepError(stderr.trim() || `rg exited with code ${code}`);
    }
  } finally {
    signal?.removeEventListener("abort", kill);
    kill();
  }
}

/** Where the search starts: rg runs in the folder and searches "." (or the single file). */
function target(root: string, rootIsFile: boolean): { cwd: string; arg: string } {
  return rootIsFile ? { cwd: path.dirname(root), arg: path.basename(root) } : { cwd: root, arg: "." };
}

export interface RipgrepHit {
  /** Absolute path. */
  path: string;
  line: number;
  text: string;
}

export async function* ripgrepContent(options: {
  root: string;
  rootIsFile: boolean;
  pattern: string;
  ignoreCase: boolean;
  fileGlob?: string;
  maxFileBytes: number;
  /** Leave credential files unread (search-files.ts filters the results as well). */
  skipSensitive?: boolean;
  signal?: AbortSignal;
}): AsyncGenerator<RipgrepHit> {
  const { cwd, arg } = target(options.root, options.rootIsFile);
  const args = ["--json", ...COMMON_ARGS, "--max-filesize", String(options.maxFileBytes)];
  if (options.ignoreCase) args.push("--ignore-case");
  if (options.skipSensitive) args.push("--ignore-file", sensitiveIgnoreFile());
  if (options.fileGlob) args.push("--glob", options.fileGlob);
  args.push("--regexp", options.pattern, "--", arg);
  for await (const line of runRipgrep(args, cwd, "\n", options.signal)) {
    let record: RipgrepRecord;
    try {
      record = JSON.parse(line) as RipgrepRecord;
    } catch {
      // expected: rg's output lines are JSON; a line cut by the output cap is skipped
      continue;
    }
    if (record.type !== "match" || !record.data) continue;
    const file = decode(record.data.path);
    const text = decode(record.data.lines).replace(/\r?\n$/, "");
    yield { path: path.resolve(cwd, file), line: Number(record.data.line_number), text };
  }
}

/** rg --json writes `{text}` for UTF-8 data and `{bytes}` (base64) otherwise. */
interface RipgrepData {
  text?: string;
  bytes?: string;
}

/** The parts of an `rg --json` record we read ("begin", "end" and "summary" are skipped). */
interface RipgrepRecord {
  type?: string;
  data?: { path?: RipgrepData; lines?: RipgrepData; line_number?: number };
}

function decode(field: RipgrepData | undefined): string {
  if (!field) return "";
  if (typeof field.text === "string") return field.text;
  return field.bytes ? Buffer.from(field.bytes, "base64").toString("utf8") : "";
}

/** Absolute paths of every file rg would search under root. */
export async function* ripgrepFiles(options: { root: string; rootIsFile: boolean; signal?: AbortSignal }): AsyncGenerator<string> {
  const { cwd, arg } = target(options.root, options.rootIsFile);
  const args = ["--files", "--null", ...COMMON_ARGS, "--", arg];
  for await (const file of runRipgrep(args, cwd, "\0", options.signal)) yield path.resolve(cwd, file);
}

let ignoreFile: string | undefined;

/**
 * The credential list (security/sensitive-paths.ts) as a gitignore-style file for rg's
 * --ignore-file, written once per process into a private temp folder. Unlike --glob
 * exclusions, an ignore file can re-include the env templates (`!*.example`).
 */
export function sensitiveIgnoreFile(): string {
  if (ignoreFile && existsSync(ignoreFile)) return ignoreFile;
  const folder = mkdtempSync(path.join(os.tmpdir(), "hermes-rg-"));
  const file = path.join(folder, "sensitive.ignore");
  const lines = [...SENSITIVE_FILE_GLOBS, ...SENSITIVE_DIRS.map((dir) => `${dir}/`), ...SENSITIVE_EXCEPTION_GLOBS.map((glob) => `!${glob}`)];
  writeFileSync(file, `${lines.join("\n")}\n`, { mode: 0o600 });
  process.once("exit", () => rmSync(folder, { recursive: true, force: true }));
  return (ignoreFile = file);
}
