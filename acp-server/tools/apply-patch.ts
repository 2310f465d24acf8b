// apply_patch: a change to several files at once, in the apply_patch envelope or a unified diff.
// Everything is worked out in memory first (every hunk located, every file checked), the user
// approves all files' diffs in ONE request, and then all files change or none does
// (file-transaction.ts on the local disk; through the editor, written files are put back when
// a later one fails).
import { stat } from "node:fs/promises";
import * as z from "zod";
import { guardedPathReasons } from "../security/sensitive-paths";
import type { DisplayContent, FileAccess, ToolContext, WriteOutcome } from "./context";
import { commitFileChanges, recoverFileTransactions, type FileChange } from "./file-transaction";
import { LEVEL_TEXT, type MatchLevel } from "./fuzzy-match";
import { landedDiff } from "./landed-diff";
import { LocalFileAccess } from "./local-files";
import { applyHunks } from "./patch-apply";
import { parsePatch, patchPaths, type FilePatch } from "./patch-format";
import { displayPath, resolvePath, toolWorkspace } from "./paths";
import { defineTool, ToolError } from "./registry";
import { readIfExists } from "./write-file";
import { pinTarget } from "./pinned-target";
import { PathMovedError, type PinnedTarget } from "../util/no-follow-io";
import { createLogger } from "../util/log";

const log = createLogger("apply-patch");

const schema = z.object({
  patch: z
    .string()
    .min(1)
    .describe(
      'The patch. Either the apply_patch format: "*** Begin Patch", then per file "*** Add File: <path>" (every line "+"), "*** Delete File: <path>", or "*** Update File: <path>" (optionally "*** Move to: <path>") followed by hunks: "@@" or "@@ <a line the hunk follows>", then lines starting " " (context), "-" (remove) or "+" (add); and "*** End Patch" last. Or a unified diff ("--- a/<path>", "+++ b/<path>", "@@ -l,c +l,c @@" hunks; /dev/null for added or deleted files). Paths are relative to the working directory or absolute.',
    ),
});

/** One file's planned change. */
interface PlannedFile {
  patch: FilePatch;
  absolute: string;
  /** Where the new content goes (the move target, else the file itself). */
  destination: string;
  before: string | null;
  after: string | null;
  level: MatchLevel;
  firstLine: number;
}

const kindLabel = (patch: FilePatch): string => (patch.kind === "add" ? "added" : patch.kind === "delete" ? "deleted" : patch.moveTo ? "moved" : "updated");

function titleFor(paths: string[], cwd: string): string {
  if (paths.length === 1 && paths[0]) return `patch ${displayPath(cwd, resolvePath(cwd, paths[0]))}`;
  return paths.length === 0 ? "apply patch" : `patch ${paths.length} files`;
}

/** What the user approves before any file was read (a guarded path): the patch as each file's proposed change. */
function previewBeforeReading(patches: FilePatch[], cwd: string): DisplayContent[] {
  return patches.map((patch): DisplayContent => {
    const absolute = resolvePath(cwd, patch.path);
    if (patch.kind === "add") return { type: "diff", path: absolute, oldText: null, newText: patch.content };
    if (patch.kind === "delete") return { type: "text", text: `Delete ${absolute} (its content was not read).` };
    const side = (keep: "-" | "+") =>
      patch.hunks.map((hunk) => hunk.lines.filter((line) => line.kind === " " || line.kind === keep).map((line) => line.text).join("\n")).join("\n…\n");
    return { type: "diff", path: patch.moveTo ? resolvePath(cwd, patch.moveTo) : absolute, oldText: side("-"), newText: side("+") };
  });
}

