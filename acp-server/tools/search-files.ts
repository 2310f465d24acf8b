// search_files: regex search over file contents, or glob search over file names.
// Uses ripgrep when installed and the JS walker otherwise; both honour .gitignore,
// include hidden files and skip .git and node_modules.
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import * as z from "zod";
import type { ToolContext } from "./context";
import { walkFiles, looksBinary } from "./file-walker";
import { compileGlob, globMatches, type CompiledGlob } from "../util/path-match";
import { displayPath, resolvePath } from "./paths";
import { defineTool, ToolError, type ToolResult } from "./registry";
import { RipgrepError, ripgrepContent, ripgrepFiles, ripgrepPath } from "./ripgrep";
import { isSensitiveRelative, sensitiveReason } from "../security/sensitive-paths";
import { redactSecrets } from "../util/redact";

export const MAX_SEARCH_FILE_BYTES = 2 * 1024 * 1024;
const MAX_LINE_CHARS = 300;
/** Matches counted before the search stops; past this, `total` is a lower bound. */
const MAX_COLLECTED = 5000;
/** Files read at once by the JS content search. */
const READ_BATCH = 16;

const schema = z.object({
  pattern: z
    .string()
    .min(1)
    .describe(
      'target "content": a JavaScript regular expression matched against each line. target "files": a glob over file paths ("*.ts", "src/**/*.test.ts", "*.{js,jsx}"); a plain name without wildcards matches files whose name contains it.',
    ),
  target: z.enum(["content", "files"]).default("content").describe("content (inside files) or files (by name)."),
  path: z.string().optional().describe("File or folder to search (default: the working directory)."),
  file_glob: z.string().optional().describe('Only files matching this glob, e.g. "src/**/*.ts".'),
  ignore_case: z.boolean().optional().describe("Case-insensitive (content)."),
  limit: z.number().int().positive().max(1000).optional().describe("Most results (default 100 lines or 50 files)."),
});

type SearchArgs = z.infer<typeof schema>;

export interface ContentMatch {
  /** Relative to the session cwd (absolute when outside it), `/`-separated. */
  path: string;
  line: number;
  text: string;
}

/** Keeps long lines readable: a window around the match, marked where cut. */
export function clipLine(raw: string, column: number): string {
  if (raw.length <= MAX_LINE_CHARS) return raw;
  // Redact before cutting, so the window's edges never hold part of a key.
  const text = redactSecrets(raw);
  if (text.length <= MAX_LINE_CHARS) return text;
  const start = Math.max(0, Math.min(column - 100, text.length - MAX_LINE_CHARS));
  const end = start + MAX_LINE_CHARS;
  return `${start > 0 ? "…" : ""}${text.slice(start, end)}${end < text.length ? "…" : ""}`;
}

const toSlashes = (p: string): string => p.split(path.sep).join("/");

/** Matching lines of one file; binary, huge and unreadable files yield none. */
async function searchFile(file: string, regex: RegExp): Promise<{ line: number; text: string }[]> {
  try {
    const info = await stat(file);
    if (info.size > MAX_SEARCH_FILE_BYTES) return [];
    const bytes = await readFile(file);
    if (looksBinary(bytes)) return [];
    const hits: { line: number; text: string }[] = [];
    const lines = bytes.toString("utf8").split("\n");
    for (const [i, raw] of lines.entries()) {
      const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
      if (regex.test(line)) hits.push({ line: i + 1, text: line });
    }
    return hits;
  } catch {
    // expected: a file that cannot be read (binary, gone, no access) has no matching lines
    return [];
  }
}

/** Content search with the JS walker, in walk order. */
export async function* walkContent(
  root: string,
  regex: RegExp,
  fileGlob: CompiledGlob | undefined,
  signal?: AbortSignal,
  skipSensitive = false,
): AsyncGenerator<{ path: string; line: number; text: string }> {
  let batch: string[] = [];
  const flush = async function* () {
    const results = await Promise.all(batch.map(async (file) => ({ file, hits: await searchFile(file, regex) })));
    for (const { file, hits } of results) for (const hit of hits) yield { path: file, ...hit };
    batch = [];
  };
  for await (const entry of walkFiles(root, { signal })) {
    if (fileGlob && !globMatches(fileGlob, entry.relative)) continue;
    if (skipSensitive && isSensitiveRelative(entry.relative)) continue; // never read, not even to drop the lines
    batch.push(entry.path);
    if (batch.length >= READ_BATCH) yield* flush();
  }
  if (!signal?.aborted) yield* flush();
}

