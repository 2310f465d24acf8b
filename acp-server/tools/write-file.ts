// write_file: replaces (or creates) a whole file after the user approves the diff.
import { stat } from "node:fs/promises";
import * as z from "zod";
import { guardedPathReasons } from "../security/sensitive-paths";
import { FileNotFoundError, type FileAccess } from "./context";
import { landedDiff } from "./landed-diff";
import { ioAsApproved, pinTarget } from "./pinned-target";
import type { PinnedTarget } from "../util/no-follow-io";
import { displayPath, resolvePath, toolWorkspace } from "./paths";
import { defineTool, ToolError } from "./registry";

const schema = z.object({
  path: z.string().min(1).describe("File to write, absolute or relative to the working directory. Missing folders are created."),
  content: z.string().describe("The complete new content of the file."),
});

/** Current text of a file, or null when it does not exist. */
export async function readIfExists(files: FileAccess, absolute: string, pin?: PinnedTarget): Promise<string | null> {
  try {
    return await files.readText(absolute, pin);
  } catch (error) {
    if (error instanceof FileNotFoundError || (error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

export const writeFileTool = defineTool({
  name: "write_file",
  toolset: "file",
  kind: "edit",
  readOnly: false,
  description:
    "Create a file or replace its entire content (parent folders are created). The content is written exactly as given, so include everything the file should contain. For changes to part of an existing file, use patch instead: it is cheaper and safer.",
  schema,
  title: (args, cwd) => `write ${displayPath(cwd, resolvePath(cwd, args.path))}`,
  locations: (args, cwd) => [{ path: resolvePath(cwd, args.path) }],
  handler: async (args, ctx) => {
    const absolute = resolvePath(ctx.cwd, args.path);
    const shown = displayPath(ctx.cwd, absolute);
    const denied = { output: { error: `The user denied writing ${shown}. The file was not changed.` }, isError: true };
    // The real file, resolved once: what the policy judges and the only file the write may touch.
    const pin = pinTarget(absolute);
    // Outside the workspace or on a credential, ask before looking at the file at all (its
    // existence and old content are not the model's business until the user says yes).
    const askedFirst = guardedPathReasons(toolWorkspace(ctx), absolute).length > 0 || guardedPathReasons(toolWorkspace(ctx), pin.real).length > 0;
    const note = { type: "text" as const, text: `${shown} is not an ordinary workspace file; its current content (if any) was not read and is replaced entirely.` };
    const firstAsk = { action: "edit" as const, title: `Write ${shown}`, paths: [absolute], resolved: [pin.real], content: [note, { type: "diff" as const, path: absolute, oldText: null, newText: args.content }] };
    if (askedFirst && !(await ctx.requestPermission(firstAsk))) return denied;
    const info = await stat(pin.real).catch(() => null); // expected: ENOENT: a new file has nothing to stat
    if (info?.isDirectory()) throw new ToolError(`${shown} is a directory; give the path of a file inside it.`);

    // Asked first: the old text only feeds the card's diff, so a path that moved just shows none (the write below asks again).
    const oldText = askedFirst ? await readIfExists(ctx.files, absolute, pin).catch(() => null) : await readIfExists(ctx.files, absolute, pin); // expected: see the line above
    const diff = { type: "diff" as const, path: absolute, oldText, newText: args.content };
    const diffAsk = { action: "edit" as const, title: `Write ${shown}`, paths: [absolute], resolved: [pin.real], content: [diff], partialAccept: true };
    if (!askedFirst && !(await ctx.requestPermission(diffAsk))) return denied;
    // Written only where it was judged; a path that moved meanwhile is asked about again.
    const written = await ioAsApproved(ctx, absolute, pin, askedFirst ? firstAsk : diffAsk, (current) => ctx.files.writeText(absolute, args.content, current));
    return {
      output: {
        path: shown,
        bytes_written: Buffer.byteLength(args.content, "utf8"),
        created: oldText === null,
        ...(written?.note ? { review: written.note } : {}),
      },
      content: [await landedDiff(ctx.files, diff, written)],
      locations: [{ path: absolute }],
    };
  },
});
