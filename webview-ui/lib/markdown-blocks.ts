// Splits streaming markdown into top-level blocks, so a growing reply re-parses only its last
// block: every earlier block is complete, its HTML is cached and its DOM is left alone.
// Blocks end at a blank line outside a code fence, unless the next line is indented (a list
// item's continuation or an indented code block, which must stay with what precedes it).

export interface MarkdownBlock {
  text: string;
  /** False for the last block of a streaming text whose code fence is still open. */
  closed: boolean;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

export function splitBlocks(text: string): MarkdownBlock[] {
  const lines = text.split("\n");
  const blocks: MarkdownBlock[] = [];
  let current: string[] = [];
  let fence: string | undefined;
  // nextText[i]: the first non-blank line after line i (one backward pass keeps this linear).
  const nextText: (string | undefined)[] = new Array(lines.length);
  for (let i = lines.length - 1, seen: string | undefined; i >= 0; i--) {
    nextText[i] = seen;
    if (lines[i].trim() !== "") seen = lines[i];
  }
  const push = () => {
    if (current.some((l) => l.trim() !== "")) blocks.push({ text: current.join("\n"), closed: true });
    current = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
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
  if (current.some((l) => l.trim() !== "")) blocks.push({ text: current.join("\n"), closed: fence === undefined });
  return blocks;
}
