// The agent's own secrets, known by value: its credential-named environment variables and
// the configured provider API keys. Format rules cannot recognise an arbitrary password, but
// these exact values can be found wherever they appear, including the usual ways a command
// disguises them: reversed (`rev`), base64 (standard or url-safe, whatever the byte
// alignment of the value inside the encoded stream) and hex (`xxd -p`, `od`).
import { isPlaceholder, isReference, isSecretName, REDACTED } from "./secret-names";

/** Shorter values would mask ordinary words; such secrets are left to the format rules. */
const MIN_LENGTH = 8;

/** Each value with where it came from ("OPENAI_API_KEY", "the openai/gpt-4.1 model's API key"): named, never shown. */
const values = new Map<string, string>();
let matcher: RegExp | undefined;
let dirty = false;
/** Bumped whenever the set changes: what was redacted before may redact differently now. */
let generation = 0;

/** Changes whenever a value is added or the set is cleared (redact.ts keys its memo on it). */
export function secretValuesGeneration(): number {
  return generation;
}

/** Whether `value` is distinctive enough to be searched for verbatim everywhere. */
export function isDistinctiveSecret(value: string): boolean {
  if (value.length < MIN_LENGTH || value.length > 4096 || /\s/.test(value)) return false;
  if (isReference(value) || isPlaceholder(value)) return false;
  // An all-lower-case word ("development", "localhost") is not a key; a long one may be a passphrase.
  return /[0-9]/.test(value) || (/[A-Z]/.test(value) && /[a-z]/.test(value)) || /[^A-Za-z0-9]/.test(value) || value.length >= 16;
}

/** Remembers a secret value (an API key from config, a token from the environment); `source` names it for a prompt. */
export function registerSecretValue(value: string | undefined, source = "one of Hermes's own keys"): void {
  if (value === undefined || !isDistinctiveSecret(value) || values.has(value)) return;
  values.set(value, source);
  dirty = true;
  generation++;
}

/**
 * The shell's working-directory variables: "PWD" reads as a password name, but these hold the
 * directory the agent was started in, and masking it would hide every path under it.
 */
const SHELL_DIRECTORIES = new Set(["PWD", "OLDPWD"]);

/** Registers every credential-named variable of `env` (OPENAI_API_KEY, VAULT_TOKEN, MYSQL_PWD…). */
export function registerSecretsFromEnv(env: NodeJS.ProcessEnv): void {
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && isSecretName(name) && !SHELL_DIRECTORIES.has(name)) registerSecretValue(value, `the environment variable ${name}`);
  }
}

/** For tests: forget every registered value. */
export function clearSecretValues(): void {
  values.clear();
  matcher = undefined;
  dirty = false;
  generation++;
}

/**
 * The characters of base64(`pad` + value) that depend only on the value's bytes, for a value
 * starting `pad` bytes (0, 1 or 2) into a 3-byte group: a substring of every encoding of any
 * text containing the value at that alignment.
 */
export function base64Core(bytes: Buffer, pad: number): string {
  const encoded = Buffer.concat([Buffer.alloc(pad), bytes]).toString("base64").replace(/=+$/, "");
  const start = Math.ceil((pad * 8) / 6);
  const end = Math.floor(((pad + bytes.length) * 8) / 6);
  return encoded.slice(start, end);
}

/** Every form in which a value is looked for. */
export function secretVariants(value: string): string[] {
  const bytes = Buffer.from(value, "utf8");
  const forms = new Set<string>([value, [...value].reverse().join("")]);
  for (const pad of [0, 1, 2]) {
    const core = base64Core(bytes, pad);
    if (core.length >= MIN_LENGTH) {
      forms.add(core);
      forms.add(core.replace(/\+/g, "-").replace(/\//g, "_"));
    }
  }
  const hex = bytes.toString("hex");
  forms.add(hex);
  forms.add(hex.toUpperCase());
  return [...forms];
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
}

function currentMatcher(): RegExp | undefined {
  if (dirty) {
    dirty = false;
    // Longest first, so a value wins over a shorter value it contains.
    const forms = [...new Set([...values.keys()].flatMap(secretVariants))].sort((a, b) => b.length - a.length);
    matcher = forms.length ? new RegExp(forms.map(escape).join("|"), "g") : undefined;
  }
  return matcher;
}

/** `text` with every registered value (in any of its forms) replaced by "[REDACTED]". */
export function redactKnownValues(text: string): string {
  const pattern = currentMatcher();
  if (!pattern) return text;
  pattern.lastIndex = 0;
  return text.replace(pattern, REDACTED);
}

/** Whether `text` holds a registered value in any of its forms (a scan, no copy). */
export function containsKnownValue(text: string): boolean {
  const pattern = currentMatcher();
  if (!pattern) return false;
  pattern.lastIndex = 0;
  const found = pattern.test(text);
  pattern.lastIndex = 0;
  return found;
}

/** Every registered value with its source, for checks that must say which secret they found (security/outbound-secrets.ts). */
export function knownSecretValues(): { value: string; name: string }[] {
  return [...values].map(([value, name]) => ({ value, name }));
}

/** Whether any registered value is known (cheap check for callers that can skip work). */
export function hasSecretValues(): boolean {
  return values.size > 0;
}

/**
 * Whether `json` (text JSON.stringify wrote, e.g. cached protocol frames) holds a registered value
 * in any of its forms inside a string: each form is looked for as JSON writes it (a quote or a
 * backslash in a value is escaped there), over the bytes, with no decoding.
 */
export function jsonContainsKnownValue(json: Buffer): boolean {
  for (const value of values.keys()) {
    for (const form of secretVariants(value)) if (json.includes(JSON.stringify(form).slice(1, -1))) return true;
  }
  return false;
}
