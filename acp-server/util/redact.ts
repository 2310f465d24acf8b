// Masks things that look like credentials before text is logged, shown to the
// client, stored in a session record or sent to the model. Every secret is replaced by
// the literal "[REDACTED]"; a short, non-secret type prefix is kept where it helps a human
// recognise what was there ("sk-ant-…[REDACTED]", "ghp_…[REDACTED]").
//
// Three kinds of rules:
//   1. Known formats (provider key prefixes, JWTs, private key blocks, URL credentials,
//      Authorization headers, connection strings): redacted wherever they appear
//      (redact-rules.ts).
//   2. Generic `name = value` assignments and `--name value` flags whose name holds a
//      credential word (secret-names.ts): env-style names (`MYSQL_PWD=x`) always, other
//      names only when the value looks like a literal secret, so ordinary code
//      (`const token = getToken();`, `password: string`) is left byte-identical.
//   3. The agent's own secrets by value, in plain, reversed, base64 and hex forms
//      (secret-values.ts).
import { RULES } from "./redact-rules";
import { isEnvStyleName, isSecretName, looksLikeSecretValue, REDACTED } from "./secret-names";
import { redactKnownValues, secretValuesGeneration } from "./secret-values";
import { decodeTokenEscapes, normalizePemArmour, redactEncodedBlobs, redactLoneAwsSecrets, redactPuttyKeys, redactReversedTokens, redactYamlBlocks, stripAnsi } from "./redact-views";

export { REDACTED };

// PEM / OpenSSH / PGP private keys: the whole body goes, multi-line or JSON-escaped
// ("\n"). Done with indexOf rather than a lazy regex so that many BEGIN lines without
// an END line stay linear.
const PEM_BEGIN = /-----BEGIN ((?:[A-Z0-9]+ ){0,4})PRIVATE KEY( BLOCK)?-----/g;
const PEM_BODY = /[A-Za-z0-9+/=\s:,.\\-]*/y;

// PGP armour ends "PRIVATE KEY BLOCK-----", so the cheap check looks for the words only.
function redactPrivateKeys(text: string): string {
  if (!text.includes("PRIVATE KEY")) return text;
  const unterminated = new Set<string>();
  let out = "";
  let last = 0;
  PEM_BEGIN.lastIndex = 0;
  for (let m = PEM_BEGIN.exec(text); m !== null; m = PEM_BEGIN.exec(text)) {
    const label = `${m[1]}PRIVATE KEY${m[2] ?? ""}`;
    const endMarker = `-----END ${label}-----`;
    const bodyStart = m.index + m[0].length;
    // Inside a JSON string the line breaks are escaped; keep the string valid.
    const nl = text.startsWith("\\n", bodyStart) ? "\\n" : "\n";
    let end = unterminated.has(label) ? -1 : text.indexOf(endMarker, bodyStart);
    let tail = "";
    if (end >= 0) {
      end += endMarker.length;
      tail = `${nl}${endMarker}`;
    } else {
      unterminated.add(label); // no END after here means none after any later BEGIN either
      if (text.startsWith(`${nl}${REDACTED}`, bodyStart)) {
        end = bodyStart + nl.length + REDACTED.length; // a truncated block we already masked
      } else {
        PEM_BODY.lastIndex = bodyStart;
        PEM_BODY.exec(text);
        end = PEM_BODY.lastIndex;
      }
    }
    out += `${text.slice(last, m.index)}-----BEGIN ${label}-----${nl}${REDACTED}${tail}`;
    last = end;
    PEM_BEGIN.lastIndex = end;
  }
  return redactOrphanKeyBodies(out + text.slice(last));
}

// The tail of a truncated output can hold the end of a key without its BEGIN line: the
// base64 lines right before an END line go too. The lookbehind starts each attempt at
// the start of a run, so long base64 text without an END stays linear.
const ORPHAN_BODY = /(?<![A-Za-z0-9+/=])((?:[A-Za-z0-9+/=]{16,}(?:\r?\n|\\n))+)(-----END ((?:[A-Z0-9]+ ){0,4})PRIVATE KEY( BLOCK)?-----)/g;

function redactOrphanKeyBodies(text: string): string {
  if (!text.includes("PRIVATE KEY")) return text;
  return text.replace(ORPHAN_BODY, (_match, body: string, end: string) => `${REDACTED}${body.endsWith("\\n") ? "\\n" : "\n"}${end}`);
}

/**
 * The version of the redaction rules (this file, redact-rules.ts, redact-views.ts,
 * secret-names.ts and what sessions/redact-record.ts redacts in a record). Journal records
 * are stamped with it when written; on load only records stamped with another version (or
 * none: written before stamps) go through the rules again. Bump it whenever a change can
 * mask more or differently; test/unit/redact-version.test.ts holds a fingerprint of those
 * files and fails until the version and the fingerprint are updated together.
 */
export const REDACTION_VERSION = 3;

