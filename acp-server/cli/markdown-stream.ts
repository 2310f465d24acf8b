// The agent's reply as rendered markdown in a terminal (marked + marked-terminal: headings, bold,
// lists, tables, links and highlighted code), streamed block by block: text is held until its
// block is complete (a blank line outside a code fence, or the end of the reply) and then printed
// once, so nothing already on screen is ever rewritten. The caller decides colour (NO_COLOR,
// FORCE_COLOR, a terminal: terminal-colour.ts), and every style comes from our palette, code
// highlighting included, so chalk's own guess never overrules it; the width is the terminal's.
import { stripVTControlCharacters } from "node:util";
import { Marked } from "marked";
import { markedTerminal } from "marked-terminal";
import { highlight, DEFAULT_THEME, type Theme } from "cli-highlight";
import { palette, type Palette } from "./terminal-colour";
import { withoutControls } from "./terminal-safe";

export interface MarkdownStream {
  /** Adds reply text; returns what is now complete, rendered (possibly ""). */
  push(text: string): string;
  /** The rest, rendered (the reply ended, or a tool step is about to be shown). */
  end(): string;
}

export function markdownStream(options: { width: number; color: boolean }): MarkdownStream {
  const colours = palette(options.color);
  const codeTheme = highlightTheme(colours);
  const renderer = new Marked();
  renderer.use(
    markedTerminal({
      ...markdownStyles(colours),
      reflowText: true,
      showSectionPrefix: false,
      width: Math.max(20, options.width),
      tab: 2,
      // Tables keep their borders; their colours would come from another library's own guess.
      tableOptions: { style: { head: [], border: [] } },
    }) as Parameters<Marked["use"]>[0],
  );
  renderer.use({
    renderer: {
      // marked-terminal 7 prints a list item's text as written (`code`, **bold** left raw, so the
      // agent's /help list showed backticks): a text token with inline tokens is rendered inline
      // here, and any other goes on to marked-terminal (false: the renderer before this one).
      text(token) {
        return "tokens" in token && token.tokens ? this.parser.parseInline(token.tokens) : false;
      },
      // A link shows where it goes: its text, then the address (marked-terminal would make it a
      // terminal hyperlink, OSC 8, showing only the text, so "github.com/…" could lead anywhere).
      link(token) {
        const text = this.parser.parseInline(token.tokens);
        const href = colours.blue(colours.underline(withoutControls(token.href)));
        return stripVTControlCharacters(text) === token.href ? href : `${text} (${href})`;
      },
      // marked-terminal highlights only when its own chalk thinks the terminal has colour.
      code(token) {
        const code = withoutControls(token.text);
        const shown = colours.enabled ? highlighted(code, token.lang, codeTheme, colours) : code;
        return `${shown.replace(/^/gm, "  ")}\n\n`;
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

/** marked-terminal's style options, each from our palette (identity when colour is off). */
function markdownStyles(colours: Palette) {
  const plain = (text: string) => text;
  return {
    code: colours.yellow,
    blockquote: (text: string) => colours.gray(colours.italic(text)),
    html: colours.gray,
    heading: (text: string) => colours.green(colours.bold(text)),
    firstHeading: (text: string) => colours.magenta(colours.underline(colours.bold(text))),
    hr: plain,
    listitem: plain,
    table: plain,
    paragraph: plain,
    strong: colours.bold,
    em: colours.italic,
    codespan: colours.yellow,
    del: (text: string) => colours.gray(colours.strikethrough(text)),
    link: colours.blue,
    href: (text: string) => colours.blue(colours.underline(text)),
  };
}

/**
 * A highlight.js theme for cli-highlight from our palette. It names every class of the library's
 * default theme, since cli-highlight falls back to that (chalk-styled) theme for any it lacks.
 */
function highlightTheme(colours: Palette): Theme {
  const byClass: Record<string, (text: string) => string> = {
    keyword: colours.blue,
    built_in: colours.cyan,
    type: colours.cyan,
    literal: colours.blue,
    number: colours.green,
    regexp: colours.red,
    string: colours.red,
    class: colours.blue,
    function: colours.yellow,
    comment: colours.gray,
    doctag: colours.green,
    meta: colours.gray,
    tag: colours.gray,
    name: colours.blue,
    attr: colours.cyan,
    emphasis: colours.italic,
    strong: colours.bold,
    link: colours.underline,
    addition: colours.green,
    deletion: colours.red,
  };
  const plain = (text: string) => text;
  return Object.fromEntries(Object.keys(DEFAULT_THEME).map((name) => [name, byClass[name] ?? plain])) as Theme;
}

function highlighted(code: string, language: string | undefined, theme: Theme, colours: Palette): string {
  try {
    return highlight(code, { language: language || undefined, ignoreIllegals: true, theme });
  } catch {
    // expected: a language highlight.js does not know; the block is shown in the code colour.
    return colours.yellow(code);
  }
}