async function plan(patches: FilePatch[], ctx: ToolContext, pins: Map<string, PinnedTarget>): Promise<PlannedFile[]> {
  const seen = new Set<string>();
  const planned: PlannedFile[] = [];
  const claim = (absolute: string, shown: string) => {
    if (seen.has(absolute)) throw new ToolError(`${shown} appears more than once in the patch; put all of a file's changes in one section.`);
    seen.add(absolute);
  };
  for (const patch of patches) {
    const absolute = resolvePath(ctx.cwd, patch.path);
    const shown = displayPath(ctx.cwd, absolute);
    claim(absolute, shown);
    const destination = patch.kind === "update" && patch.moveTo ? resolvePath(ctx.cwd, patch.moveTo) : absolute;
    if (destination !== absolute) claim(destination, displayPath(ctx.cwd, destination));
    if ((await stat(absolute).catch(() => undefined))?.isDirectory()) throw new ToolError(`${shown} is a directory; the patch must name files.`); // expected: ENOENT: a file the patch adds does not exist yet
    let before: string | null;
    try {
      before = await readIfExists(ctx.files, absolute, pins.get(absolute));
    } catch (error) {
      throw new ToolError(`Cannot read ${shown}: ${(error as Error).message}. Nothing was changed.`);
    }
    if (patch.kind === "add") {
      if (before !== null) throw new ToolError(`${shown} already exists; use "*** Update File: ${patch.path}" to change it. Nothing was changed.`);
      planned.push({ patch, absolute, destination, before, after: patch.content, level: "exact", firstLine: 1 });
      continue;
    }
    if (before === null) throw new ToolError(`${shown} does not exist${patch.kind === "update" ? '; use "*** Add File:" to create it' : ""}. Nothing was changed.`);
    if (patch.kind === "delete") {
      planned.push({ patch, absolute, destination, before, after: null, level: "exact", firstLine: 1 });
      continue;
    }
    // A destination that cannot be read is not known to be free: moving onto it could overwrite a file.
    const taken = destination !== absolute && (await readIfExists(ctx.files, destination, pins.get(destination)).catch((error: unknown) => {
      throw new ToolError(`Cannot move ${shown}: ${displayPath(ctx.cwd, destination)} cannot be checked (${(error as Error).message}). Nothing was changed.`);
    })) !== null;
    if (taken) {
      throw new ToolError(`Cannot move ${shown}: ${displayPath(ctx.cwd, destination)} already exists. Nothing was changed.`);
    }
    const applied = patch.hunks.length > 0 ? applyHunks(before, patch.hunks, shown) : { text: before, level: "exact" as const, firstLine: 1 };
    planned.push({ patch, absolute, destination, before, after: applied.text, level: applied.level, firstLine: applied.firstLine });
  }
  return planned;
}

/** The diffs the user approves: one per file (a move shows the new path). */
function diffsOf(planned: PlannedFile[]): { type: "diff"; path: string; oldText: string | null; newText: string }[] {
  return planned.map((file) => ({ type: "diff", path: file.destination, oldText: file.before, newText: file.after ?? "" }));
}

/** The file changes to commit: a move is a write of the destination and a delete of the source. */
function changesOf(planned: PlannedFile[], pins: Map<string, PinnedTarget>): FileChange[] {
  const change = (file: string, content: string | null): FileChange => ({ path: file, content, ...(pins.has(file) ? { pin: pins.get(file) } : {}) });
  return planned.flatMap((file): FileChange[] => {
    if (file.after === null) return [change(file.absolute, null)];
    if (file.destination !== file.absolute) return [change(file.destination, file.after), change(file.absolute, null)];
    return [change(file.absolute, file.after)];
  });
}

/**
 * Through the editor there is no rename: files are written one by one, and when one fails the
 * ones already written get their old content back (deleted ones are recreated).
 */
async function writeThroughEditor(files: FileAccess, changes: FileChange[], before: Map<string, string | null>): Promise<Map<string, WriteOutcome | void>> {
  const done: FileChange[] = [];
  const outcomes = new Map<string, WriteOutcome | void>();
  try {
    for (const change of changes) {
      if (change.content === null) await commitFileChanges([change]);
      else outcomes.set(change.path, await files.writeText(change.path, change.content, change.pin));
      done.push(change);
    }
  } catch (error) {
    for (const change of done.reverse()) {
      const original = before.get(change.path) ?? null;
      // Best effort per file: the patch's own error is what the caller gets; a file left half-way is logged.
      const undo = original === null ? commitFileChanges([{ path: change.path, content: null }]) : files.writeText(change.path, original);
      await undo.catch((undoError: unknown) => log.warn("could not put a file back after a failed patch", { file: change.path, error: undoError }));
    }
    throw error;
  }
  return outcomes;
}

