// Splits streaming markdown into top-level blocks, so a growing reply re-parses only its last
// block: every earlier block is complete, its HTML is cached and its DOM is left alone.
// Blocks end at a blank line outside a code fence, unless the next line is indented (a list
// item's continuation or an indented code block, which must stay with what precedes it).

export interface MarkdownBlock {
  text: string;
  /** Offset of the block's first line in the whole text. */
  start: number;
  /** False for the last block of a streaming text whose code fence is still open. */
  closed: boolean;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

export function splitBlocks(text: string): MarkdownBlock[] {
  const lines = text.split("\n");
  const blocks: MarkdownBlock[] = [];
  let current: string[] = [];
  let currentStart = 0;
  let offset = 0; // of line i
  let fence: string | undefined;
  // nextText[i]: the first non-blank line after line i (one backward pass keeps this linear).
  const nextText = new Array<string | undefined>(lines.length);
  for (let i = lines.length - 1, seen: string | undefined; i >= 0; i--) {
    nextText[i] = seen;
    if (lines[i].trim() !== "") seen = lines[i];
  }
  const push = () => {
    if (current.some((l) => l.trim() !== "")) blocks.push({ text: current.join("\n"), start: currentStart, closed: true });
    current = [];
  };
  for (let i = 0; i < lines.length; offset += lines[i].length + 1, i++) {
    const line = lines[i];
    if (current.length === 0) currentStart = offset;
    const marker = FENCE.exec(line)?.[1];
    if (fence) {
      // A closing fence uses the same character, at least as long, and nothing else.
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = undefined;
      current.push(line);
      continue;
    }
    if (marker) {
      fence = marker;
      current.push(line);
      continue;
    }
    if (line.trim() === "") {
      const next = nextText[i];
      if (next !== undefined && !/^\s/.test(next)) {
        push();
        continue;
      }
    }
    current.push(line);
  }
  if (current.some((l) => l.trim() !== "")) blocks.push({ text: current.join("\n"), start: currentStart, closed: fence === undefined });
  return blocks;
}

/**
 * The blocks of `text` when it extends `previous` (a streamed reply growing): every block but
 * the last is final, so only the last one and the new text are split again. The result's
 * earlier blocks are the same objects, so work cached on them stays valid.
 */
export function extendBlocks(previous: { text: string; blocks: MarkdownBlock[] } | undefined, text: string): MarkdownBlock[] {
  if (!previous || previous.blocks.length === 0 || !text.startsWith(previous.text)) return splitBlocks(text);
  const kept = previous.blocks.slice(0, -1);
  const from = previous.blocks[previous.blocks.length - 1].start;
  for (const block of splitBlocks(text.slice(from))) kept.push({ ...block, start: block.start + from });
  return kept;
}
