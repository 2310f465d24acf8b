// patch: exact string replacement in one file, shown to the user as a diff before writing.
import * as z from "zod";
import { guardedPathReasons } from "../security/sensitive-paths";
import { FileNotFoundError } from "./context";
import { applyMatches, candidatesText, findMatches, LEVEL_TEXT, lineAt, nonOverlapping } from "./fuzzy-match";
import { landedDiff } from "./landed-diff";
import { ioAsApproved, pinTarget } from "./pinned-target";
import { displayPath, resolvePath, toolWorkspace } from "./paths";
import { notFoundMessage } from "./read-file";
import { defineTool, ToolError } from "./registry";

const schema = z.object({
  path: z.string().min(1).describe("File to edit, absolute or relative to the working directory."),
  old_string: z
    .string()
    .describe(
      "Text to replace, quoted from the file with its whitespace and indentation, without read_file's line-number prefixes. Must be unique in the file unless replace_all is true.",
    ),
  new_string: z.string().describe("Text to put in its place (may be empty to delete)."),
  replace_all: z.boolean().optional().describe("Replace every occurrence instead of requiring exactly one. Default false."),
});

const squash = (text: string): string => text.replace(/\s+/g, " ").trim();

/**
 * Why old_string did not match, and where the file has the text most like it (read_file's
 * numbering), so the model can copy the real text instead of guessing again.
 */
export function noMatchHint(text: string, oldString: string): string {
  if (/^\s*\d+\|/m.test(oldString) && !/^\s*\d+\|/m.test(text)) {
    return 'old_string seems to include read_file line-number prefixes ("  12|"); remove them.';
  }
  const closest = candidatesText(text, oldString);
  if (closest) return `${closest}\nRe-read that region with read_file if needed and quote it exactly.`;
  if (squash(text).includes(squash(oldString))) {
    return "It matches only if line breaks are ignored: check where its lines break, and copy the text exactly.";
  }
  return "Nothing in the file resembles it; it may have changed since you read it. Re-read it with read_file.";
}

/** A small unified-diff-like view of the first replacement, for the model. */
export function hunk(
  before: string,
  after: string,
  index: number,
  oldLength: number,
  newLength: number,
): { diff: string; line: number } {
  const start = before.lastIndexOf("\n", index - 1) + 1;
  // Whole lines around the change on each side, then drop the lines both sides share.
  const region = (text: string, end: number): string[] => {
    const newline = text.indexOf("\n", end);
    return text.slice(start, newline === -1 ? text.length : newline).split("\n").map((line) => line.replace(/\r$/, ""));
  };
  const removed = region(before, index + oldLength);
  const added = region(after, index + newLength);
  let first = lineAt(before, start);
  while (removed.length > 0 && added.length > 0 && removed[0] === added[0]) {
    removed.shift();
    added.shift();
    first++;
  }
  while (removed.length > 0 && added.length > 0 && removed[removed.length - 1] === added[added.length - 1]) {
    removed.pop();
    added.pop();
  }
  const show = (lines: string[], sign: string): string[] => {
    const shown = lines.slice(0, 20).map((line) => sign + line);
    return lines.length > 20 ? [...shown, `${sign}… (${lines.length - 20} more lines)`] : shown;
  };
  return { diff: [`@@ line ${first} @@`, ...show(removed, "-"), ...show(added, "+")].join("\n"), line: first };
}

const denied = (shown: string) => ({ output: { error: `The user denied editing ${shown}. The file was not changed.` }, isError: true });

