// The agent's reply as rendered markdown in a terminal (marked + marked-terminal: headings, bold,
// lists, tables, links and highlighted code), streamed block by block: text is held until its
// block is complete (a blank line outside a code fence, or the end of the reply) and then printed
// once, so nothing already on screen is ever rewritten. Colour follows NO_COLOR / FORCE_COLOR and
// the terminal (chalk decides); the width is the terminal's.
import { Marked } from "marked";
import { markedTerminal } from "marked-terminal";

export interface MarkdownStream {
  /** Adds reply text; returns what is now complete, rendered (possibly ""). */
  push(text: string): string;
  /** The rest, rendered (the reply ended, or a tool step is about to be shown). */
  end(): string;
}

export function markdownStream(options: { width: number; color: boolean }): MarkdownStream {
  const renderer = new Marked();
  renderer.use(
    markedTerminal({
      reflowText: true,
      showSectionPrefix: false,
      width: Math.max(20, options.width),
      tab: 2,
      // Without colour, tables keep their borders and lose their escape codes.
      ...(options.color ? {} : { tableOptions: { style: { head: [], border: [] } } }),
    }) as Parameters<Marked["use"]>[0],
  );
  // marked-terminal 7 prints a list item's text as written (`code`, **bold** left raw, so the
  // agent's /help list showed backticks): a text token with inline tokens is rendered inline here,
  // and any other goes on to marked-terminal (false: the renderer before this one).
  renderer.use({
    renderer: {
      text(token) {
        return "tokens" in token && token.tokens ? this.parser.parseInline(token.tokens) : false;
      },
    },
  });
  let pending = "";
  const render = (text: string): string => {
    if (!text.trim()) return text;
    const out = renderer.parse(text, { async: false });
    // One blank line between blocks, as the source had; marked-terminal ends blocks with two.
    return `${out.replace(/\n{3,}/g, "\n\n").replace(/\n+$/, "")}\n\n`;
  };
  return {
    push(text) {
      pending += text;
      const cut = completeBlocksEnd(pending);
      if (cut <= 0) return "";
      const done = pending.slice(0, cut);
      pending = pending.slice(cut);
      return render(done);
    },
    end() {
      const rest = pending;
      pending = "";
      return rest.trim() ? render(rest).replace(/\n+$/, "\n") : "";
    },
  };
}

/** Where the complete blocks of `text` end: after its last blank line that is outside a code fence (0: none). */
function completeBlocksEnd(text: string): number {
  let inFence = false;
  let end = 0;
  let offset = 0;
  const lines = text.split("\n");
  // The last piece has no newline yet: it is never a complete line.
  for (let index = 0; index < lines.length - 1; index++) {
    const line = lines[index] ?? "";
    offset += line.length + 1;
    if (/^\s{0,3}(```|~~~)/.test(line)) inFence = !inFence;
    else if (!inFence && line.trim() === "" && index > 0) end = offset;
  }
  return end;
}
