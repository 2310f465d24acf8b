// web_fetch: a URL → readable text for the model. HTML becomes markdown (the article, with its
// title and links), JSON is pretty-printed, text stays text, PDFs give their text. Each host is
// approved by the user (once / session / always) before anything is sent to it, redirects
// included; private addresses are refused unless web.allow_private lists them (see
// web/guarded-fetch.ts). Long pages are read in slices with `offset`.
import * as z from "zod";
import { containsSecret } from "../util/redact";
import type { DisplayContent, ToolContext } from "./context";
import { guardOutbound } from "./outbound-guard";
import { defineTool, ToolError } from "./registry";
import { decodeBody } from "./web/decode-text";
import { checkUrl, guardedFetch, type FetchedBody } from "./web/guarded-fetch";
import { proxyFor } from "./web/proxy";
import { webSettings } from "./web/web-settings";

/** Characters of converted text returned per call; the rest is read with `offset`. */
const SLICE_CHARS = 40_000;
/** The card shows the start of the text only; the model gets the slice. */
const CARD_EXCERPT_CHARS = 1_500;

const schema = z.object({
  url: z.string().min(1).max(8192).describe("The http(s) URL to fetch."),
  offset: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe("Character offset into the converted text: to read on where a previous web_fetch of this URL stopped."),
  whole_page: z
    .boolean()
    .optional()
    .describe("Convert the whole HTML page (navigation and all) instead of extracting the main article. Use when the article view missed what you need."),
});

export const webFetchTool = defineTool({
  name: "web_fetch",
  toolset: "web",
  description:
    "Fetch a web page or file over http(s) and return it as readable text: HTML as markdown (the main article, with its title and links), " +
    "JSON pretty-printed, plain text as is, PDF as extracted text. The user approves each site. Only public addresses are reachable. " +
    `Long pages come in slices of ${SLICE_CHARS} characters; pass offset to read on.`,
  schema,
  kind: "fetch",
  readOnly: true,
  maxResultChars: SLICE_CHARS + 4_000,
  title: (args) => `Fetch ${args.url}`,
  handler: async (args, ctx) => {
    checkUrl(args.url);
    // The URL itself leaves the machine: a credential in it would be sent to the site.
    if (containsSecret(args.url)) throw new ToolError("The URL contains what looks like a credential (a key or token); Hermes does not send it to a web site.");
    // A known secret in disguise (encoded, reversed, split): the user is asked, in every mode.
    await guardOutbound(ctx, { tool: "web_fetch", destination: hostOf(args.url), texts: [args.url] });
    const settings = webSettings();
    const fetched = await guardedFetch(
      args.url,
      {
        timeoutMs: settings.config.timeout * 1000,
        maxBytes: Math.floor(settings.config.max_mb * 1024 * 1024),
        maxRedirects: settings.config.max_redirects,
        allowPrivate: settings.allowPrivate,
        proxyFor: (url) => proxyFor(url, { configured: settings.config.proxy, env: settings.env }),
      },
      { signal: ctx.signal, approve: hostApprover(ctx) },
    );
    const page = await readable(fetched, args.whole_page === true, settings.config.max_mb);
    const offset = Math.min(args.offset ?? 0, page.text.length);
    const slice = page.text.slice(offset, offset + SLICE_CHARS);
    const left = page.text.length - offset - slice.length;
    const title = page.title?.replace(/\s+/g, " ").slice(0, 200);
    if (title) ctx.progress({ title: `Fetch ${title}` });

    const header = [
      ...(title ? [`Title: ${title}`] : []),
      `URL: ${fetched.url}`,
      ...(fetched.redirects.length ? [`Redirected from: ${fetched.redirects.join(" → ")}`] : []),
      `Status: ${fetched.status}${fetched.statusText ? ` ${fetched.statusText}` : ""}`,
      `Content-Type: ${page.type}`,
      ...page.notes.map((note) => `Note: ${note}`),
      ...(offset > 0 || left > 0 ? [`Characters ${offset}–${offset + slice.length} of ${page.text.length}`] : []),
    ];
    const more = left > 0 ? `\n\n[${left} more characters: call web_fetch again with offset=${offset + slice.length}]` : "";
    const content: DisplayContent[] = [
      { type: "resource_link", uri: fetched.url, name: title ?? fetched.url, ...(title ? { title } : {}), mimeType: page.mime },
      { type: "text", text: slice.length > CARD_EXCERPT_CHARS ? `${slice.slice(0, CARD_EXCERPT_CHARS)}…` : slice || "(no text)" },
    ];
    return { output: `${header.join("\n")}\n\n${slice}${more}`, content, isError: fetched.status >= 400 };
  },
});

