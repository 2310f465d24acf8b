// Glob and .gitignore matching for the JS file walker (used when ripgrep is absent).
// Implements the gitignore rules people actually write: comments, `!` negation,
// trailing `/` (directories only), leading or middle `/` (anchored to the file's
// folder), `**`, `*`, `?` and `[...]`. Paths are matched with `/` separators.
import path from "node:path";
import { relativeInside } from "../util/inside-folder";

export interface GlobOptions {
  /** Expand `{a,b}` alternatives (file_glob does; gitignore does not). */
  braces?: boolean;
  /** Case-insensitive matching. */
  ignoreCase?: boolean;
}

export interface CompiledGlob {
  regex: RegExp;
  /** true: match the whole relative path; false: match the last path segment only. */
  anchored: boolean;
}

const REGEX_SPECIAL = /[.*+?^${}()|[\]\\/-]/g;
const escapeRegex = (text: string): string => text.replace(REGEX_SPECIAL, "\\$&");

/** Translates one glob into regex source (without ^ and $). */
export function globToRegexSource(glob: string, braces = false): string {
  let out = "";
  let i = 0;
  while (i < glob.length) {
    const char = glob.charAt(i); // i < glob.length
    if (char === "*") {
      let end = i;
      while (glob[end] === "*") end++;
      const wholeSegment = (i === 0 || glob[i - 1] === "/") && (end === glob.length || glob[end] === "/");
      if (end - i >= 2 && wholeSegment) {
        if (end === glob.length) out += ".*"; // `x/**`: everything inside x
        else {
          out += "(?:.*/)?"; // `**/`: zero or more folders
          end++;
        }
      } else {
        out += "[^/]*"; // `*`, or stars that are not a whole segment (git treats those as `*`)
      }
      i = end;
    } else if (char === "?") {
      out += "[^/]";
      i++;
    } else if (char === "\\" && i + 1 < glob.length) {
      out += escapeRegex(glob.charAt(i + 1));
      i += 2;
    } else if (char === "[") {
      const parsed = parseClass(glob, i);
      out += parsed ? parsed.source : "\\[";
      i = parsed ? parsed.end : i + 1;
    } else if (char === "{" && braces) {
      const parsed = parseBraces(glob, i);
      if (parsed) {
        out += `(?:${parsed.alternatives.map((alt) => globToRegexSource(alt, true)).join("|")})`;
        i = parsed.end;
      } else {
        out += "\\{";
        i++;
      }
    } else {
      out += escapeRegex(char);
      i++;
    }
  }
  return out;
}

/** `[abc]`, `[a-z]`, `[!x]` / `[^x]`. Returns null when there is no closing bracket. */
function parseClass(glob: string, start: number): { source: string; end: number } | null {
  let i = start + 1;
  let negate = false;
  if (glob[i] === "!" || glob[i] === "^") {
    negate = true;
    i++;
  }
  let body = "";
  let first = true;
  while (i < glob.length) {
    const char = glob.charAt(i); // i < glob.length
    if (char === "]" && !first) {
      // A negated class must still not match the separator.
      return { source: negate ? `[^${body}/]` : `[${body}]`, end: i + 1 };
    }
    if (char === "\\" && i + 1 < glob.length) {
      body += `\\${glob.charAt(i + 1)}`;
      i += 2;
    } else {
      body += char === "-" ? "-" : char.replace(/[\\\][^]/, "\\$&");
      i++;
    }
    first = false;
  }
  return null;
}

/** `{a,b,c}` at top level of the braces; null when unclosed or without a comma. */
function parseBraces(glob: string, start: number): { alternatives: string[]; end: number } | null {
  let depth = 0;
  let current = "";
  const alternatives: string[] = [];
  for (let i = start; i < glob.length; i++) {
    const char = glob.charAt(i); // i < glob.length
    if (char === "\\" && i + 1 < glob.length) {
      current += char + glob[++i];
      continue;
    }
    if (char === "{") {
      depth++;
      if (depth === 1) continue;
    } else if (char === "}") {
      depth--;
      if (depth === 0) {
        alternatives.push(current);
        return alternatives.length > 1 ? { alternatives, end: i + 1 } : null;
      }
    } else if (char === "," && depth === 1) {
      alternatives.push(current);
      current = "";
      continue;
    }
    current += char;
  }
  return null;
}

/**
 * Compiles a glob the way gitignore and ripgrep read them: a glob with a `/` (other than
 * a trailing one) matches the path relative to its base folder; otherwise the file name.
 */
export function compileGlob(glob: string, options: GlobOptions = {}): CompiledGlob {
  let body = glob;
  const anchored = body.includes("/");
  if (body.startsWith("/")) body = body.slice(1);
  const source = `^${globToRegexSource(body, options.braces ?? false)}$`;
  return { regex: new RegExp(source, options.ignoreCase ? "i" : ""), anchored };
}

/** Tests a `/`-separated relative path against a compiled glob. */
export function globMatches(glob: CompiledGlob, relativePath: string): boolean {
  const target = glob.anchored ? relativePath : relativePath.slice(relativePath.lastIndexOf("/") + 1);
  return glob.regex.test(target);
}

export interface IgnoreRule extends CompiledGlob {
  negate: boolean;
  dirOnly: boolean;
}

/** Parses the text of a .gitignore file into rules, in file order. */
export function parseGitignore(text: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (const raw of text.split(/\r?\n/)) {
    if (raw === "" || raw.startsWith("#")) continue;
    // Trailing spaces are ignored unless escaped with a backslash.
    let line = raw.replace(/(?<!\\) +$/, "");
    let negate = false;
    if (line.startsWith("!")) {
      negate = true;
      line = line.slice(1);
    }
    let dirOnly = false;
    if (line.endsWith("/")) {
      dirOnly = true;
      line = line.replace(/\/+$/, "");
    }
    if (line === "") continue;
    rules.push({ ...compileGlob(line), negate, dirOnly });
  }
  return rules;
}

interface IgnoreLayer {
  /** Absolute folder holding the ignore file; rules match paths relative to it. */
  base: string;
  rules: IgnoreRule[];
}

/** The ignore files in force at one folder: outer files first, so inner ones win. Immutable. */
export class IgnoreMatcher {
  static readonly empty = new IgnoreMatcher([]);

  private constructor(private readonly layers: readonly IgnoreLayer[]) {}

  /** A matcher that also applies `text` (a .gitignore found in `folder`). */
  with(folder: string, text: string): IgnoreMatcher {
    const rules = parseGitignore(text);
    return rules.length === 0 ? this : new IgnoreMatcher([...this.layers, { base: path.resolve(folder), rules }]);
  }

  /**
   * Whether this path is ignored by its own name. The caller must not descend into
   * ignored folders (git never re-includes a file whose parent folder is excluded).
   */
  ignores(absolutePath: string, isDirectory: boolean): boolean {
    let ignored = false;
    for (const layer of this.layers) {
      const relative = relativeInside(layer.base, absolutePath);
      if (!relative) continue;
      const slashed = relative.split(path.sep).join("/");
      for (const rule of layer.rules) {
        if (rule.dirOnly && !isDirectory) continue;
        if (globMatches(rule, slashed)) ignored = !rule.negate;
      }
    }
    return ignored;
  }
}
