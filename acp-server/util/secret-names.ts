// Which names hold credentials, and which values under such a name are literal secrets
// rather than code, types, references or placeholders. Shared by the redactor (`NAME=value`,
// `"name": "value"`, `--name value`) and by the agent's own secret registry (which of its
// environment variables are credentials).
//
// Names are split into words (snake_case, kebab-case, dots, camelCase). A name is secret
// when one of its words is a credential word (PASSWORD, PASSWD, PWD, PASS, PASSPHRASE,
// SECRET, TOKEN, KEY, APIKEY, CREDENTIAL(S), CREDS, AUTH) or ends with one of the long ones
// (PGPASSWORD, APITOKEN). Decisions, documented in docs/security.md:
//   - KEY must be a whole word: KEYBOARD_LAYOUT, MONKEY and KEYWORDS are not secrets.
//   - PUBLIC / PUB / PUBKEY anywhere make a name public (PUBKEY_PATH, PUBLIC_KEY).
//   - A name whose last word says what the value is about rather than being it
//     (TOKEN_COUNT, password_field, SECRET_NAME, TOKEN_URL, KEY_PATH) is not secret.
//   - AUTH must be a whole word: AUTHOR is not a secret.

const CREDENTIAL_WORDS = new Set([
  "PASSWORD", "PASSWORDS", "PASSWD", "PWD", "PASS", "PASSPHRASE", "PASSCODE",
  "SECRET", "SECRETS", "TOKEN", "TOKENS", "KEY", "KEYS", "APIKEY", "PRIVATEKEY", "ACCESSKEY", "SECRETKEY",
  "CREDENTIAL", "CREDENTIALS", "CREDS", "AUTH", "SIG", "SIGNATURE",
]);
const CREDENTIAL_ENDINGS = ["PASSWORD", "PASSWD", "SECRET", "TOKEN", "APIKEY", "CREDENTIALS", "CREDENTIAL", "PASSPHRASE"];
const PUBLIC_WORDS = new Set(["PUBLIC", "PUB", "PUBKEY", "PUBLICKEY"]);
/** A last word that describes the value instead of being it. */
const DESCRIPTIVE_TAIL = new Set([
  "COUNT", "COUNTS", "LIMIT", "SIZE", "LEN", "LENGTH", "MAX", "MIN", "TTL", "TIMEOUT", "EXPIRY", "EXPIRES", "EXPIRATION",
  "FILE", "PATH", "DIR", "TYPE", "TYPES", "NAME", "NAMES", "FIELD", "LABEL", "URL", "URI", "ENDPOINT", "HOST", "PORT",
  "ID", "IDS", "ENABLED", "DISABLED", "REQUIRED", "CHANGED", "UPDATED", "CREATED", "AT", "HEADER", "PREFIX", "FORMAT",
  "MODE", "METHOD", "PROVIDER", "SOURCE", "ENV", "VAR", "VARIABLE", "LOCATION", "REF", "VERSION", "USAGE", "INPUT",
  "OUTPUT", "STRATEGY", "POLICY", "SCOPE", "SCOPES", "ALGORITHM", "ALG", "HASH", "LEVEL",
]);

/** The words of a name: `MYSQL_PWD` → [MYSQL, PWD], `apiKey` → [API, KEY], `x-api-key` → [X, API, KEY]. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .split(/[^A-Za-z0-9]+/)
    .map((word) => word.replace(/\d+$/, "").toUpperCase())
    .filter((word) => word !== "");
}

/** Whether a variable, key or flag of this name holds a credential. */
/**
 * Answers by name: redactDeep asks for every key of every record and update it walks (the same
 * few dozen keys, thousands of times a turn). Pure, so remembered; bounded, dropped whole when full.
 */
const secretNameAnswers = new Map<string, boolean>();
const MAX_REMEMBERED_NAMES = 4096;

export function isSecretName(name: string): boolean {
  let answer = secretNameAnswers.get(name);
  if (answer === undefined) {
    if (secretNameAnswers.size >= MAX_REMEMBERED_NAMES) secretNameAnswers.clear();
    secretNameAnswers.set(name, (answer = classifyName(name)));
  }
  return answer;
}

function classifyName(name: string): boolean {
  const words = nameWords(name);
  if (words.length === 0) return false;
  if (words.some((word) => PUBLIC_WORDS.has(word))) return false;
  if (words.length > 1 && DESCRIPTIVE_TAIL.has(words.at(-1) ?? "")) return false;
  // "API KEY" as two words is KEY; "API_KEY_ID" ends descriptively and was dropped above.
  return words.some((word) => CREDENTIAL_WORDS.has(word) || CREDENTIAL_ENDINGS.some((ending) => word.length > ending.length && word.endsWith(ending)));
}

/** Environment-variable style: `MYSQL_PWD`, `DB_PASSWORD`. Values under such names are never code. */
export function isEnvStyleName(name: string): boolean {
  return /^[A-Z][A-Z0-9_]*$/.test(name) && /[A-Z]{2}/.test(name);
}

export const REDACTED = "[REDACTED]";

const PLACEHOLDER_WORDS = /^(?:true|false|null|none|nil|undefined|string|number|boolean|required|optional|redacted|yes|no|on|off|empty|secret|password|token|changeme|placeholder)$/i;
const PLACEHOLDER_SHAPES = /^(?:your|my|insert|enter|replace)[-_ ]|[-_](?:here|goes[-_]here)$|^<[^>]*>$|^\.\.\.$|^(?:x{4,}|X{4,})$|^\*+$/i;

/** `${X}`, `$X`, `%X%`, `{{ x }}`, `<your key>`, `process.env.X`, `os.environ[…]`… */
export function isReference(value: string): boolean {
  const first = value[0];
  if (first === "$" || first === "%" || first === "{" || first === "<" || first === "[" || first === "(" || first === "*" || first === "@") return true;
  if (/(?:^|\.)env(?:\.|\[)|environ|getenv/i.test(value)) return true;
  return value.includes(REDACTED) || value.includes("…");
}

export function isPlaceholder(value: string): boolean {
  return PLACEHOLDER_WORDS.test(value) || PLACEHOLDER_SHAPES.test(value) || (value.length >= 4 && /^(.)\1*$/.test(value));
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
 * Whether the value under a secret name looks like a literal secret. `strict` is for
 * env-style names (`MYSQL_PWD=x`): any literal counts, however short, because such values
 * are configuration, not code. Otherwise (`password: string`, `token = getToken()`), the
 * value must look random enough not to be code.
 */
export function looksLikeSecretValue(value: string, quoted: boolean, strict = false): boolean {
  if (value.length === 0 || value.length > 4096) return false;
  if (isReference(value) || isPath(value) || isPlaceholder(value)) return false;
  const digits = countDigits(value);
  if (strict) {
    if (digits === value.length) return value.length >= 6; // ports, counts and sizes are not secrets
    return !/\s/.test(value) || quoted;
  }
  if (value.length < 8) return false;
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