// Cheap prefilter. Every rule needs, somewhere in the text, one of: a credential word (all
// the name-based rules, PEM, YAML blocks, netrc, Azure, PuTTY's "Private-"), one of a few
// literals (URL credentials, Basic, mysql -p, curl -u), a run of at least 15 token characters
// (every known token format: the shortest is Slack's "xoxb-" + 10; JWTs, base64 and hex blobs,
// reversed tokens and lone AWS secrets are longer), or an encoded view (ANSI codes, \u00
// escapes). Text with none of them (most prose and short tool output) can only hold the
// agent's own secrets by value, which are looked for separately. A new rule must keep this
// true (the corpus tests run every positive through this path).
const RULE_WORD = /pass|pwd|secret|token|key|cred|auth|sig|private|basic|mysql|:\/\/|(?:^|\s)(?:-u|--user|--proxy-user)[\s=]|login\b[^\n]*\s-p\s|\$(?:apr1|2[aby]|5|6|y|gy|7)\$/i;
const TOKEN_RUN = /[A-Za-z0-9+/=_.~-]{15}/;

/** Whether any format rule could match `text` (false: only registered values can be in it). */
export function mayHoldFormattedSecret(text: string): boolean {
  return RULE_WORD.test(text) || TOKEN_RUN.test(text) || text.includes("\x1b") || text.includes("\\u00");
}

// The same text passes several doors (a tool result: the tool runner, the journal, the ACP
// update; a reply: the collector, then the journal), and every rule runs over it each time.
// Redaction is a pure function of the text and the registered secret values, so results are
// remembered, keyed by the text, until a value is registered (the generation changes). The
// memo holds at most MEMO_BUDGET characters and is dropped whole when full (no LRU bookkeeping
// on the hot path); texts over MEMO_MAX_TEXT are redacted afresh each time.
const MEMO_MAX_TEXT = 256 * 1024;
const MEMO_BUDGET = 8 * 1024 * 1024;
const memo = new Map<string, string>();
let memoChars = 0;
let memoGeneration = -1;

/** Replaces every credential-looking substring of `text` by "[REDACTED]". */
export function redactSecrets(text: string): string {
  // Text the prefilter clears is cheaper to scan again than to remember.
  if (!mayHoldFormattedSecret(text)) return redactKnownValues(text);
  if (text.length > MEMO_MAX_TEXT) return redactAllRules(text);
  const generation = secretValuesGeneration();
  if (generation !== memoGeneration) {
    memo.clear();
    memoChars = 0;
    memoGeneration = generation;
  }
  const known = memo.get(text);
  if (known !== undefined) return known;
  const masked = redactAllRules(text);
  if (memoChars + text.length + masked.length > MEMO_BUDGET) {
    memo.clear();
    memoChars = 0;
  }
  memo.set(text, masked);
  // A clean text is its own answer: the next door, given the result, finds it at once.
  if (masked !== text) memo.set(masked, redactAllRules(masked));
  memoChars += text.length + masked.length * 2;
  return masked;
}

/** Every rule, without the prefilter (exported so tests can check the prefilter against it). */
export function redactAllRules(text: string): string {
  // A key split by colour codes or spelled with JSON \u escapes only matches once decoded.
  // The decoded view is what goes out when it held a secret (still readable: the text a
  // terminal shows, the same JSON string); otherwise the text keeps its escapes.
  for (const view of [stripAnsi, decodeTokenEscapes]) {
    const decoded = view(text);
    if (decoded !== text) {
      const masked = redactAllRules(decoded);
      if (masked !== decoded) return masked;
    }
  }
  return redactPlain(text, 0);
}

/** Nested views (reversed, decoded) stop here: a reversed token is not decoded again. */
const MAX_VIEW_DEPTH = 2;

function redactPlain(text: string, depth: number): string {
  let out = redactPrivateKeys(redactKnownValues(redactPuttyKeys(normalizePemArmour(text))));
  out = redactLoneAwsSecrets(redactYamlBlocks(out));
  if (depth === 0) out = redactReversedTokens(out, (forward) => redactPlain(forward, MAX_VIEW_DEPTH));
  for (const rule of RULES) {
    rule.pattern.lastIndex = 0;
    out = typeof rule.replace === "string" ? out.replace(rule.pattern, rule.replace) : out.replace(rule.pattern, rule.replace);
  }
  // Base64 / hex of a whole .env or key: masked whole when the decoded text holds a secret.
  return redactEncodedBlobs(out, (decoded, level) => redactPlain(decoded, level) !== decoded, depth);
}

/** Whether `text` contains anything `redactSecrets` would mask. */
export function containsSecret(text: string): boolean {
  return redactSecrets(text) !== text;
}

/**
 * A copy of a JSON-like value (objects, arrays, strings, numbers…) with every string
 * redacted. String values stored under a secret-named key ({ "password": "…" },
 * { apiKey: "…" }) are masked whole when they look like a literal secret, since
 * there is no `key:` context left inside the string itself. Object keys, numbers,
 * booleans and non-plain objects (Date, Buffer, class instances) are kept as they are.
 */
export function redactDeep<T>(value: T): T {
  return deep(value, undefined, new Map()) as T;
}

function deep(value: unknown, key: string | undefined, seen: Map<object, unknown>): unknown {
  if (typeof value === "string") {
    if (key !== undefined && isSecretName(key) && looksLikeSecretValue(value, true, isEnvStyleName(key))) return REDACTED;
    return redactSecrets(value);
  }
  if (value === null || typeof value !== "object") return value;
  const known = seen.get(value);
  if (known !== undefined) return known;
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    seen.set(value, copy);
    for (const item of value) copy.push(deep(item, undefined, seen));
    return copy;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const copy: Record<string, unknown> = {};
  seen.set(value, copy);
  for (const [k, v] of Object.entries(value)) copy[k] = deep(v, k, seen);
  return copy;
}
