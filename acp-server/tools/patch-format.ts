// Multi-file patches as models write them: the `apply_patch` envelope (*** Begin Patch,
// *** Add/Update/Delete File, *** Move to, @@ context, *** End Patch) or a unified diff
// (--- / +++ headers, @@ -l,c +l,c @@ hunks, git's extended headers). Both parse to the same
// FilePatch list; applying the hunks is patch-apply.ts's job. Errors name the patch line.
import { ToolError } from "./registry";

export interface HunkLine {
  kind: " " | "-" | "+";
  text: string;
}

export interface PatchHunk {
  /** apply_patch's `@@ <context>`: a line the hunk comes after (narrows where it applies). */
  anchor?: string;
  /** A unified diff's old start line (1-based), used only to choose among equal matches. */
  oldStart?: number;
  lines: HunkLine[];
  /** "\ No newline at end of file" after the old / new side's last line. */
  oldNoEol?: boolean;
  newNoEol?: boolean;
}

export type FilePatch =
  | { kind: "add"; path: string; content: string }
  | { kind: "delete"; path: string }
  | { kind: "update"; path: string; moveTo?: string; hunks: PatchHunk[] };

const ENVELOPE = /^\*\*\* (Begin Patch|End Patch|Add File: |Update File: |Delete File: )/m;

/** Parses a patch in either format; throws ToolError with the offending line on bad syntax. */
export function parsePatch(text: string): FilePatch[] {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  const patches = ENVELOPE.test(text) ? parseEnvelope(lines) : /^--- /m.test(text) && /^\+\+\+ /m.test(text) ? parseUnified(lines) : undefined;
  if (!patches) {
    throw new ToolError(
      'The patch is in no format apply_patch knows. Use "*** Begin Patch" / "*** Update File: <path>" / "@@" hunks / "*** End Patch", or a unified diff with "--- a/<path>" and "+++ b/<path>" headers.',
    );
  }
  if (patches.length === 0) throw new ToolError("The patch changes no file.");
  return patches;
}

const bad = (line: number, message: string): ToolError => new ToolError(`Patch line ${line}: ${message}`);

function parseEnvelope(lines: string[]): FilePatch[] {
  const patches: FilePatch[] = [];
  let index = 0;
  const at = () => lines[index] ?? "";
  while (index < lines.length && at().trim() === "") index++;
  if (at().trim() === "*** Begin Patch") index++;
  let ended = false;
  while (index < lines.length) {
    const line = at();
    const number = index + 1;
    if (line.trim() === "*** End Patch") {
      ended = true;
      index++;
      break;
    }
    if (line.trim() === "") {
      index++;
      continue;
    }
    let match: RegExpExecArray | null;
    if ((match = /^\*\*\* Add File: (.+)$/.exec(line))) {
      index++;
      const content: string[] = [];
      while (index < lines.length && !at().startsWith("*** ")) {
        if (!at().startsWith("+")) throw bad(index + 1, `every line of an added file starts with "+" (got ${JSON.stringify(at().slice(0, 40))}).`);
        content.push(at().slice(1));
        index++;
      }
      patches.push({ kind: "add", path: pathOf(match[1], number), content: content.length > 0 ? `${content.join("\n")}\n` : "" });
    } else if ((match = /^\*\*\* Delete File: (.+)$/.exec(line))) {
      index++;
      patches.push({ kind: "delete", path: pathOf(match[1], number) });
    } else if ((match = /^\*\*\* Update File: (.+)$/.exec(line))) {
      index++;
      const file = pathOf(match[1], number);
      let moveTo: string | undefined;
      const move = /^\*\*\* Move to: (.+)$/.exec(at());
      if (move) {
        moveTo = pathOf(move[1], index + 1);
        index++;
      }
      const hunks: PatchHunk[] = [];
      let hunk: PatchHunk | undefined;
      while (index < lines.length) {
        const body = at();
        if (body.startsWith("*** End of File")) {
          index++;
          continue;
        }
        if (body.startsWith("*** ")) break;
        if (body.startsWith("@@")) {
          if (hunk) dropSeparators(hunk, lines, index);
          const anchor = body.replace(/^@@+\s?/, "").replace(/\s*@@\s*$/, "");
          hunk = { ...(anchor.trim() ? { anchor } : {}), lines: [] };
          hunks.push(hunk);
        } else {
          if (!hunk) {
            // The first hunk may omit its "@@".
            hunk = { lines: [] };
            hunks.push(hunk);
          }
          hunk.lines.push(hunkLine(body));
        }
        index++;
      }
      if (hunk) dropSeparators(hunk, lines, index);
      const changing = hunks.filter((entry) => entry.lines.some((entry) => entry.kind !== " "));
      if (changing.length === 0 && !moveTo) throw bad(number, `the update of ${file} has no "+" or "-" lines.`);
      patches.push({ kind: "update", path: file, ...(moveTo ? { moveTo } : {}), hunks: changing });
    } else {
      throw bad(number, `expected "*** Add File:", "*** Update File:", "*** Delete File:" or "*** End Patch", got ${JSON.stringify(line.slice(0, 60))}.`);
    }
  }
  if (!ended) throw new ToolError('The patch has no "*** End Patch" line; it may have been cut off, so nothing was applied.');
  while (index < lines.length && at().trim() === "") index++;
  if (index < lines.length) throw bad(index + 1, 'text after "*** End Patch".');
  return patches;
}

