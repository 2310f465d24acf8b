// read_file: a page of a text file with line numbers, read through ctx.files so the
// editor's unsaved buffers win when the client serves the file system.
import { constants, statSync, type Stats } from "node:fs";
import { open, readdir } from "node:fs/promises";
import path from "node:path";
import * as z from "zod";
import { FileNotFoundError } from "./context";
import { BINARY_SNIFF_BYTES, looksBinary } from "./file-walker";
import { displayPath, resolvePath } from "./paths";
import { readHeadSync, SYNC_READ_BYTES } from "./local-files";
import { imageMimeType, readImageFile } from "./image-file";
import { ioAsApproved, pinTarget } from "./pinned-target";
import { openPinnedForRead, type PinnedTarget } from "../util/no-follow-io";
import { defineTool, ToolError } from "./registry";
import { redactSecrets } from "../util/redact";

export const DEFAULT_READ_LIMIT = 2000;
export const MAX_LINE_CHARS = 2000;
/** Characters of numbered content returned per call. */
export const MAX_READ_CHARS = 100_000;
/** Local files larger than this are refused: paging them would load it all each time. */
const MAX_FILE_BYTES = 32 * 1024 * 1024;

const schema = z.object({
  path: z.string().min(1).describe("File to read, absolute or relative to the working directory."),
  offset: z.number().int().positive().optional().describe("1-based line number to start from. Default 1."),
  limit: z.number().int().positive().optional().describe(`Maximum number of lines to return. Default ${DEFAULT_READ_LIMIT}.`),
});

/** Edit distance, for "did you mean" suggestions on short file names. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      // Both rows hold b.length + 1 numbers: every index here is in bounds.
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** Names in `candidates` that look like typos or extension slips of `wanted`, best first. */
export function similarNames(wanted: string, candidates: string[], max = 5): string[] {
  const target = wanted.toLowerCase();
  const stem = (name: string) => name.replace(/\.[^.]*$/, "");
  const scored: { name: string; score: number }[] = [];
  for (const name of candidates) {
    const lower = name.toLowerCase();
    const d = distance(target, lower);
    const close = d <= Math.max(2, Math.floor(target.length / 4));
    const sameStem = stem(lower) === stem(target) && stem(target) !== "";
    const contains = target.length >= 3 && (lower.includes(target) || target.includes(lower));
    if (close || sameStem || contains) scored.push({ name, score: sameStem ? Math.min(d, 1) : d });
  }
  return scored
    .sort((a, b) => a.score - b.score || a.name.localeCompare(b.name))
    .slice(0, max)
    .map((s) => s.name);
}

/** "File not found" with suggestions from the same folder, so the model can retry at once. */
export async function notFoundMessage(absolute: string, cwd: string): Promise<string> {
  const shown = displayPath(cwd, absolute);
  const folder = path.dirname(absolute);
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    // expected: the folder is missing (or unreadable): the answer says the file was not found there
    return `File not found: ${shown} (the folder ${displayPath(cwd, folder)} does not exist either). Use search_files with target "files" to locate it.`;
  }
  const similar = similarNames(path.basename(absolute), names).map((name) => displayPath(cwd, path.join(folder, name)));
  return similar.length > 0
    ? `File not found: ${shown}. Did you mean: ${similar.join(", ")}?`
    : `File not found: ${shown}. Use search_files with target "files" to locate it.`;
}

/**
 * Checks the local copy (if any) before reading: folders, huge and binary files are refused.
 * Undefined when there is no local file. A small regular file read from this disk is sniffed in
 * the text read next (`sniffed: false`): one no-follow walk per read instead of two. Anything
 * else is sniffed here, a regular file with blocking calls (local-files.ts says why), anything
 * else the asynchronous way.
 */
async function checkLocalFile(pin: PinnedTarget, shown: string, viaEditor: boolean): Promise<{ size: number; sniffed: boolean } | undefined> {
  const absolute = pin.real;
  let info: Stats | undefined;
  try {
    info = statSync(absolute); // metadata only: never waits on a FIFO
  } catch {
    // expected: a path that cannot be stat'ed is left to ctx.files, which reports why
    return undefined;
  }
  if (info.isDirectory()) {
    throw new ToolError(`${shown} is a directory, not a file. Use search_files with target "files" to list what it contains.`);
  }
  if (!viaEditor && info.size > MAX_FILE_BYTES) {
    throw new ToolError(`${shown} is too large to read (${info.size} bytes). Use search_files to find the relevant lines.`);
  }
  if (!viaEditor && info.isFile() && info.size <= SYNC_READ_BYTES) return { size: info.size, sniffed: false };
  let head: Buffer | undefined;
  try {
    // The pinned file, opened no-follow: a name swapped for a link meanwhile is not sniffed through.
    head = openPinnedForRead(pin, (fd, opened) => (opened.isFile() ? readHeadSync(fd, BINARY_SNIFF_BYTES) : undefined));
  } catch {
    // expected: unreadable here; ctx.files reports the reason when it reads the file
    return { size: info.size, sniffed: true };
  }
  if (head === undefined) head = await readHeadAsync(absolute);
  if (head && looksBinary(head)) throw binaryError(shown, info.size);
  return { size: info.size, sniffed: true };
}

