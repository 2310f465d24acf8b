// Walks a folder tree the way `rg --files --hidden` does: honours .gitignore files (the
// root's, nested ones, and those of parent folders up to the git repository root) and
// never enters .git or node_modules. Used when ripgrep is not installed.
import { readFile, readdir, stat } from "node:fs/promises";
import path from "node:path";
import { IgnoreMatcher } from "../util/path-match";

export const DEFAULT_SKIPPED_DIRS: ReadonlySet<string> = new Set([".git", "node_modules"]);

export interface WalkOptions {
  signal?: AbortSignal;
  /** Folder names never entered below the root. */
  skipDirs?: ReadonlySet<string>;
  /** Apply .gitignore files (default true). */
  gitignore?: boolean;
}

export interface WalkEntry {
  /** Absolute path. */
  path: string;
  /** Path relative to the walk root, `/`-separated (the file name when the root is a file). */
  relative: string;
}

/** Bytes read to decide whether a file is binary (git and ripgrep use the same idea). */
export const BINARY_SNIFF_BYTES = 8192;

/** A NUL byte in the first 8 KiB marks a file as binary. */
export function looksBinary(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, BINARY_SNIFF_BYTES);
  for (let i = 0; i < end; i++) if (bytes[i] === 0) return true;
  return false;
}

async function readIgnoreFile(file: string): Promise<string | null> {
  try {
    return await readFile(file, "utf8");
  } catch {
    // expected: no ignore file (ENOENT), or one that cannot be read: nothing ignored by it
    return null;
  }
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

/**
 * Ignore rules that apply above `folder`: when it sits inside a git repository, the
 * .gitignore of every folder from the repository root down to (not including) `folder`,
 * plus .git/info/exclude. Outside a repository, parents are not consulted (like ripgrep).
 */
export async function parentIgnores(folder: string): Promise<IgnoreMatcher> {
  const chain: string[] = [];
  let current = path.resolve(folder);
  let repoRoot: string | null = null;
  for (;;) {
    if (await exists(path.join(current, ".git"))) {
      repoRoot = current;
      break;
    }
    const parent = path.dirname(current);
    if (parent === current) break;
    current = parent;
    chain.unshift(current);
  }
  if (repoRoot === null) return IgnoreMatcher.empty;
  let matcher = IgnoreMatcher.empty;
  const exclude = await readIgnoreFile(path.join(repoRoot, ".git", "info", "exclude"));
  if (exclude) matcher = matcher.with(repoRoot, exclude);
  for (const dir of chain) {
    const text = await readIgnoreFile(path.join(dir, ".gitignore"));
    if (text) matcher = matcher.with(dir, text);
  }
  return matcher;
}

const byName = (a: { name: string }, b: { name: string }): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * Yields every regular file under `root` in a stable (name-sorted, depth-first) order.
 * Symbolic links are skipped: following them risks cycles and leaving the tree.
 * Unreadable folders are skipped silently. Stops early when the signal aborts.
 */
export async function* walkFiles(root: string, options: WalkOptions = {}): AsyncGenerator<WalkEntry> {
  const absoluteRoot = path.resolve(root);
  const info = await stat(absoluteRoot);
  if (info.isFile()) {
    yield { path: absoluteRoot, relative: path.basename(absoluteRoot) };
    return;
  }
  const useGitignore = options.gitignore ?? true;
  const skipDirs = options.skipDirs ?? DEFAULT_SKIPPED_DIRS;
  const signal = options.signal;
  const start = useGitignore ? await parentIgnores(absoluteRoot) : IgnoreMatcher.empty;

  async function* walk(dir: string, relative: string, inherited: IgnoreMatcher): AsyncGenerator<WalkEntry> {
    if (signal?.aborted) return;
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      // expected: a folder removed meanwhile or not readable is left out of the walk, as a shell find would
      return;
    }
    let matcher = inherited;
    if (useGitignore && entries.some((entry) => entry.name === ".gitignore" && entry.isFile())) {
      const text = await readIgnoreFile(path.join(dir, ".gitignore"));
      if (text) matcher = matcher.with(dir, text);
    }
    entries.sort(byName);
    for (const entry of entries) {
      if (signal?.aborted) return;
      const absolute = path.join(dir, entry.name);
      const childRelative = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (skipDirs.has(entry.name) || matcher.ignores(absolute, true)) continue;
        yield* walk(absolute, childRelative, matcher);
      } else if (entry.isFile()) {
        if (!matcher.ignores(absolute, false)) yield { path: absolute, relative: childRelative };
      }
    }
  }

  yield* walk(absoluteRoot, "", start);
}
