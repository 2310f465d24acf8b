// Masks things that look like credentials before text is logged, shown to the
// client, or stored in a session record. Every secret is replaced by the literal
// "[REDACTED]"; a short, non-secret type prefix is kept where it helps a human
// recognise what was there ("sk-ant-…[REDACTED]", "ghp_…[REDACTED]").
//
// Two kinds of rules:
//   1. Known formats (provider key prefixes, JWTs, private key blocks, URL
//      credentials, Authorization headers): redacted wherever they appear.
//   2. Generic `name = value` assignments whose name ends in a secret-ish word
//      (api_key, token, password, secret, …): redacted only when the value looks
//      like a literal secret, so ordinary code (`const token = getToken();`,
//      `password: string`, `api_key: ${OPENAI_API_KEY}`) is left byte-identical.
//
// Performance: this runs on every tool result, so every pattern starts with a
// literal or a tightly bounded prefix and no pattern nests unbounded quantifiers
// (no catastrophic backtracking). A megabyte of ordinary code takes a few ms.

export const REDACTED = "[REDACTED]";
const MARK = `…${REDACTED}`;

type Replacer = (match: string, ...rest: any[]) => string;

/** Looks random enough to be a key body: has a digit or an upper-case letter. */
function randomish(body: string): boolean {
  return /[0-9]/.test(body) || /[A-Z]/.test(body);
}

/** Keeps `prefix`, drops the rest of the token when its body looks random. */
function prefixed(check: (body: string) => boolean = () => true): Replacer {
  return (match: string, prefix: string, body: string) => (check(body) ? `${prefix}${MARK}` : match);
}

// --- value classification for generic assignments --------------------------

const PLACEHOLDER_WORDS = /^(?:true|false|null|none|nil|undefined|string|number|boolean|required|optional|redacted)$/i;

/** `${X}`, `$X`, `%X%`, `{{ x }}`, `<your key>`, `process.env.X`, `os.environ[…]`… */
function isReference(value: string): boolean {
  const first = value[0];
  if (first === "$" || first === "%" || first === "{" || first === "<" || first === "[" || first === "(" || first === "*") return true;
  if (/(?:^|\.)env(?:\.|\[)|environ|getenv/i.test(value)) return true;
  return value.includes(REDACTED) || value.includes("…");
}

function isPath(value: string): boolean {
  return /^(?:\/|\.\.?\/|~\/)[^/]*\//.test(value) || /^[A-Za-z]:[\\/]/.test(value);
}

function countDigits(value: string): number {
  let n = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 48 && c <= 57) n++;
  }
  return n;
}

/**
 * Whether the value of a `secret_name = value` assignment looks like a literal secret
 * rather than code, a type, a reference or a placeholder.
 */
function looksLikeSecretValue(value: string, quoted: boolean): boolean {
  if (value.length < 8 || value.length > 4096) return false;
  if (isReference(value) || isPath(value) || PLACEHOLDER_WORDS.test(value)) return false;
  if (/^(.)\1*$/.test(value)) return false; // "xxxxxxxx", "********"
  const digits = countDigits(value);
  const upper = /[A-Z]/.test(value);
  const lower = /[a-z]/.test(value);
  if (quoted) {
    if (/\s/.test(value)) return false; // prose: "Enter your password"
    return digits > 0 || (upper && lower) || /[^A-Za-z0-9_-]/.test(value);
  }
  // Unquoted: could be code. A plain identifier or member expression (getToken,
  // config.apiKey, hashedPassword) needs to look clearly random.
  if (/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(value) && digits === 0) return false;
  if (/^[A-Za-z_$][\w$]*$/.test(value)) {
    return (value.length >= 12 && digits >= 3) || (value.length >= 20 && digits >= 1) || (value.length >= 32 && upper && lower);
  }
  if (digits === value.length) return value.length >= 12; // long numeric secrets only, not ports or dates
  if (/^[0-9.:\-/T+Z]+$/.test(value)) return false; // dates, versions, times, ranges
  return (digits > 0 && (upper || lower)) || (value.length >= 16 && upper && lower);
}

// Name endings that mark a secret: api_key, apiKey, x-api-key, client_secret,
// AWS_SECRET_ACCESS_KEY, access_token, GITHUB_TOKEN, db_password, passphrase…
const SECRET_NAME = String.raw`(?:(?:api|access|secret|private|client|auth|encryption|signing|master)[_-]?key|secret|token|pass(?:word|wd|phrase)|credentials?)`;

// keyword, optional closing quote of the key (possibly JSON-escaped), separator,
// then a double-quoted, single-quoted or bare value. Separators never cross a line.
const ASSIGNMENT = new RegExp(
  String.raw`${SECRET_NAME}(\\?["'])?([ \t]*(?::=|=>|[:=])[ \t]*)(?:(\\?")([^"\\\r\n]*)\\?"|'([^'\r\n]*)'|([^\s"'\x60,;&<>(){}\[\]\\]+))`,
  "gi",
);

/** Object keys whose string values are secrets: apiKey, api_key, password, GITHUB_TOKEN… */
const SECRET_KEY_NAME = new RegExp(`${SECRET_NAME}$`, "i");