/**
 * Truly empty lines (no prefix at all) at the end of a hunk, just before `next`, are separators
 * between sections rather than context, and are dropped. An empty line with its " " is kept.
 */
function dropSeparators(hunk: PatchHunk, lines: string[], next: number): void {
  let back = next - 1;
  while (back >= 0 && lines[back] === "" && hunk.lines.length > 0) {
    const last = hunk.lines[hunk.lines.length - 1];
    if (last?.kind !== " " || last.text !== "") break;
    hunk.lines.pop();
    back--;
  }
}

/** A hunk body line; a line with no prefix at all is an empty context line whose space was lost. */
function hunkLine(line: string): HunkLine {
  const kind = line[0];
  if (kind === "+" || kind === "-" || kind === " ") return { kind, text: line.slice(1) };
  return { kind: " ", text: line };
}

function pathOf(raw: string | undefined, line: number): string {
  const file = (raw ?? "").trim();
  if (!file) throw bad(line, "the file path is missing.");
  return file;
}

/** A unified diff header path: git's a/ b/ prefixes and a trailing timestamp removed; /dev/null is none. */
function headerPath(raw: string, prefix: "a/" | "b/", stripPrefix: boolean): string | undefined {
  let file = raw.split("\t")[0]?.trim() ?? "";
  if (file.startsWith('"') && file.endsWith('"')) file = JSON.parse(file) as string;
  if (file === "/dev/null") return undefined;
  return stripPrefix && file.startsWith(prefix) ? file.slice(2) : file;
}

function parseUnified(lines: string[]): FilePatch[] {
  const patches: FilePatch[] = [];
  // git diffs (and diff -u of a/ b/ trees) prefix every path; a bare diff does not.
  const gitStyle = lines.some((line) => line.startsWith("diff --git ")) || lines.every((line) => !line.startsWith("--- ") || /^--- (a\/|\/dev\/null)/.test(line));
  let index = 0;
  while (index < lines.length) {
    const line = lines[index] ?? "";
    if (!(line.startsWith("--- ") && (lines[index + 1] ?? "").startsWith("+++ "))) {
      index++; // diff --git, index, mode lines and prose between files
      continue;
    }
    const number = index + 1;
    const from = headerPath(line.slice(4), "a/", gitStyle);
    const to = headerPath((lines[index + 1] ?? "").slice(4), "b/", gitStyle);
    index += 2;
    const hunks: PatchHunk[] = [];
    while (index < lines.length) {
      const header = lines[index] ?? "";
      if (header.startsWith("--- ") && (lines[index + 1] ?? "").startsWith("+++ ")) break;
      if (header.startsWith("diff --git ")) break;
      const range = /^@@ -(\d+)(?:,\d+)? \+\d+(?:,\d+)? @@/.exec(header);
      if (!range) {
        if (header.startsWith("@@")) throw bad(index + 1, `a hunk header reads "@@ -<line>,<count> +<line>,<count> @@" (got ${JSON.stringify(header.slice(0, 60))}).`);
        index++;
        continue;
      }
      const hunk: PatchHunk = { oldStart: Number(range[1]), lines: [] };
      index++;
      while (index < lines.length) {
        const body = lines[index] ?? "";
        if (body.startsWith("@@") || body.startsWith("diff --git ") || (body.startsWith("--- ") && (lines[index + 1] ?? "").startsWith("+++ "))) break;
        if (body.startsWith("\\")) {
          const previous = hunk.lines[hunk.lines.length - 1];
          if (previous?.kind !== "+") hunk.oldNoEol = true;
          if (previous?.kind !== "-") hunk.newNoEol = true;
        } else {
          hunk.lines.push(hunkLine(body));
        }
        index++;
      }
      dropSeparators(hunk, lines, index);
      hunks.push(hunk);
    }
    if (from === undefined && to === undefined) throw bad(number, "both sides are /dev/null.");
    if (from === undefined) {
      const added = hunks.flatMap((hunk) => hunk.lines.filter((entry) => entry.kind !== "-").map((entry) => entry.text));
      const noEol = hunks[hunks.length - 1]?.newNoEol;
      patches.push({ kind: "add", path: to as string, content: added.length > 0 ? added.join("\n") + (noEol ? "" : "\n") : "" });
    } else if (to === undefined) {
      patches.push({ kind: "delete", path: from });
    } else {
      if (hunks.length === 0 && from === to) throw bad(number, `the diff of ${from} has no hunks.`);
      patches.push({ kind: "update", path: from, ...(to !== from ? { moveTo: to } : {}), hunks });
    }
  }
  return patches;
}

/** The paths a patch names, for titles and locations (empty when it does not parse). */
export function patchPaths(text: string): string[] {
  try {
    return parsePatch(text).flatMap((patch) => (patch.kind === "update" && patch.moveTo ? [patch.path, patch.moveTo] : [patch.path]));
  } catch {
    // expected: a patch that does not parse names no paths here; applying it reports the parse error
    return [];
  }
}
