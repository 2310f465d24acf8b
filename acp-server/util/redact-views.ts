// Secrets hidden by an encoding or a layout the line-oriented rules do not see: ANSI colour
// codes splitting a key, JSON \uXXXX escapes, base64 / hex blobs of a whole .env, YAML block
// scalars, PuTTY key files, 4-dash PEM armour. Each function takes text and returns it with
// those secrets masked; `redactSecrets` (redact.ts) runs them before the format rules.
//
// Bounded: decoding looks only at long runs, at most MAX_BLOBS of them per call, each at most
// MAX_BLOB characters, and nests at most MAX_DEPTH levels deep, so a megabyte of base64 costs
// one linear scan plus a bounded amount of decoding.
import { isSecretName, REDACTED } from "./secret-names";

// CSI sequences (colours, cursor moves) and OSC sequences (titles, hyperlinks).
// eslint-disable-next-line no-control-regex -- matching ESC and BEL is the point
const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g;

/** Terminal output without its escape codes (what a human sees on screen). */
export function stripAnsi(text: string): string {
  return text.includes("\x1b") ? text.replace(ANSI, "") : text;
}

// Only escapes of characters that can be written bare inside a JSON string and that make up
// tokens; decoding them keeps the JSON valid and means the same.
const TOKEN_ESCAPE = /\\u00(2[bdef]|3[0-9a-fA-F]|[4-7][0-9a-fA-F])/g;

/** `\u0073\u006b-…` → `sk-…` for the characters a token is made of. */
export function decodeTokenEscapes(text: string): string {
  if (!text.includes("\\u00")) return text;
  return text.replace(TOKEN_ESCAPE, (match: string, code: string) => {
    const ch = String.fromCharCode(parseInt(code, 16));
    return /[A-Za-z0-9+\-./_=~:]/.test(ch) ? ch : match;
  });
}

const MAX_BLOBS = 64;
const MAX_BLOB = 65_536;
const MAX_DEPTH = 2;
const BASE64_RUN = /(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/_-]{40,}={0,2}(?![A-Za-z0-9+/=_-])/g;
const HEX_RUN = /(?<![0-9A-Fa-f])(?:[0-9A-Fa-f]{2}){20,}(?![0-9A-Fa-f])/g;

/** Mostly printable text (decoded base64 of a file, not of random bytes). */
function printable(text: string): boolean {
  if (text.length === 0) return false;
  let bad = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c < 32 && c !== 9 && c !== 10 && c !== 13) || c === 0xfffd || c > 0x7e) bad++;
  }
  return bad === 0 || bad / text.length < 0.02;
}

/**
 * Masks whole base64 or hex blobs whose decoded text holds a secret. `contains` is the
 * redactor itself (passed in to keep the dependency one-way); `depth` counts nesting.
 */
export function redactEncodedBlobs(text: string, contains: (decoded: string, depth: number) => boolean, depth = 0): string {
  if (depth >= MAX_DEPTH || text.length < 40) return text;
  let budget = MAX_BLOBS;
  const check = (blob: string, decode: (s: string) => string): string => {
    if (budget <= 0 || blob.length > MAX_BLOB || blob.includes(REDACTED)) return blob;
    budget--;
    const decoded = decode(blob);
    return printable(decoded) && contains(decoded, depth + 1) ? REDACTED : blob;
  };
  let out = text.replace(BASE64_RUN, (blob) =>
    /[0-9]/.test(blob) || /[A-Z]/.test(blob) ? check(blob, (s) => Buffer.from(s.replace(/-/g, "+").replace(/_/g, "/"), "base64").toString("latin1")) : blob,
  );
  if (budget > 0) out = out.replace(HEX_RUN, (blob) => check(blob, (s) => Buffer.from(s, "hex").toString("latin1")));
  return out;
}

