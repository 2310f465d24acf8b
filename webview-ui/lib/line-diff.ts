// A compact line diff for edit tool calls (old text → new text), shown inline in the card.
// Small on purpose: common prefix/suffix are trimmed, the changed middle gets an LCS when it
// is small enough, and a plain "all removed, all added" otherwise. Review cards do not use
// this: the host sends their hunks ready-made.

export interface DiffLine {
  op: " " | "-" | "+";
  text: string;
}
export interface DiffHunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: DiffLine[];
}

/** Above this many LCS cells the middle is shown as a block replacement. */
const MAX_CELLS = 250_000;

function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** Every line of both texts, tagged kept/removed/added, in order. */
export function diffLines(oldText: string, newText: string): DiffLine[] {
  const a = splitLines(oldText);
  const b = splitLines(newText);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  const out: DiffLine[] = a.slice(0, head).map((text) => ({ op: " ", text }));
  out.push(...diffMiddle(midA, midB));
  for (const text of a.slice(a.length - tail)) out.push({ op: " ", text });
  return out;
}

function diffMiddle(a: string[], b: string[]): DiffLine[] {
  if (a.length * b.length > MAX_CELLS || a.length === 0 || b.length === 0) {
    return [...a.map((text) => ({ op: "-" as const, text })), ...b.map((text) => ({ op: "+" as const, text }))];
  }
  // lcs[i][j] = LCS length of a[i..] and b[j..], in one flat array.
  const w = b.length + 1;
  const lcs = new Uint32Array((a.length + 1) * w);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * w + j] = a[i] === b[j] ? lcs[(i + 1) * w + j + 1] + 1 : Math.max(lcs[(i + 1) * w + j], lcs[i * w + j + 1]);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      out.push({ op: " ", text: a[i++] });
      j++;
    } else if (lcs[(i + 1) * w + j] >= lcs[i * w + j + 1]) out.push({ op: "-", text: a[i++] });
    else out.push({ op: "+", text: b[j++] });
  }
  while (i < a.length) out.push({ op: "-", text: a[i++] });
  while (j < b.length) out.push({ op: "+", text: b[j++] });
  return out;
}

/** Groups changes into unified-diff hunks with `context` unchanged lines around them. */
export function toHunks(lines: DiffLine[], context = 3): DiffHunk[] {
  const hunks: DiffHunk[] = [];
  const changed = lines.map((l, i) => (l.op === " " ? -1 : i)).filter((i) => i >= 0);
  if (changed.length === 0) return hunks;
  // Line numbers before each index, in the old and the new text.
  const oldAt: number[] = [];
  const newAt: number[] = [];
  let o = 1;
  let n = 1;
  for (const l of lines) {
    oldAt.push(o);
    newAt.push(n);
    if (l.op !== "+") o++;
    if (l.op !== "-") n++;
  }
  let from = Math.max(0, changed[0] - context);
  let to = Math.min(lines.length, changed[0] + context + 1);
  const flush = () => {
    const slice = lines.slice(from, to);
    hunks.push({
      oldStart: oldAt[from],
      newStart: newAt[from],
      oldLines: slice.filter((l) => l.op !== "+").length,
      newLines: slice.filter((l) => l.op !== "-").length,
      lines: slice,
    });
  };
  for (const index of changed.slice(1)) {
    if (index - context <= to) to = Math.min(lines.length, index + context + 1);
    else {
      flush();
      from = index - context;
      to = Math.min(lines.length, index + context + 1);
    }
  }
  flush();
  return hunks;
}

export function hunkHeader(h: { oldStart: number; oldLines: number; newStart: number; newLines: number }): string {
  return `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`;
}
