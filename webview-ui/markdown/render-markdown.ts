// Markdown → sanitized HTML for one block (see lib/markdown-blocks.ts), cached by source text.
// marked renders, DOMPurify sanitizes (no scripts, no inline styles: the CSP would refuse them
// anyway), highlight.js colours code. Code blocks get Copy / Insert buttons that the
// transcript handles by event delegation (lib: markdown/code-actions.ts).
import DOMPurify from "dompurify";
import { Marked, type Tokens } from "marked";
import { escapeHtml, highlightCode } from "./highlight";

function codeRenderer(highlight: boolean) {
  return ({ text, lang }: Tokens.Code): string => {
    const language = (lang ?? "").match(/^[\w+#.-]*/)?.[0]?.toLowerCase() ?? "";
    const label = escapeHtml(language || "text");
    return (
      `<div class="code-block"><div class="code-head"><span class="code-lang">${label}</span>` +
      `<button type="button" class="code-btn" data-code-action="copy" aria-label="Copy code" title="Copy">Copy</button>` +
      `<button type="button" class="code-btn" data-code-action="insert" aria-label="Insert code at cursor" title="Insert at cursor">Insert</button>` +
      `</div><pre><code class="hljs">${highlightCode(text, language, highlight)}</code></pre></div>`
    );
  };
}

// Two instances: a code fence still streaming is not highlighted (it would be redone per chunk).
const complete = new Marked({ gfm: true, breaks: false, renderer: { code: codeRenderer(true) } });
const streaming = new Marked({ gfm: true, breaks: false, renderer: { code: codeRenderer(false) } });

// A fragment rather than a string: DOMPurify has parsed the HTML already, and serializing it
// only for innerHTML to parse it again would double the cost of every streamed chunk.
const PURIFY = {
  FORBID_ATTR: ["style"],
  FORBID_TAGS: ["style", "form", "iframe", "object", "embed"],
  ALLOW_DATA_ATTR: true,
  RETURN_DOM_FRAGMENT: true as const,
};

/**
 * Blocks kept rendered after their message left the view: a few screens' worth, so scrolling back
 * a little re-parses nothing, while a long chat scrolled end to end does not keep every block's
 * DOM and source alive (the heap stays flat from 1k to 5k messages).
 */
const CACHE_LIMIT = 600;
const cache = new Map<string, DocumentFragment>();

/** Wraps each block of a batch, so one sanitize pass can be split back into blocks. */
const WRAPPER = "hermes-md-block";

function cacheKey(source: string, closed: boolean): string {
  return closed ? source : `\u0000${source}`;
}

function remember(key: string, fragment: DocumentFragment): void {
  cache.delete(key);
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(key, fragment);
}

function parse(source: string, closed: boolean): string {
  return (closed ? complete : streaming).parse(source, { async: false });
}

/**
 * Sanitized DOM for one markdown block, as a template to clone (never insert it itself);
 * `closed` false skips highlighting its still-open code fence.
 */
export function renderMarkdownBlock(source: string, closed: boolean): DocumentFragment {
  return renderMarkdownBlocks([{ text: source, closed }])[0];
}

/**
 * Templates for several blocks of one message. The blocks not cached yet are sanitized in one
 * pass (each in a wrapper element, split apart after): DOMPurify parses a whole document per
 * call, and a message mounted while scrolling would otherwise pay that once per paragraph.
 */
export function renderMarkdownBlocks(blocks: readonly { text: string; closed: boolean }[]): DocumentFragment[] {
  const out = new Array<DocumentFragment>(blocks.length);
  const missing: number[] = [];
  for (let i = 0; i < blocks.length; i++) {
    const key = cacheKey(blocks[i].text, blocks[i].closed);
    const hit = cache.get(key);
    if (hit === undefined) missing.push(i);
    else {
      remember(key, hit); // recently used: kept longest
      out[i] = hit;
    }
  }
  if (missing.length === 0) return out;
  const html = missing.map((i) => parse(blocks[i].text, blocks[i].closed));
  const parts = missing.length > 1 ? splitSanitized(html) : undefined;
  missing.forEach((i, k) => {
    const fragment = parts?.[k] ?? DOMPurify.sanitize(html[k], PURIFY);
    remember(cacheKey(blocks[i].text, blocks[i].closed), fragment);
    out[i] = fragment;
  });
  return out;
}

/**
 * One sanitize pass over several blocks' HTML, split back per block; undefined when the split
 * does not come out as one wrapper per block (a block's raw HTML unbalanced the wrappers): then
 * each block is sanitized on its own.
 */
function splitSanitized(html: string[]): DocumentFragment[] | undefined {
  const joined = html.map((part) => `<${WRAPPER}>${part}</${WRAPPER}>`).join("");
  const whole = DOMPurify.sanitize(joined, { ...PURIFY, ADD_TAGS: [WRAPPER] });
  const wrappers = Array.from(whole.childNodes);
  if (wrappers.length !== html.length || wrappers.some((node) => node.nodeName.toLowerCase() !== WRAPPER || (node as Element).querySelector(WRAPPER))) return undefined;
  return wrappers.map((wrapper) => {
    const fragment = document.createDocumentFragment();
    fragment.append(...Array.from(wrapper.childNodes));
    return fragment;
  });
}
