// Screens text that will be fed back to the model later: memory entries (strictest), skill
// files the agent writes, and context files read from disk (AGENTS.md, SOUL.md, skills).
// Returns a short reason for the first match; ordinary notes pass untouched.
//
// The text is scanned as written, then in normalized views (scan-normalize.ts: NFKC,
// invisibles out, lookalikes and l33tspeak folded, separators inside words removed, letters
// squeezed), then whatever it hides in base64, hex or URL-encoding is decoded and scanned the
// same way, two levels deep. Fails closed: characters that have no business in a note
// (zero-width, bidi controls, tag characters, fillers) are refused outright.
import { decodedPayloads, foldText, scanViews } from "./scan-normalize";
import { foreignOverride } from "./threat-multilingual";
import { phrasePatterns, REGEXES, withoutAuthHeaders, type ScanProfile } from "./threat-patterns";

export type { ScanProfile } from "./threat-patterns";

/** Refused outright: invisible, bidirectional, tag and filler characters (emoji variation selectors are only stripped). */
// eslint-disable-next-line no-misleading-character-class -- combining marks listed one by one on purpose: each is refused alone
const INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u00AD\u034F\u115F\u1160\u180E\u2800\u3164\uFFA0]|[\u{E0000}-\u{E007F}]|[\u{E0100}-\u{E01EF}]/u;

// Nesting depth of encodings peeled (base64 of base64 of base64 is three), and how many
// decoded payloads one scan may look at in all, so nesting cannot multiply the work.
const MAX_DEPTH = 4;
const MAX_PAYLOADS = 64;

/** A short reason when `text` looks hostile, else undefined. `profile` picks the rule set (default: context files). */
export function scanForThreats(text: string, profile: ScanProfile = "context"): string | undefined {
  const invisible = INVISIBLE.exec(text);
  if (invisible) {
    const code = invisible[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0");
    return `invisible or bidirectional Unicode character U+${code}`;
  }
  return scan(text, profile, 0, { left: MAX_PAYLOADS });
}

function scan(text: string, profile: ScanProfile, depth: number, budget: { left: number }): string | undefined {
  const found = scanOne(text, profile);
  if (found) return depth > 0 ? `${found} (encoded)` : found;
  if (depth >= MAX_DEPTH) return undefined;
  for (const payload of decodedPayloads(text)) {
    if (budget.left-- <= 0) return undefined;
    const hidden = scan(payload, profile, depth + 1, budget);
    if (hidden) return hidden;
  }
  return undefined;
}

function scanOne(text: string, profile: ScanProfile): string | undefined {
  const folded = foldText(text);
  const plain: [asWritten: string, folded: string] = [withoutAuthHeaders(text), withoutAuthHeaders(folded)];
  for (const { reason, pattern, profiles, asWritten } of REGEXES) {
    if (profiles.includes(profile) && (asWritten ? pattern.test(plain[0]) : plain.some((view) => pattern.test(view)))) return reason;
  }
  const foreign = foreignOverride(folded, text.toLowerCase());
  if (foreign) return `prompt injection: asks to ignore previous instructions (${foreign})`;
  const views = scanViews(text);
  for (const { reason, spaced, squeezed, profiles } of phrasePatterns()) {
    if (!profiles.includes(profile)) continue;
    if (views.spaced.some((view) => spaced.test(view))) return reason;
    if (squeezed && views.squeezed.some((view) => squeezed.test(view))) return reason;
  }
  return undefined;
}
