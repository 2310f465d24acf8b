// The spellings an outbound text may hide a secret in, undone: what a web site, a search
// service or an MCP server would read once it decodes the request. Each view is searched for the
// secret's own forms (plain, reversed, base64, hex: util/secret-values.ts), so a secret is found
// however many of these layers were put around it (within MAX_DEPTH):
//   - percent-encoding, byte by byte or partly, any case of hex (`%4a`, `%4A`), applied twice;
//   - backslash, C and HTML escapes (`\x41`, `\u0041`, `0x41`, `&#65;`, `&#x41;`), and lists of
//     character codes (`119,107,95,…`: String.fromCharCode, a JSON array of bytes);
//   - base64 runs (standard or url-safe, padded or not), decoded when the bytes are text.
// Views are bounded (MAX_VIEWS, MAX_DECODED_CHARS): past the bound the text is still searched
// in the views already made, so an oversized request is checked, not waved through.

/** Layers of encoding undone one inside the other (base64 of percent-encoding of base64…). */
const MAX_DEPTH = 3;
const MAX_VIEWS = 64;
const MAX_DECODED_CHARS = 2 * 1024 * 1024;
/** Shorter base64 runs decode to under 12 bytes: no secret worth splitting hides there unseen by the forms. */
const MIN_BASE64_RUN = 16;

const PERCENT_RUN = /(?:%[0-9A-Fa-f]{2})+/g;
const BASE64_RUN = /[A-Za-z0-9+/_-]{16,}={0,2}/g;

/** `text` and every decoded view of it (the text itself first), without repeats. */
export function outboundViews(text: string): string[] {
  const views = new Set<string>([text]);
  let budget = MAX_DECODED_CHARS;
  let layer = [text];
  for (let depth = 0; depth < MAX_DEPTH && layer.length > 0; depth++) {
    const next: string[] = [];
    for (const view of layer) {
      for (const decoded of decodedOnce(view)) {
        if (views.size >= MAX_VIEWS || budget < decoded.length) return [...views];
        if (views.has(decoded)) continue;
        views.add(decoded);
        budget -= decoded.length;
        next.push(decoded);
      }
    }
    layer = next;
  }
  return [...views];
}

/** One layer of each decoding that changes `text`. */
function decodedOnce(text: string): string[] {
  const out: string[] = [];
  const percent = text.includes("%") ? percentDecoded(text) : text;
  if (percent !== text) out.push(percent);
  const unescaped = unescapedText(text);
  if (unescaped !== text) out.push(unescaped);
  out.push(...base64Texts(text));
  return out;
}

/** Percent-escapes decoded as UTF-8 bytes; a malformed sequence decodes to what it can (never throws). */
export function percentDecoded(text: string): string {
  return text.replace(PERCENT_RUN, (run) => Buffer.from(run.replace(/%/g, ""), "hex").toString("utf8"));
}

/** Eight or more printable character codes (32–126) in a row, separated by commas, spaces or semicolons. */
const CODE_LIST = /\b(?:(?:3[2-9]|[4-9][0-9]|1[01][0-9]|12[0-6])[,;\s]+){7,}(?:3[2-9]|[4-9][0-9]|1[01][0-9]|12[0-6])\b/g;

function unescapedText(text: string): string {
  const codes = text.replace(CODE_LIST, (list) => list.split(/[,;\s]+/).map((code) => String.fromCharCode(Number(code))).join(""));
  if (!codes.includes("\\") && !codes.includes("&#") && !/0x[0-9A-Fa-f]{2}/.test(codes)) return codes;
  return codes
    // A run of C-style bytes (`0x58, 0x6b, …`) decodes whole: the separators are not part of the text.
    .replace(/\b0x[0-9A-Fa-f]{2}(?:[,;\s]*0x[0-9A-Fa-f]{2}\b)+/g, (run) => Buffer.from(run.replace(/0x|[,;\s]/g, ""), "hex").toString("utf8"))
    .replace(/\\x([0-9A-Fa-f]{2})|\\u\{?([0-9A-Fa-f]{4})\}?/g, (_m, byte?: string, unit?: string) => String.fromCharCode(parseInt(byte ?? unit ?? "0", 16)))
    .replace(/&#(?:x([0-9A-Fa-f]{1,6})|([0-9]{1,7}));/g, (_m, hex?: string, dec?: string) => safeCodePoint(hex !== undefined ? parseInt(hex, 16) : Number(dec)));
}

function safeCodePoint(code: number): string {
  return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : "";
}

/**
 * Every base64 run of `text` decoded, when the bytes read as text (a secret is text; an image
 * or a hash is not, and is skipped). Both alphabets: url-safe `-_` and standard `+/`.
 */
function base64Texts(text: string): string[] {
  const out: string[] = [];
  BASE64_RUN.lastIndex = 0;
  for (let match = BASE64_RUN.exec(text); match !== null; match = BASE64_RUN.exec(text)) {
    const run = match[0].replace(/=+$/, "");
    if (run.length < MIN_BASE64_RUN) continue;
    // Every alignment: the run may start mid-group (a prefix such as `token=` glued to it is not in the run).
    for (let skip = 0; skip < 4 && run.length - skip >= MIN_BASE64_RUN; skip++) {
      const bytes = Buffer.from(run.slice(skip).replace(/-/g, "+").replace(/_/g, "/"), "base64");
      if (readsAsText(bytes)) out.push(bytes.toString("utf8"));
    }
    if (out.length > MAX_VIEWS) break;
  }
  return out;
}

/** Mostly printable ASCII or UTF-8 text: at most 1 in 20 bytes a control or invalid byte. */
function readsAsText(bytes: Buffer): boolean {
  if (bytes.length < 8) return false;
  const decoded = bytes.toString("utf8");
  let odd = 0;
  for (let i = 0; i < decoded.length; i++) {
    const code = decoded.charCodeAt(i);
    if ((code < 32 && code !== 9 && code !== 10 && code !== 13) || code === 0xfffd || code === 127) odd++;
  }
  return odd * 20 <= decoded.length;
}
