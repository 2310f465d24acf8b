// What the threat scanner actually reads. Injected instructions are disguised to slip past
// patterns: fullwidth or Cyrillic lookalike letters ("іgnоre"), zero-width characters or
// soft hyphens inside words, l33tspeak ("1gn0r3"), spaced-out or dotted letters
// ("i g n o r e", "ign.ore"), or the whole payload base64-, hex- or URL-encoded. This module
// turns a text into the views the patterns run on; nothing here changes what is stored.

/** Characters with no visible glyph: removed before scanning (the scanner also refuses some outright). */
// eslint-disable-next-line no-misleading-character-class -- combining marks listed one by one on purpose: each is removed alone
const INVISIBLES = /[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u2800\u3164\uFE00-\uFE0F\uFEFF\uFFA0]|[\u{E0000}-\u{E007F}]|[\u{E0100}-\u{E01EF}]/gu;

/** Latin lookalikes from Cyrillic, Greek and other scripts that NFKC leaves alone. */
const HOMOGLYPHS: Record<string, string> = {
  а: "a", в: "b", е: "e", ё: "e", к: "k", м: "m", н: "h", о: "o", р: "p", с: "c", т: "t", у: "y", х: "x", і: "i", ї: "i", ј: "j", ѕ: "s", ԁ: "d", ɡ: "g", һ: "h", ӏ: "l", ԛ: "q", ԝ: "w", ү: "y", ғ: "f",
  α: "a", β: "b", ε: "e", η: "n", ι: "i", κ: "k", ν: "v", ο: "o", ρ: "p", τ: "t", υ: "u", χ: "x", γ: "y", ω: "w", μ: "u", ϲ: "c", ϳ: "j",
  ı: "i", ȷ: "j", ℓ: "l", "∕": "/", "⁄": "/", "‐": "-", "‑": "-", "‒": "-", "–": "-", "—": "-", "’": "'", "‘": "'", "“": '"', "”": '"',
};
const HOMOGLYPH_CLASS = new RegExp(`[${Object.keys(HOMOGLYPHS).join("")}]`, "g");

const LEET: Record<string, string> = { "0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", $: "s" };

/** NFKC, invisibles out, accents off, lookalikes folded, lower case: the base view. */
export function foldText(text: string): string {
  return text
    .normalize("NFKC")
    .replace(INVISIBLES, "")
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .normalize("NFC")
    .toLowerCase()
    .replace(HOMOGLYPH_CLASS, (char) => HOMOGLYPHS[char] ?? char);
}

/** Digits and symbols read as the letters they imitate, in words that have a letter ("1gn0r3"); `one` is what 1 reads as. */
export function unleet(folded: string, one: "i" | "l" = "i"): string {
  return folded.replace(/[a-z0-9@$]+/g, (word) => (/[a-z]/.test(word) ? word.replace(/[013457@$]/g, (c) => (c === "1" ? one : (LEET[c] ?? c))) : word));
}

/** Letters only: "i g n o r e  a l l", "ign.ore", "i-g-n-o-r-e" all become "ignoreall". */
export function squeeze(folded: string): string {
  return folded.replace(/[^a-z]+/g, "");
}

/** Every view of `text` the phrase patterns run on: spaced views and squeezed views. */
export function scanViews(text: string): { spaced: string[]; squeezed: string[] } {
  const base = foldText(text);
  const leet = unleet(base);
  const leetL = unleet(base, "l");
  // Separators inside a word ("ign.ore", "ig-nore", "ig_n_ore") removed, spacing kept.
  const joined = base.replace(/([a-z])[.\-_*'`~^|/\\]+(?=[a-z])/g, "$1");
  // Spaced-out letters ("i g n o r e  a l l") joined; a wider gap stays a word break.
  const despaced = unleet(joined).replace(/\b([a-z]) (?=[a-z]\b)/g, "$1");
  // ROT13 ("vtaber nyy cerivbhf vafgehpgvbaf"): the only classic letter cipher cheap enough to undo blind.
  const rotated = rot13(base);
  return { spaced: unique([base, leet, leetL, joined, despaced, rotated]), squeezed: unique([squeeze(base), squeeze(leet), squeeze(leetL), squeeze(rotated)]) };
}

export function rot13(text: string): string {
  return text.replace(/[a-z]/g, (c) => String.fromCharCode(((c.charCodeAt(0) - 97 + 13) % 26) + 97));
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

// --- encoded payloads --------------------------------------------------------

const BASE64_BLOB = /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{16,}={0,2}/g;
const HEX_BLOB = /(?<![0-9A-Fa-f])(?:[0-9A-Fa-f]{2}[\s:]?){8,}/g;
const MAX_BLOBS = 32;
const MAX_BLOB_CHARS = 65_536;

/** Mostly readable text (not binary noise or an accidental decode of an identifier). */
function readable(decoded: string): boolean {
  if (decoded.length < 4 || decoded.includes("\uFFFD")) return false;
  let printable = 0;
  for (const char of decoded) if (/[\p{L}\p{N}\p{P}\p{S}\s]/u.test(char)) printable++;
  return printable / [...decoded].length >= 0.9 && /\p{L}{3}/u.test(decoded);
}

/**
 * Texts hidden in `text`: base64 (standard and url-safe), hex and URL-encoded runs, decoded.
 * One level; the scanner calls it again on what it finds (bounded depth).
 */
export function decodedPayloads(text: string): string[] {
  const found: string[] = [];
  const add = (decoded: string) => {
    if (found.length < MAX_BLOBS && readable(decoded)) found.push(decoded);
  };
  for (const match of text.matchAll(BASE64_BLOB)) {
    if (found.length >= MAX_BLOBS) break;
    const blob = match[0].slice(0, MAX_BLOB_CHARS);
    if (/^[0-9a-fA-F]+$/.test(blob)) continue; // hex, below
    add(Buffer.from(blob.replace(/-/g, "+").replace(/_/g, "/"), "base64").toString("utf8"));
  }
  for (const match of text.matchAll(HEX_BLOB)) {
    if (found.length >= MAX_BLOBS) break;
    add(Buffer.from(match[0].replace(/[\s:]/g, "").slice(0, MAX_BLOB_CHARS), "hex").toString("utf8"));
  }
  if (/%[0-9A-Fa-f]{2}/.test(text)) {
    try {
      add(decodeURIComponent(text.replace(/\+/g, " ")));
    } catch {
      // expected: malformed percent escapes: decoded one by one instead
      add(text.replace(/%([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))));
    }
  }
  if (/\\u[0-9A-Fa-f]{4}|\\x[0-9A-Fa-f]{2}/.test(text)) {
    add(text.replace(/\\u([0-9A-Fa-f]{4})|\\x([0-9A-Fa-f]{2})/g, (_m, u?: string, x?: string) => String.fromCharCode(parseInt(u ?? x ?? "0", 16))));
  }
  return found;
}