export const patchTool = defineTool({
  name: "patch",
  toolset: "file",
  kind: "edit",
  readOnly: false,
  description:
    "Edit a file by replacing a string. Quote old_string from the file exactly; small drift in line endings, trailing spaces or indentation is tolerated (whole lines, and new_string is re-indented to match), but it must identify exactly one place unless replace_all is true: include a few surrounding lines to make it unique. Read the file first. To create a file or rewrite it entirely, use write_file; to change several files at once, apply_patch.",
  schema,
  title: (args, cwd) => `edit ${displayPath(cwd, resolvePath(cwd, args.path))}`,
  locations: (args, cwd) => [{ path: resolvePath(cwd, args.path) }],
  handler: async (args, ctx) => {
    const absolute = resolvePath(ctx.cwd, args.path);
    const shown = displayPath(ctx.cwd, absolute);
    if (args.old_string === "") {
      throw new ToolError("old_string is empty. Quote the exact text to replace, or use write_file to create or rewrite a file.");
    }
    if (args.old_string === args.new_string) throw new ToolError("old_string and new_string are identical; nothing would change.");

    // Outside the workspace or on a credential, the user decides before the file is read: a
    // refused call must not say whether the file exists or whether old_string is in it.
    // The real file, resolved once: what the policy judges and the only file read and written.
    const pin = pinTarget(absolute);
    const askedFirst = guardedPathReasons(toolWorkspace(ctx), absolute).length > 0 || guardedPathReasons(toolWorkspace(ctx), pin.real).length > 0;
    const preview = { type: "diff" as const, path: absolute, oldText: args.old_string, newText: args.new_string };
    const firstAsk = { action: "edit" as const, title: `Edit ${shown}`, paths: [absolute], resolved: [pin.real], content: [preview] };
    if (askedFirst && !(await ctx.requestPermission(firstAsk))) return denied(shown);

    let before: string;
    try {
      before = await ctx.files.readText(absolute, pin);
    } catch (error) {
      if (error instanceof FileNotFoundError || (error as NodeJS.ErrnoException).code === "ENOENT") {
        throw new ToolError(`${await notFoundMessage(absolute, ctx.cwd)} To create a new file, use write_file.`);
      }
      throw new ToolError(`Cannot read ${shown}: ${(error as Error).message}`);
    }

    const result = findMatches(before, args.old_string, args.new_string);
    if (!result) throw new ToolError(`old_string was not found in ${shown}. ${noMatchHint(before, args.old_string)}`);
    const how = result.level === "exact" ? "" : ` ${LEVEL_TEXT[result.level]}`;
    if (result.matches.length > 1 && !args.replace_all) {
      const lines = result.matches.slice(0, 10).map((match) => match.line);
      throw new ToolError(
        `old_string occurs ${result.matches.length} times in ${shown}${how} (lines ${lines.join(", ")}${result.matches.length > 10 ? ", …" : ""}). Include more surrounding context to make it unique, or set replace_all: true to replace every occurrence.`,
      );
    }
    const found = nonOverlapping(result.matches);
    const firstMatch = found[0];
    if (!firstMatch) throw new ToolError(`old_string was not found in ${shown}.`);
    const after = applyMatches(before, found);
    if (after === before) throw new ToolError(`The edit changes nothing in ${shown}: old_string and new_string differ only in ways the file already has.`);

    const diff = { type: "diff" as const, path: absolute, oldText: before, newText: after };
    const diffAsk = { action: "edit" as const, title: `Edit ${shown}`, paths: [absolute], resolved: [pin.real], content: [diff], partialAccept: true };
    if (!askedFirst && !(await ctx.requestPermission(diffAsk))) return denied(shown);
    // Written only where it was judged and read; a path that moved meanwhile is asked about again.
    const written = await ioAsApproved(ctx, absolute, pin, askedFirst ? firstAsk : diffAsk, (current) => ctx.files.writeText(absolute, after, current));

    const first = hunk(before, after, firstMatch.start, firstMatch.end - firstMatch.start, firstMatch.replacement.length);
    const firstLine = first.line;
    const output: Record<string, unknown> = {
      path: shown,
      replacements: found.length,
      first_changed_line: firstLine,
      diff: first.diff,
    };
    if (result.level !== "exact") output.matched = `old_string matched${how}; new_string was adapted to the file's ${result.level === "indentation" || result.level === "whitespace" ? "indentation and line endings" : "line endings"}.`;
    if (found.length > 1) output.note = `The diff shows the first of ${found.length} replacements.`;
    if (written?.note) output.review = written.note;
    return { output, content: [await landedDiff(ctx.files, diff, written)], locations: [{ path: absolute, line: firstLine }] };
  },
});
