// HTML → readable markdown for web_fetch. linkedom parses (a small DOM, fast, no browser
// machinery; jsdom would be ~10× the bundle and start-up), Mozilla's Readability picks the
// article out of the page's chrome (the reader view's algorithm), turndown writes markdown.
// All three load on the first fetch of an HTML page, never at start-up. Links and images are made
// absolute first, so the markdown's links work out of context; a page Readability finds no
// article in is converted whole (scripts, styles and navigation dropped).
import type TurndownService from "turndown";

export interface Readable {
  title?: string;
  /** The article's byline or site name, when the page gives one. */
  byline?: string;
  markdown: string;
  /** Readability found an article; false: the whole body was converted. */
  article: boolean;
}

/** The little of the DOM this file touches (the server is compiled without the DOM library). */
interface DomElement {
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  remove(): void;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): Iterable<DomElement> & { length: number };
  readonly previousElementSibling: DomElement | null;
  readonly textContent: string | null;
}
interface DomDocument extends DomElement {
  readonly body: DomElement | null;
  readonly documentElement: DomElement | null;
  getElementById(id: string): DomElement | null;
  toString(): string;
}

type LinkedomModule = { parseHTML(html: string): { document: DomDocument } };
type ReadabilityClass = (typeof import("@mozilla/readability"))["Readability"];

let modules: Promise<{ linkedom: LinkedomModule; Readability: ReadabilityClass; turndown: TurndownService }> | undefined;

function loadModules() {
  return (modules ??= Promise.all([import("linkedom"), import("@mozilla/readability"), import("turndown")]).then(([linkedom, readability, turndown]) => ({
    linkedom: linkedom as unknown as LinkedomModule,
    // Both are CommonJS: bundled, their exports arrive under `default`; run from source (tsx),
    // Readability's arrive as named exports.
    Readability: readability.Readability ?? (readability as unknown as { default: { Readability: ReadabilityClass } }).default.Readability,
    turndown: markdownWriter(turndown.default),
  })));
}

/** Elements that are never content. */
const DROPPED = "script, style, noscript, template, iframe, object, embed, svg, canvas, form, button, input, select, textarea";

export async function htmlToMarkdown(html: string, pageUrl: string, options: { whole?: boolean } = {}): Promise<Readable> {
  const { linkedom, Readability, turndown } = await loadModules();
  const { document } = linkedom.parseHTML(html);
  const base = baseUrl(document, pageUrl);
  absolutize(document, base);
  const pageTitle = document.querySelector("title")?.textContent?.trim() || undefined;

  if (!options.whole) {
    // Readability changes the document it reads; it gets its own parse.
    const { document: copy } = linkedom.parseHTML(document.toString());
    const article = new Readability(copy as never, { charThreshold: 200, keepClasses: false }).parse();
    if (article?.content && (article.textContent ?? "").trim().length > 0) {
      const { document: holder } = linkedom.parseHTML(`<!doctype html><html><body><div id="hermes-article">${article.content}</div></body></html>`);
      const root = holder.getElementById("hermes-article");
      if (root) {
        return {
          title: article.title?.trim() || pageTitle,
          ...(article.byline?.trim() ? { byline: article.byline.trim() } : article.siteName?.trim() ? { byline: article.siteName.trim() } : {}),
          markdown: tidy(turndown.turndown(root as never)),
          article: true,
        };
      }
    }
  }
  // The fallback drops navigation too; whole_page asked for everything that is content or links.
  for (const element of document.querySelectorAll(options.whole ? DROPPED : `${DROPPED}, nav, [aria-hidden="true"]`)) element.remove();
  const body = document.body ?? document.documentElement;
  return { ...(pageTitle ? { title: pageTitle } : {}), markdown: body ? tidy(turndown.turndown(body as never)) : "", article: false };
}

function baseUrl(document: DomDocument, pageUrl: string): string {
  const declared = document.querySelector("base[href]")?.getAttribute("href");
  if (!declared) return pageUrl;
  try {
    return new URL(declared, pageUrl).href;
  } catch {
    // expected: a <base href> that is not a URL is ignored; the page's own URL is the base
    return pageUrl;
  }
}

/** Links and images point at absolute http(s) URLs; script and data links are dropped. */
function absolutize(document: DomDocument, base: string): void {
  for (const [selector, attribute] of [
    ["a[href]", "href"],
    ["img[src]", "src"],
  ] as const) {
    for (const element of document.querySelectorAll(selector)) {
      const value = element.getAttribute(attribute) ?? "";
      if (value.startsWith("#")) continue;
      try {
        const absolute = new URL(value, base);
        if (absolute.protocol === "http:" || absolute.protocol === "https:" || absolute.protocol === "mailto:") element.setAttribute(attribute, absolute.href);
        else element.removeAttribute(attribute);
      } catch {
        // expected: a link that is not a URL is dropped from the page text
        element.removeAttribute(attribute);
      }
    }
  }
}

function markdownWriter(Turndown: typeof TurndownService): TurndownService {
  const writer = new Turndown({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-", emDelimiter: "*", linkStyle: "inlined" });
  writer.remove(DROPPED.split(", ") as TurndownService.TagName[]);
  // Tables as GitHub tables (turndown alone flattens them into loose paragraphs).
  writer.addRule("tableCell", {
    filter: ["th", "td"],
    replacement: (content) => ` ${content.replace(/\s*\n+\s*/g, " ").replace(/\|/g, "\\|").trim()} |`,
  });
  writer.addRule("tableRow", {
    filter: "tr",
    replacement: (content, node) => {
      const row = `|${content}\n`;
      const cells = (node as unknown as DomElement).querySelectorAll("th, td").length;
      const isHeader = (node as unknown as DomElement).querySelector("th") !== null && (node as unknown as DomElement).previousElementSibling === null;
      return isHeader ? `${row}|${" --- |".repeat(cells)}\n` : row;
    },
  });
  writer.addRule("table", {
    filter: "table",
    replacement: (content) => `\n\n${content.replace(/\n+/g, "\n").trim()}\n\n`,
  });
  // Images without a useful alt text add nothing for the model.
  writer.addRule("image", {
    filter: "img",
    replacement: (_content, node) => {
      const element = node as unknown as DomElement;
      const alt = (element.getAttribute("alt") ?? "").trim();
      const src = element.getAttribute("src");
      return alt && src ? `![${alt.replace(/[[\]]/g, "")}](${src})` : "";
    },
  });
  return writer;
}

/** At most one blank line in a row, no trailing spaces. */
function tidy(markdown: string): string {
  return markdown
    .replace(/[ \t]+$/gm, "")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