/** The first bytes of something that is not a regular file (undefined: unreadable here). */
async function readHeadAsync(absolute: string): Promise<Buffer | undefined> {
  const handle = await open(absolute, constants.O_RDONLY | constants.O_NOFOLLOW).catch(() => null); // expected: unreadable here: undefined means "do not sniff", and ctx.files reports the reason
  if (!handle) return undefined;
  try {
    const buffer = Buffer.alloc(BINARY_SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, BINARY_SNIFF_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

const binaryError = (shown: string, size?: number) =>
  new ToolError(`${shown} is a binary file${size === undefined ? "" : ` (${size} bytes)`}; read_file only reads text files.`);

function rangeTitle(args: { offset?: number; limit?: number }): string {
  if (args.offset === undefined && args.limit === undefined) return "";
  const first = args.offset ?? 1;
  return args.limit === undefined ? ` (from line ${first})` : ` (lines ${first}-${first + args.limit - 1})`;
}

export const readFileTool = defineTool({
  name: "read_file",
  toolset: "file",
  kind: "read",
  readOnly: true,
  maxResultChars: MAX_READ_CHARS + 40_000, // room for JSON escaping of the content
  description: `Read a text file. Returns lines numbered as "  12|text" (the number and "|" are not part of the file: drop them when quoting text for patch). Reads up to ${DEFAULT_READ_LIMIT} lines or ${MAX_READ_CHARS} characters per call; use offset (1-based first line) and limit to page through larger files. Lines over ${MAX_LINE_CHARS} characters are cut. Binary files and directories are refused (use search_files to list folders).`,
  schema,
  title: (args, cwd) => `read ${displayPath(cwd, resolvePath(cwd, args.path))}${rangeTitle(args)}`,
  locations: (args, cwd) => [{ path: resolvePath(cwd, args.path), line: args.offset ?? 1 }],
  handler: async (args, ctx) => {
    const absolute = resolvePath(ctx.cwd, args.path);
    const shown = displayPath(ctx.cwd, absolute);
    // The real file, resolved once: what the policy judges and the only file read.
    const pin = pinTarget(absolute);
    const ask = { action: "read" as const, title: `Read ${shown}`, paths: [absolute], resolved: [pin.real] };
    // Inside the workspace this is instant; outside it, or for credentials, the user decides.
    if (!(await ctx.requestPermission(ask))) {
      throw new ToolError(`The user did not allow reading ${shown}.`);
    }
    const imageType = imageMimeType(absolute);
    if (imageType) return readImageFile(pin, shown, imageType);
    const local = await checkLocalFile(pin, shown, ctx.files.viaEditor);
    let text: string;
    try {
      // A path that moved since it was judged is asked about again where it now leads.
      text = await ioAsApproved(ctx, absolute, pin, ask, (current) => ctx.files.readText(absolute, current));
    } catch (error) {
      if (error instanceof FileNotFoundError || (error as NodeJS.ErrnoException).code === "ENOENT") {
        throw new ToolError(await notFoundMessage(absolute, ctx.cwd));
      }
      throw new ToolError(`Cannot read ${shown}: ${(error as Error).message}`);
    }
    // Files not sniffed on disk (editor-only, or small and local): the text itself is the evidence.
    if (!local?.sniffed && text.slice(0, BINARY_SNIFF_BYTES).includes("\0")) throw binaryError(shown, local?.size);

    const lines = text.split("\n");
    if (lines[lines.length - 1] === "") lines.pop(); // a final newline does not start a new line
    const total = lines.length;
    const offset = args.offset ?? 1;
    const limit = args.limit ?? DEFAULT_READ_LIMIT;
    if (total > 0 && offset > total) {
      throw new ToolError(`offset ${offset} is past the end of ${shown}, which has ${total} lines.`);
    }
    const last = Math.min(total, offset + limit - 1);
    const width = Math.max(4, String(last).length);
    const out: string[] = [];
    /** The same lines without their numbers: what the editor's card shows. */
    const plain: string[] = [];
    let chars = 0;
    for (let n = offset; n <= last; n++) {
      let line = lines[n - 1];
      if (line === undefined) break;
      if (line.endsWith("\r")) line = line.slice(0, -1);
      if (line.length > MAX_LINE_CHARS) {
        // Redact before cutting: a key cut in half matches no rule (minified JSON, one-line .env).
        line = redactSecrets(line);
        if (line.length > MAX_LINE_CHARS) line = `${line.slice(0, MAX_LINE_CHARS)}… [line cut: ${line.length - MAX_LINE_CHARS} more characters]`;
      }
      const numbered = `${String(n).padStart(width)}|${line}`;
      if (out.length > 0 && chars + numbered.length + 1 > MAX_READ_CHARS) break;
      out.push(numbered);
      plain.push(line);
      chars += numbered.length + 1;
    }
    const lastShown = offset + out.length - 1;
    const output: Record<string, unknown> = {
      path: shown,
      content: out.join("\n"),
      total_lines: total,
      offset,
      lines_returned: out.length,
    };
    if (total === 0) output.note = "The file is empty.";
    if (lastShown < total) {
      output.truncated = `Showing lines ${offset}-${lastShown} of ${total}. Call read_file again with offset=${lastShown + 1} to continue.`;
    }
    // The card shows the file's text, not the JSON the model reads (escaped newlines and all).
    const shownText = total === 0 ? "(empty file)" : plain.join("\n") + (lastShown < total ? `\n… lines ${lastShown + 1}-${total} not read` : "");
    return { output, content: [{ type: "text", text: shownText }], locations: [{ path: absolute, line: offset }] };
  },
});