// `api_key: |` or `token: >-` then indented lines: the block is the value.
const YAML_BLOCK = /^([ \t]*)(?:- )?["']?([A-Za-z_][\w.-]{0,80})["']?[ \t]*:[ \t]*[|>][-+0-9]{0,2}[ \t]*(\r?\n)((?:\1[ \t]+[^\r\n]*(?:\r?\n|$))+)/gm;

/** Masks the indented value lines of a YAML block scalar under a secret name. */
export function redactYamlBlocks(text: string): string {
  if (!/:[ \t]*[|>]/.test(text)) return text;
  return text.replace(YAML_BLOCK, (match: string, _indent: string, name: string, _nl: string, body: string) => {
    if (!isSecretName(name)) return match;
    const head = match.slice(0, match.length - body.length);
    // YAML: the block's indentation is its first line's; a less indented line ends it.
    const all = body.split(/(?<=\n)/);
    const indent = /^[ \t]*/.exec(all[0] ?? "")![0].length;
    let n = all.findIndex((line) => line.trim() !== "" && /^[ \t]*/.exec(line)![0].length < indent);
    if (n < 0) n = all.length;
    const lines = all.slice(0, n);
    const rest = all.slice(n).join("");
    return head + lines.map((line) => line.replace(/^([ \t]+)(\S.*?)?(\r?\n)?$/, (_l, lead: string, value: string | undefined, eol: string | undefined) => `${lead}${value && value !== REDACTED ? REDACTED : value ?? ""}${eol ?? ""}`)).join("") + rest;
  });
}

/** PuTTY .ppk: the N lines after `Private-Lines: N` and the `Private-MAC:` value. */
export function redactPuttyKeys(text: string): string {
  if (!text.includes("Private-Lines:")) return text;
  return text
    .replace(/(Private-Lines:[ \t]*)(\d{1,3})([ \t]*\r?\n)((?:[^\r\n]*(?:\r?\n|$)){0,200})/g, (_match: string, head: string, count: string, nl: string, rest: string) => {
      const lines = rest.split(/(?<=\n)/);
      const n = Math.min(Number(count), lines.length);
      const masked = lines.map((line, i) => (i < n && line.trim() !== "" && !line.includes(REDACTED) ? line.replace(/^(\s*)\S.*?(\r?\n)?$/, (_l, lead: string, eol: string | undefined) => `${lead}${REDACTED}${eol ?? ""}`) : line));
      return `${head}${count}${nl}${masked.join("")}`;
    })
    .replace(/(Private-MAC:[ \t]*)([0-9a-fA-F]{16,})/g, `$1${REDACTED}`);
}

/** `----BEGIN PRIVATE KEY----` (a dash lost in copy-paste) → the 5-dash armour the key rule knows. */
export function normalizePemArmour(text: string): string {
  if (!text.includes("PRIVATE KEY")) return text;
  return text.replace(/(?<!-)-{3,4}((?:BEGIN|END) (?:[A-Z0-9]+ ){0,4}PRIVATE KEY(?: BLOCK)?)-{3,4}(?!-)/g, "-----$1-----");
}

// Known key prefixes read backwards ("sk-" is "-ks"): a token that ends in one is checked reversed.
const REVERSED_PREFIXES = ["-ks", "_phg", "_ohg", "_shg", "_tap_buhtig", "-tapgl", "AKIA", "AISA", "_fh", "_mpn", "-bxox", "azIA"];
const WORD_RUN = /(?<![A-Za-z0-9_\-.])[A-Za-z0-9_\-.]{24,512}(?![A-Za-z0-9_\-.])/g;

/** Masks a credential written backwards (`… | rev`). */
export function redactReversedTokens(text: string, redact: (s: string) => string): string {
  if (!REVERSED_PREFIXES.some((p) => text.includes(p))) return text;
  return text.replace(WORD_RUN, (word) => {
    if (!REVERSED_PREFIXES.some((p) => word.endsWith(p))) return word;
    const forward = [...word].reverse().join("");
    return redact(forward) !== forward ? REDACTED : word;
  });
}

// An AWS secret access key has no prefix; alone on a line (`aws configure get …` output,
// a credentials dump) its shape is distinctive enough: 40 base64 characters, mixed.
const LONE_AWS_SECRET = /^([ \t]*)([A-Za-z0-9+/]{40})([ \t]*\r?)$/gm;

export function redactLoneAwsSecrets(text: string): string {
  return text.replace(LONE_AWS_SECRET, (line: string, lead: string, value: string, trail: string) =>
    /[A-Z]/.test(value) && /[a-z]/.test(value) && /[0-9]/.test(value) && /[+/]/.test(value) ? `${lead}${REDACTED}${trail}` : line,
  );
}
