// One file's hunks applied to its text in memory, in order, each located by the same matcher
// as `patch` (exact first, then line endings, trailing whitespace, indentation, whitespace).
// A hunk must land in exactly one place: an @@ anchor line or a unified diff's line number
// only choose among equal matches; when they cannot, the patch is refused, never guessed.
import { applyMatches, candidatesText, findMatches, LEVEL_TEXT, lineAt, type MatchLevel, type TextMatch } from "./fuzzy-match";
import type { PatchHunk } from "./patch-format";
import { ToolError } from "./registry";

export interface AppliedFile {
  text: string;
  /** The loosest level any hunk needed ("exact" when all matched exactly). */
  level: MatchLevel;
  /** 1-based line of the first change. */
  firstLine: number;
}

const LEVEL_ORDER: MatchLevel[] = ["exact", "line_endings", "trailing_whitespace", "indentation", "whitespace"];

function sideText(hunk: PatchHunk, side: "old" | "new"): string {
  const keep = side === "old" ? "-" : "+";
  const lines = hunk.lines.filter((line) => line.kind === " " || line.kind === keep).map((line) => line.text);
  if (lines.length === 0) return "";
  const noEol = side === "old" ? hunk.oldNoEol : hunk.newNoEol;
  return lines.join("\n") + (noEol ? "" : "\n");
}

/** Offset of the start of 1-based `line` (the end of the text past the last line). */
function lineOffset(text: string, line: number): number {
  let offset = 0;
  for (let current = 1; current < line; current++) {
    const newline = text.indexOf("\n", offset);
    if (newline === -1) return text.length;
    offset = newline + 1;
  }
  return offset;
}

/** `hunks` applied to `text`; throws ToolError naming the file and hunk that does not apply. */
export function applyHunks(text: string, hunks: PatchHunk[], shown: string): AppliedFile {
  let current = text;
  let from = 0;
  /** Lines the hunks so far added minus removed: a unified diff's old line numbers shift by it. */
  let shift = 0;
  let level: MatchLevel = "exact";
  let firstLine = Number.POSITIVE_INFINITY;
  hunks.forEach((hunk, index) => {
    const where = hunks.length > 1 ? `hunk ${index + 1} of ${shown}` : `the hunk for ${shown}`;
    const oldText = sideText(hunk, "old");
    const newText = sideText(hunk, "new");
    const anchorAt = hunk.anchor === undefined ? undefined : anchorOffset(current, hunk.anchor, from);
    if (hunk.anchor !== undefined && anchorAt === undefined) {
      throw new ToolError(`${where}: its @@ line "${hunk.anchor.trim()}" is not in the file (after the previous hunk). ${candidatesText(current, hunk.anchor)}`.trim());
    }
    if (oldText === "") {
      // Only additions: after the anchor line, at the diff's line, or at the end of the file.
      let at = current.length;
      if (anchorAt !== undefined) at = lineOffset(current, lineAt(current, anchorAt) + 1);
      else if (hunk.oldStart !== undefined) at = lineOffset(current, hunk.oldStart + shift + 1);
      if (at === current.length && current !== "" && !current.endsWith("\n")) current += "\n";
      const eol = current.includes("\r\n") ? newText.replace(/\r?\n/g, "\r\n") : newText;
      current = current.slice(0, at) + eol + current.slice(at);
      firstLine = Math.min(firstLine, lineAt(current, at));
      from = at + eol.length;
      shift += countLines(newText);
      return;
    }
    const result = findMatches(current, oldText, newText, { from: anchorAt ?? from });
    if (!result) {
      const closest = candidatesText(current, oldText);
      throw new ToolError(`${where}: its context and "-" lines were not found${from > 0 ? " after the previous hunk" : ""}. ${closest || "Nothing in the file resembles them; re-read it."}`);
    }
    let matches: TextMatch[] = result.matches;
    if (matches.length > 1 && hunk.oldStart !== undefined) {
      const expected = hunk.oldStart + shift;
      const atLine = matches.filter((match) => match.line === expected);
      if (atLine.length === 1) matches = atLine;
    }
    const [match] = matches;
    if (!match) throw new ToolError(`${where}: not found.`);
    if (matches.length > 1) {
      const how = result.level === "exact" ? "" : ` ${LEVEL_TEXT[result.level]}`;
      throw new ToolError(
        `${where} matches ${matches.length} places${how} (lines ${matches.slice(0, 10).map((entry) => entry.line).join(", ")}). Add context lines (or an "@@ <line it follows>" anchor) so it matches one place.`,
      );
    }
    if (LEVEL_ORDER.indexOf(result.level) > LEVEL_ORDER.indexOf(level)) level = result.level;
    current = applyMatches(current, [match]);
    firstLine = Math.min(firstLine, match.line);
    from = match.start + match.replacement.length;
    shift += countLines(newText) - countLines(oldText);
  });
  return { text: current, level, firstLine: Number.isFinite(firstLine) ? firstLine : 1 };
}

const countLines = (text: string): number => (text === "" ? 0 : text.split("\n").length - (text.endsWith("\n") ? 1 : 0));

/** Offset of the first line at or after `from` that contains the anchor (trimmed), else undefined. */
function anchorOffset(text: string, anchor: string, from: number): number | undefined {
  const wanted = anchor.trim();
  let start = text.lastIndexOf("\n", from - 1) + 1;
  while (start < text.length) {
    const newline = text.indexOf("\n", start);
    const end = newline === -1 ? text.length : newline;
    if (text.slice(start, end).includes(wanted)) return start;
    if (newline === -1) break;
    start = newline + 1;
  }
  return undefined;
}