/** The host a URL names, for prompts (checkUrl has already parsed it). */
function hostOf(url: string): string {
  return new URL(url).hostname.replace(/^\[(.*)\]$/, "$1").toLowerCase();
}

/** Asks once per host for this call; the permission gate remembers session and saved answers. */
export function hostApprover(ctx: ToolContext): (url: URL) => Promise<void> {
  const approved = new Set<string>();
  return async (url) => {
    const host = url.hostname.replace(/^\[(.*)\]$/, "$1").toLowerCase();
    if (approved.has(host)) return;
    const allowed = await ctx.requestPermission({ action: "read", title: `Fetch ${url.href}`, web: { host, url: url.href } });
    if (!allowed) throw new ToolError(`The user did not allow fetching from ${host}.`);
    approved.add(host);
  };
}

interface ReadablePage {
  title?: string;
  text: string;
  /** The media type as received (or sniffed), for the header. */
  type: string;
  mime: string;
  notes: string[];
}

async function readable(fetched: FetchedBody, wholePage: boolean, maxMb: number): Promise<ReadablePage> {
  const mime = mediaType(fetched);
  const notes: string[] = [];
  if (fetched.truncated) notes.push(`the body was cut at ${maxMb} MB (web.max_mb)`);
  if (mime === "application/pdf") {
    if (fetched.truncated) throw new ToolError(`The PDF at ${fetched.url} is larger than ${maxMb} MB (web.max_mb) and was not read.`);
    const { pdfToText } = await import("./web/pdf-text");
    const pdf = await pdfToText(fetched.body).catch((error: unknown) => {
      throw new ToolError(`The PDF at ${fetched.url} could not be read: ${(error as Error)?.message ?? String(error)}`);
    });
    if (!pdf.text.trim()) notes.push("the PDF has no text layer (scanned pages?)");
    return { ...(pdf.title ? { title: pdf.title } : {}), text: pdf.text, type: `${mime} (${pdf.pages} page${pdf.pages === 1 ? "" : "s"})`, mime, notes };
  }
  const kind = mime === "text/html" || mime === "application/xhtml+xml" ? "html" : /xml/.test(mime) ? "xml" : "other";
  if (kind === "other" && !isTextual(mime)) {
    throw new ToolError(`${fetched.url} is ${mime} (${fetched.body.length} bytes), which web_fetch does not turn into text.`);
  }
  const decoded = decodeBody(fetched.body, fetched.contentType, kind);
  if (decoded.note) notes.push(decoded.note);
  const charset = decoded.encoding === "utf-8" ? "" : `, decoded from ${decoded.encoding}`;
  if (kind === "html") {
    const { htmlToMarkdown } = await import("./web/html-markdown");
    const page = await htmlToMarkdown(decoded.text, fetched.url, { whole: wholePage });
    if (!page.article && !wholePage) notes.push("no main article was found; the whole page is shown");
    if (page.byline) notes.push(`by ${page.byline}`);
    return { ...(page.title ? { title: page.title } : {}), text: page.markdown, type: `${mime}${charset}`, mime, notes };
  }
  if (/json/.test(mime)) {
    try {
      return { text: JSON.stringify(JSON.parse(decoded.text), null, 2), type: `${mime}${charset}`, mime, notes };
    } catch {
      // expected: the JSON did not parse: shown as received, with a note
      notes.push("the JSON did not parse; shown as received");
    }
  }
  return { text: decoded.text, type: `${mime}${charset}`, mime, notes };
}

/** The declared media type, or one sniffed from the first bytes when there is none. */
function mediaType(fetched: FetchedBody): string {
  const declared = fetched.contentType?.split(";")[0]?.trim().toLowerCase();
  if (declared && declared !== "application/octet-stream") return declared;
  const head = fetched.body.subarray(0, 512).toString("latin1").trimStart();
  if (head.startsWith("%PDF-")) return "application/pdf";
  if (/^(<!doctype html|<html|<head|<body)/i.test(head)) return "text/html";
  if (/^[[{]/.test(head)) return "application/json";
  if (!head.includes("\u0000") && head.length > 0) return "text/plain";
  return declared ?? "application/octet-stream";
}

function isTextual(mime: string): boolean {
  return (
    mime.startsWith("text/") ||
    /json|javascript|ecmascript|yaml|toml|csv|markdown|x-sh|sql|graphql/.test(mime) ||
    mime === "application/x-www-form-urlencoded"
  );
}
