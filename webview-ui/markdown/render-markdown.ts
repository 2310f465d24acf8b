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

const CACHE_LIMIT = 4000;
const cache = new Map<string, DocumentFragment>();

/**
 * Sanitized DOM for one markdown block, as a template to clone (never insert it itself);
 * `closed` false skips highlighting its still-open code fence.
 */
export function renderMarkdownBlock(source: string, closed: boolean): DocumentFragment {
  const key = closed ? source : `\u0000${source}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const raw = (closed ? complete : streaming).parse(source, { async: false });
  const fragment = DOMPurify.sanitize(raw, PURIFY);
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(key, fragment);
  return fragment;
}