/** File listing with the JS walker: absolute paths. */
export async function* walkFileNames(root: string, signal?: AbortSignal): AsyncGenerator<string> {
  for await (const entry of walkFiles(root, { signal })) yield entry.path;
}

/** Collects up to `max` items; a RipgrepError before any item switches to the fallback. */
async function collect<T>(primary: (() => AsyncGenerator<T>) | null, fallback: () => AsyncGenerator<T>, max: number) {
  const items: T[] = [];
  const drain = async (source: AsyncGenerator<T>) => {
    for await (const item of source) {
      items.push(item);
      if (items.length >= max) return false;
    }
    return true;
  };
  if (primary) {
    try {
      return { items, complete: await drain(primary()) };
    } catch (error) {
      if (!(error instanceof RipgrepError) || items.length > 0) throw error;
    }
  }
  return { items, complete: await drain(fallback()) };
}

async function searchContent(args: SearchArgs, root: string, rootIsFile: boolean, ctx: ToolContext, skipSensitive: boolean): Promise<ToolResult> {
  let regex: RegExp;
  try {
    regex = new RegExp(args.pattern, args.ignore_case ? "i" : "");
  } catch (error) {
    throw new ToolError(`Invalid regular expression ${JSON.stringify(args.pattern)}: ${(error as Error).message}`);
  }
  // An explicitly named file is always searched, whatever file_glob says (as with rg).
  const fileGlob = args.file_glob && !rootIsFile ? compileGlob(args.file_glob, { braces: true }) : undefined;
  const limit = args.limit ?? 100;
  const rg = ripgrepPath();
  const { items, complete } = await collect(
    rg
      ? () =>
          ripgrepContent({
            root,
            rootIsFile,
            pattern: args.pattern,
            ignoreCase: args.ignore_case ?? false,
            fileGlob: args.file_glob,
            maxFileBytes: MAX_SEARCH_FILE_BYTES,
            skipSensitive,
            signal: ctx.signal,
          })
      : null,
    () => walkContent(root, regex, fileGlob, ctx.signal, skipSensitive),
    MAX_COLLECTED,
  );
  // Belt and braces: file_glob overrides rg's ignore file, and a repository's .gitignore can
  // re-include names; no line from a credential file gets through either way.
  if (skipSensitive) {
    for (let i = items.length - 1; i >= 0; i--) {
      const item = items[i];
      if (item && isSensitiveRelative(path.relative(root, item.path))) items.splice(i, 1);
    }
  }
  const skipped = skipSensitive ? await sensitiveFilesUnder(root, rootIsFile, rg !== null, ctx.signal) : [];
  // ripgrep reports files in parallel order; sort into the walker's order (depth-first,
  // by name: a separator sorts before any character) so results match either way.
  if (rg) {
    const key = (file: string) => file.split(path.sep).join("\0");
    items.sort((a, b) => {
      const [x, y] = [key(a.path), key(b.path)];
      return x < y ? -1 : x > y ? 1 : a.line - b.line;
    });
  }
  const matches: ContentMatch[] = items.slice(0, limit).map((hit) => ({
    path: toSlashes(displayPath(ctx.cwd, hit.path)),
    line: hit.line,
    text: clipLine(hit.text, Math.max(0, hit.text.search(regex))),
  }));
  const output: Record<string, unknown> = { matches, total: items.length, truncated: items.length > limit || !complete || ctx.signal.aborted };
  if (ctx.signal.aborted) output.note = "The search was cancelled; results are partial.";
  else if (!complete) output.note = `Stopped after ${MAX_COLLECTED} matching lines; total is a lower bound. Narrow the pattern, path or file_glob.`;
  else if (items.length > limit) output.note = `Showing ${limit} of ${items.length} matching lines. Narrow the search or raise limit.`;
  else if (items.length === 0) output.note = "No matches (.gitignored files, .git and node_modules are not searched).";
  const skippedNote = reportSkipped(output, skipped, ctx.cwd);
  const text = matches.map((m) => `${m.path}:${m.line}: ${m.text}`).join("\n");
  return { output, content: [{ type: "text", text: [text || "No matches", skippedNote].filter(Boolean).join("\n") }] };
}

