// The one place paths are matched against patterns: .gitignore files (the `ignore` package,
// git's own rules: negation, anchoring, directory-only patterns, `**`) and globs (`picomatch`).
// Used by the JS file walker and search_files (tools/), and by saved approval rules for edits
// (security/approval-rules.ts). Paths are matched with `/` separators.
import path from "node:path";
import ignore, { type Ignore } from "ignore";
import picomatch from "picomatch";
import { relativeInside } from "./inside-folder";

export interface GlobOptions {
  /** Expand `{a,b}` alternatives (file_glob does; gitignore does not). */
  braces?: boolean;
  /** Case-insensitive matching. */
  ignoreCase?: boolean;
}

export interface CompiledGlob {
  /** true: matches the whole relative path; false: the last path segment only. */
  anchored: boolean;
  test: (relativePath: string) => boolean;
}

const toSlashes = (file: string): string => (path.sep === "/" ? file : file.split(path.sep).join("/"));

/**
 * Compiles a glob the way gitignore and ripgrep read them: a glob with a `/` (other than a
 * trailing one) matches the path relative to its base folder; otherwise the file name.
 * `*`, `?` and `[...]` stay within one folder and match dotfiles; `**` spans folders.
 */
export function compileGlob(glob: string, options: GlobOptions = {}): CompiledGlob {
  const anchored = glob.includes("/");
  const body = glob.startsWith("/") ? glob.slice(1) : glob;
  const test = picomatch(body, { dot: true, nobrace: !options.braces, noextglob: true, nocase: options.ignoreCase ?? false });
  return { anchored, test };
}

/** Tests a `/`-separated relative path against a compiled glob. */
export function globMatches(glob: CompiledGlob, relativePath: string): boolean {
  return glob.test(glob.anchored ? relativePath : relativePath.slice(relativePath.lastIndexOf("/") + 1));
}

/**
 * Whether `file` matches `glob` as a whole path: relative globs against the path relative to
 * `cwd`, absolute ones against the absolute path. `**` any depth, `*` within one folder, `?` one
 * character (saved approval rules, `edit: src/**`).
 */
export function wholePathMatches(glob: string, file: string, cwd: string): boolean {
  const target = path.isAbsolute(glob) ? file : path.relative(cwd, file);
  return picomatch.isMatch(toSlashes(target), toSlashes(glob), { dot: true, nobrace: true, noextglob: true });
}

/**
 * A glob that matches exactly one path: `*`, `?`, brackets, braces and the other pattern
 * characters are escaped, so a file named `[a]*.ts` is not taken for a pattern (an "always"
 * answer for an edit covers that file only).
 */
export function literalGlob(file: string): string {
  return toSlashes(file).replace(/[\\*?[\]{}()!+@|]/g, "\\$&");
}

interface IgnoreLayer {
  /** Absolute folder holding the ignore file; rules match paths relative to it. */
  base: string;
  rules: Ignore;
}

/** The ignore files in force at one folder: outer files first, so inner ones win. Immutable. */
export class IgnoreMatcher {
  static readonly empty = new IgnoreMatcher([]);

  private constructor(private readonly layers: readonly IgnoreLayer[]) {}

  /** A matcher that also applies `text` (a .gitignore found in `folder`). */
  with(folder: string, text: string): IgnoreMatcher {
    const rules = ignore({ allowRelativePaths: true }).add(text);
    return new IgnoreMatcher([...this.layers, { base: path.resolve(folder), rules }]);
  }

  /**
   * Whether this path is ignored. As in git, the last matching rule decides, a deeper file's
   * rules coming after its parents' (a `!pattern` there re-includes what an outer file ignored).
   * The caller must not descend into ignored folders (git never re-includes a file whose parent
   * folder is excluded).
   */
  ignores(absolutePath: string, isDirectory: boolean): boolean {
    let ignored = false;
    for (const layer of this.layers) {
      const relative = relativeInside(layer.base, absolutePath);
      if (!relative) continue;
      // `ignore` reads a trailing slash as "this is a folder" (for `build/` patterns).
      const result = layer.rules.test(toSlashes(relative) + (isDirectory ? "/" : ""));
      if (result.ignored) ignored = true;
      else if (result.unignored) ignored = false;
    }
    return ignored;
  }
}