export const applyPatchTool = defineTool({
  name: "apply_patch",
  toolset: "file",
  kind: "edit",
  readOnly: false,
  description:
    "Change several files in one step: add, update, delete or move files with a patch (the apply_patch envelope or a unified diff). Every hunk must match exactly one place (small whitespace or indentation drift is tolerated); the user approves all files at once, and all files change or none does. For one edit in one file, patch is simpler.",
  schema,
  title: (args, cwd) => titleFor(patchPaths(args.patch), cwd),
  locations: (args, cwd) => patchPaths(args.patch).map((file) => ({ path: resolvePath(cwd, file) })),
  handler: async (args, ctx) => {
    const patches = parsePatch(args.patch);
    const touched = [...new Set(patches.flatMap((patch) => (patch.kind === "update" && patch.moveTo ? [patch.path, patch.moveTo] : [patch.path])).map((file) => resolvePath(ctx.cwd, file)))];
    const removes = patches.some((patch) => patch.kind === "delete" || (patch.kind === "update" && patch.moveTo));
    const action = removes ? ("delete" as const) : ("edit" as const);
    const title = touched.length === 1 && touched[0] ? `Patch ${displayPath(ctx.cwd, touched[0])}` : `Patch ${touched.length} files`;
    const denied = { output: { error: `The user denied the patch. No file was changed.` }, isError: true };

    // A path outside the workspace or on a credential: the user decides before any file is read
    // (a refusal must not reveal whether the files exist or what they hold).
    // Each file's real target, resolved once: what the policy judges and the only files touched.
    const pins = new Map(touched.map((file) => [file, pinTarget(file)] as const));
    const resolved = [...pins.values()].map((pin) => pin.real);
    const askedFirst = [...touched, ...resolved].some((file) => guardedPathReasons(toolWorkspace(ctx), file).length > 0);
    if (askedFirst && !(await ctx.requestPermission({ action, title, paths: touched, resolved, content: previewBeforeReading(patches, ctx.cwd) }))) return denied;

    // A transaction a crashed process left is settled before these files are read (sessions also check when they open).
    if (ctx.files instanceof LocalFileAccess) await recoverFileTransactions();
    const planned = await plan(patches, ctx, pins);
    const diffs = diffsOf(planned);
    if (!askedFirst && !(await ctx.requestPermission({ action, title, paths: touched, resolved, content: diffs }))) return denied;

    const changes = changesOf(planned, pins);
    let outcomes = new Map<string, WriteOutcome | void>();
    try {
      if (ctx.files instanceof LocalFileAccess) await commitFileChanges(changes);
      else outcomes = await writeThroughEditor(ctx.files, changes, new Map(planned.flatMap((file) => [[file.absolute, file.before] as const, [file.destination, file.destination === file.absolute ? file.before : null] as const])));
    } catch (error) {
      // A path that moved after the approval is not written through: the whole patch is refused (and rolled back).
      if (error instanceof PathMovedError) throw new ToolError(`${error.message}. The approval was for the file as it was, so no file was changed; read the files again before patching.`);
      throw new ToolError(`The patch could not be written (${(error as Error).message}); no file was changed.`);
    }
    const notes = [...outcomes.values()].map((outcome) => outcome?.note).filter((note): note is string => note !== undefined);
    const content = await Promise.all(diffs.map((diff) => landedDiff(ctx.files, diff, outcomes.get(diff.path))));
    const loose = planned.filter((file) => file.level !== "exact");
    return {
      output: {
        files: planned.map((file) => ({
          path: displayPath(ctx.cwd, file.destination),
          ...(file.destination !== file.absolute ? { from: displayPath(ctx.cwd, file.absolute) } : {}),
          change: kindLabel(file.patch),
          ...(file.after !== null && file.patch.kind === "update" ? { first_changed_line: file.firstLine } : {}),
          ...(file.level !== "exact" ? { matched: `some hunks matched ${LEVEL_TEXT[file.level]}` } : {}),
        })),
        ...(loose.length > 0 ? { note: "Hunks that matched loosely were adapted to each file's indentation and line endings." } : {}),
        ...(notes.length > 0 ? { review: notes.join(" ") } : {}),
      },
      content,
      locations: planned.map((file) => ({ path: file.destination, ...(file.after !== null ? { line: file.firstLine } : {}) })),
    };
  },
});