async function searchNames(args: SearchArgs, root: string, rootIsFile: boolean, ctx: ToolContext, skipSensitive: boolean): Promise<ToolResult> {
  // A bare name ("config") is a substring search; anything with wildcards is a glob.
  const plain = !/[*?[{]/.test(args.pattern);
  const glob = plain ? null : compileGlob(args.pattern, { braces: true });
  const needle = args.pattern.toLowerCase();
  const fileGlob = args.file_glob ? compileGlob(args.file_glob, { braces: true }) : undefined;
  const base = rootIsFile ? path.dirname(root) : root;
  const rg = ripgrepPath();
  const { items, complete } = await collect(
    rg ? () => ripgrepFiles({ root, rootIsFile, signal: ctx.signal }) : null,
    () => walkFileNames(root, ctx.signal),
    Number.MAX_SAFE_INTEGER,
  );
  const skipped = skipSensitive ? items.filter((file) => isSensitiveRelative(path.relative(root, file))) : [];
  const matched = items.filter((file) => {
    if (skipSensitive && isSensitiveRelative(path.relative(root, file))) return false;
    const relative = toSlashes(path.relative(base, file));
    if (fileGlob && !globMatches(fileGlob, relative)) return false;
    if (glob) return globMatches(glob, relative);
    return (needle.includes("/") ? relative : path.basename(file)).toLowerCase().includes(needle);
  });
  // Most recently modified first: usually what the model is looking for.
  const withTimes = await Promise.all(
    matched.map(async (file) => ({ file, mtime: await stat(file).then((s) => s.mtimeMs, () => 0) })),
  );
  withTimes.sort((a, b) => b.mtime - a.mtime || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  const limit = args.limit ?? 50;
  const files = withTimes.slice(0, limit).map(({ file }) => toSlashes(displayPath(ctx.cwd, file)));
  const output: Record<string, unknown> = { files, total: matched.length, truncated: matched.length > limit || !complete || ctx.signal.aborted };
  if (ctx.signal.aborted) output.note = "The search was cancelled; results are partial.";
  else if (matched.length > limit) output.note = `Showing the ${limit} most recently modified of ${matched.length} files.`;
  else if (matched.length === 0) output.note = "No files matched (.gitignored files, .git and node_modules are not listed).";
  const skippedNote = reportSkipped(output, skipped, ctx.cwd);
  return { output, content: [{ type: "text", text: [files.join("\n") || "No files matched", skippedNote].filter(Boolean).join("\n") }] };
}

/** Credential files a folder search leaves out (named, never read), in walk order. */
async function sensitiveFilesUnder(root: string, rootIsFile: boolean, useRipgrep: boolean, signal: AbortSignal): Promise<string[]> {
  if (rootIsFile) return [];
  const { items } = await collect(useRipgrep ? () => ripgrepFiles({ root, rootIsFile, signal }) : null, () => walkFileNames(root, signal), Number.MAX_SAFE_INTEGER);
  return items.filter((file) => isSensitiveRelative(path.relative(root, file))).sort();
}

/** Tells the model which credential files were left out, so it can ask for one on purpose. */
function reportSkipped(output: Record<string, unknown>, skipped: string[], cwd: string): string | undefined {
  if (skipped.length === 0) return undefined;
  const shown = skipped.slice(0, 20).map((file) => toSlashes(displayPath(cwd, file)));
  output.sensitive_skipped = { count: skipped.length, files: shown };
  const note = `${skipped.length} sensitive file${skipped.length === 1 ? " was" : "s were"} not searched (they may hold credentials): ${shown.join(", ")}${skipped.length > shown.length ? ", …" : ""}. To look inside one, pass it as path or read it with read_file; the user is asked.`;
  output.note = output.note ? `${output.note as string} ${note}` : note;
  return note;
}

function searchTitle(args: SearchArgs, cwd: string): string {
  const verb = args.target === "files" ? "find" : "grep";
  const where = args.path ? ` in ${displayPath(cwd, resolvePath(cwd, args.path))}` : "";
  const glob = args.file_glob ? ` (${args.file_glob})` : "";
  return `${verb} ${JSON.stringify(args.pattern)}${where}${glob}`;
}

export const searchFilesTool = defineTool({
  name: "search_files",
  toolset: "file",
  kind: "search",
  readOnly: true,
  description:
    'Search the project (every workspace folder without a path), instead of grep/find. target "content" (default): regex over file contents, matching lines as {path, line, text} (like `rg -n`, lines cut at 300 chars). target "files": files by glob or name, newest first. Respects .gitignore; skips .git, node_modules, binaries, files over 2 MiB and credential files (named in the result; pass one as path to search it, the user is asked).',
  schema,
  title: searchTitle,
  locations: (args, cwd) => [{ path: resolvePath(cwd, args.path ?? ".") }],
  handler: async (args, ctx) => {
    // No path in a multi-root workspace: every root, the cwd first.
    if (args.path === undefined && ctx.extraRoots?.length) return searchRoots(args, [ctx.cwd, ...ctx.extraRoots], ctx);
    return searchOne(args, resolvePath(ctx.cwd, args.path ?? "."), ctx);
  },
});

/** One root (a folder or a file): asked about first, as any read. */
async function searchOne(args: SearchArgs, root: string, ctx: ToolContext): Promise<ToolResult> {
  if (!(await ctx.requestPermission({ action: "read", title: `Search ${displayPath(ctx.cwd, root)}`, paths: [root] }))) {
    throw new ToolError(`The user did not allow searching ${displayPath(ctx.cwd, root)}.`);
  }
  const info = await stat(root).catch(() => null); // expected: ENOENT: said just below as "Path not found"
  if (!info) throw new ToolError(`Path not found: ${displayPath(ctx.cwd, root)}. Search its parent folder, or use target "files" to locate it.`);
  const rootIsFile = !info.isDirectory();
  // Credential files are left out of a folder search, unless the folder (or file) searched is
  // itself sensitive: then the user was just asked about it, and said yes.
  const skipSensitive = sensitiveReason(root) === undefined;
  return args.target === "files" ? searchNames(args, root, rootIsFile, ctx, skipSensitive) : searchContent(args, root, rootIsFile, ctx, skipSensitive);
}

/**
 * One search over several roots: each root's results in root order (paths outside the cwd are
 * absolute), cut at the limit once across all of them.
 */
async function searchRoots(args: SearchArgs, roots: string[], ctx: ToolContext): Promise<ToolResult> {
  const results: ToolResult[] = [];
  for (const root of roots) results.push(await searchOne(args, root, ctx));
  const key = args.target === "files" ? "files" : "matches";
  const limit = args.limit ?? (args.target === "files" ? 50 : 100);
  const outputs = results.map((result) => result.output as Record<string, unknown>);
  const all = outputs.flatMap((output) => (Array.isArray(output[key]) ? (output[key] as unknown[]) : []));
  const total = outputs.reduce((sum, output) => sum + (typeof output.total === "number" ? output.total : 0), 0);
  const kept = all.slice(0, limit);
  const output: Record<string, unknown> = {
    [key]: kept,
    total,
    truncated: total > kept.length || outputs.some((entry) => entry.truncated === true),
    searched: roots.map((root) => toSlashes(displayPath(ctx.cwd, root) || ".")),
  };
  const notes = outputs.map((entry) => entry.note).filter((note): note is string => typeof note === "string" && !note.startsWith("No "));
  if (total > kept.length) notes.unshift(`Showing ${kept.length} of ${total} across ${roots.length} workspace folders. Narrow the search, pass a path, or raise limit.`);
  if (notes.length > 0) output.note = [...new Set(notes)].join(" ");
  const text = results.flatMap((result) => result.content ?? []).map((entry) => (entry.type === "text" ? entry.text : "")).filter((line) => line && !/^No (matches|files matched)/.test(line));
  return { output, content: [{ type: "text", text: text.join("\n") || (key === "files" ? "No files matched" : "No matches") }] };
}