const assignment: Replacer = (
  match: string,
  _keyQuote: string | undefined,
  _sep: string,
  _dqOpen: string | undefined,
  dq: string | undefined,
  sq: string | undefined,
  bare: string | undefined,
  offset: number,
  whole: string,
) => {
  const value = dq ?? sq ?? bare ?? "";
  const quoted = bare === undefined;
  if (!quoted) {
    const end = offset + match.length;
    if (whole.charCodeAt(end) === 40 /* ( */) return match; // a call: getToken(), os.Getenv("X")
    if (whole.startsWith(REDACTED, end)) return match; // already masked by a format rule
  }
  if (!looksLikeSecretValue(value, quoted)) return match;
  const closing = dq !== undefined ? (match.endsWith('\\"') ? 2 : 1) : sq !== undefined ? 1 : 0;
  const valueStart = match.length - closing - value.length;
  return match.slice(0, valueStart) + REDACTED + match.slice(valueStart + value.length);
};

// --- the rule table ---------------------------------------------------------

interface Rule {
  pattern: RegExp;
  replace: string | Replacer;
}

const RULES: Rule[] = [
  // scheme://user:password@host → scheme://user:[REDACTED]@host
  {
    pattern: /\b([a-z][a-z0-9+.-]{0,20}:\/\/[^\s:/?#@"'<>]+:)([^\s/?#@"'<>]+)@/gi,
    replace: (match: string, head: string, password: string) =>
      password === REDACTED || password.startsWith("$") || password.startsWith("{") ? match : `${head}${REDACTED}@`,
  },
  // Anthropic, OpenAI (sk-, sk-proj-, sk-svcacct-, sk-admin-), OpenRouter.
  {
    pattern: /\b(sk-(?:ant-(?:api\d\d-|admin\d\d-|oat\d\d-)?|proj-|or-v\d-|or-|svcacct-|admin-)?)([A-Za-z0-9_-]{20,})/g,
    replace: prefixed(randomish),
  },
  // Google API keys.
  { pattern: /\b(AIza)([0-9A-Za-z_-]{35})(?![0-9A-Za-z_-])/g, replace: prefixed() },
  // Google OAuth access tokens.
  { pattern: /\b(ya29\.)([0-9A-Za-z_-]{20,})/g, replace: prefixed() },
  // GitHub classic and fine-grained tokens.
  { pattern: /\b(gh[pousr]_)([A-Za-z0-9]{30,})/g, replace: prefixed() },
  { pattern: /\b(github_pat_)([A-Za-z0-9_]{22,})/g, replace: prefixed() },
  // GitLab personal access tokens.
  { pattern: /\b(glpat-)([A-Za-z0-9_-]{20,})/g, replace: prefixed() },
  // Slack.
  { pattern: /\b(xox[abprs]-)([A-Za-z0-9-]{10,})/g, replace: prefixed(randomish) },
  // Stripe live/test secret and restricted keys.
  { pattern: /\b([sr]k_(?:live|test)_)([A-Za-z0-9]{16,})/g, replace: prefixed() },
  // AWS access key ids.
  { pattern: /\b(AKIA|ASIA)([0-9A-Z]{16})\b/g, replace: prefixed() },
  // JWTs: three base64url parts, the first two JSON objects ("eyJ" = '{"').
  { pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g, replace: `eyJ${MARK}` },
  // Authorization / Proxy-Authorization headers (HTTP, curl -H, JSON, YAML).
  {
    pattern: /(authorization(?:\\?["'])?[ \t]*[:=][ \t]*(?:\\?["'])?[ \t]*)(?:(bearer|basic|token|bot|digest|negotiate)([ \t]+))?([^\s"'\\,;]+)/gi,
    replace: (match: string, head: string, scheme: string | undefined, gap: string | undefined, value: string) => {
      if (value === REDACTED || isReference(value)) return match;
      if (scheme !== undefined) return value.length >= 4 ? `${head}${scheme}${gap}${REDACTED}` : match;
      return looksLikeSecretValue(value, false) ? `${head}${REDACTED}` : match;
    },
  },
  // Bearer tokens elsewhere ("Bearer abc…" in a log line or error message).
  {
    pattern: /\b(bearer[ \t]+)([A-Za-z0-9._~+/-]{16,}=*)/gi,
    replace: (match: string, head: string, value: string) => (/[0-9]/.test(value) ? `${head}${REDACTED}` : match),
  },
  // Generic secret assignments: JSON, YAML, env files, query strings, code.
  { pattern: ASSIGNMENT, replace: assignment },
];

// PEM / OpenSSH / PGP private keys: the whole body goes, multi-line or JSON-escaped
// ("\n"). Done with indexOf rather than a lazy regex so that many BEGIN lines without
// an END line stay linear.
const PEM_BEGIN = /-----BEGIN ((?:[A-Z0-9]+ ){0,4})PRIVATE KEY( BLOCK)?-----/g;
const PEM_BODY = /[A-Za-z0-9+/=\s:,.\\-]*/y;

function redactPrivateKeys(text: string): string {
  if (!text.includes("PRIVATE KEY-----")) return text;
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
  return out + text.slice(last);
}

/** Replaces every credential-looking substring of `text` by "[REDACTED]". */
export function redactSecrets(text: string): string {
  let out = redactPrivateKeys(text);
  for (const rule of RULES) {
    rule.pattern.lastIndex = 0;
    out = out.replace(rule.pattern, rule.replace as any);
  }
  return out;
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
    if (key !== undefined && SECRET_KEY_NAME.test(key) && looksLikeSecretValue(value, true)) return REDACTED;
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
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const copy: Record<string, unknown> = {};
  seen.set(value, copy);
  for (const [k, v] of Object.entries(value)) copy[k] = deep(v, k, seen);
  return copy;
}
