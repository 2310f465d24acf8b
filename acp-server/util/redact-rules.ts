// The credential formats the redactor knows, one rule each: known token prefixes, context
// formats (Authorization headers, URL passwords, connection strings, CLI flags) and generic
// `name = value` assignments under a secret-looking name.
//
// Performance: this runs on every tool result and every streamed chunk, so every pattern
// starts with a literal or a tightly bounded prefix and no pattern nests unbounded
// quantifiers (no catastrophic backtracking). A megabyte of ordinary code takes a few ms.
import { isEnvStyleName, isReference, isSecretName, looksLikeSecretValue, REDACTED } from "./secret-names";

// String.prototype.replace hands each pattern its own capture groups (some undefined), then the
// offset and the input: no single element type fits every rule's parameter list.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Replacer = (match: string, ...rest: any[]) => string;

export interface Rule {
  pattern: RegExp;
  replace: string | Replacer;
}

export const MARK = `…${REDACTED}`;

/** Looks random enough to be a key body: has a digit or an upper-case letter. */
function randomish(body: string): boolean {
  return /[0-9]/.test(body) || /[A-Z]/.test(body);
}

/** Keeps `prefix`, drops the rest of the token when its body looks random. */
function prefixed(check: (body: string) => boolean = () => true): Replacer {
  return (match: string, prefix: string, body: string) => (check(body) ? `${prefix}${MARK}` : match);
}

/** A token made of a fixed prefix and a body: `[prefix, body pattern]`, prefix kept. */
const PREFIXED_TOKENS: [string, string][] = [
  [String.raw`npm_`, String.raw`[A-Za-z0-9]{36}(?![A-Za-z0-9])`],
  [String.raw`dop_v1_|doo_v1_|dor_v1_`, String.raw`[a-f0-9]{64}`],
  [String.raw`hv[sbr]\.`, String.raw`[A-Za-z0-9_-]{24,}`],
  [String.raw`dp\.(?:pt|st|sa|ct|scim|audit)\.(?:[a-z0-9_-]{1,40}\.)?`, String.raw`[A-Za-z0-9]{40,}`],
  [String.raw`dapi`, String.raw`[a-f0-9]{32}(?:-\d)?(?![A-Za-z0-9])`],
  [String.raw`pypi-`, String.raw`AgE[A-Za-z0-9_-]{50,}`],
  [String.raw`shp(?:at|ca|pa|ss)_`, String.raw`[a-fA-F0-9]{32}`],
  [String.raw`key-`, String.raw`[0-9a-f]{32}(?![A-Za-z0-9])`], // Mailgun
  [String.raw`SK`, String.raw`[0-9a-f]{32}(?![A-Za-z0-9])`], // Twilio API key
  [String.raw`xapp-`, String.raw`\d-[A-Za-z0-9]+-\d+-[a-f0-9]{32,}`],
  [String.raw`glsa_|glc_|sntrys_|sntryu_|lin_api_|dckr_pat_|rubygems_|gsk_|nvapi-|glptt-|gldt-|glrt-|glcbt-|glsoat-|GOCSPX-`, String.raw`[A-Za-z0-9_=-]{20,}`],
  // Round 3: AI platforms, dev platforms and clouds with a recognisable prefix.
  [String.raw`pplx-|napi_|CFPAT-|HRKU-|figd_|CCIPAT_|pscale_(?:tkn|pw|oauth)_|fm[12]_|fo1_`, String.raw`[A-Za-z0-9_=.+/-]{30,}`],
  [String.raw`r8_|ATBB|pcsk_|lsv2_(?:pt|sk)_|tskey-(?:auth|api|client|webhook|scim)-`, String.raw`[A-Za-z0-9_-]{20,}`],
  [String.raw`sbp_|pul-|bkua_`, String.raw`[a-f0-9]{40}(?![A-Za-z0-9])`],
  [String.raw`NRAK-`, String.raw`[A-Z0-9]{27}(?![A-Za-z0-9])`],
  [String.raw`ATATT3`, String.raw`[A-Za-z0-9_=-]{100,}`], // Atlassian API token
  [String.raw`EAAA`, String.raw`(?=[A-Za-z0-9_-]*[0-9])[A-Za-z0-9_-]{40,}`], // Square / Meta access tokens
  [String.raw`[A-Za-z0-9]{14}\.atlasv1\.`, String.raw`[A-Za-z0-9_=-]{60,}`], // Terraform Cloud
  [String.raw`PMAK-`, String.raw`[a-f0-9]{24}-[a-f0-9]{34}`],
  [String.raw`AGE-SECRET-KEY-1`, String.raw`[0-9A-Z]{50,}`],
  [String.raw`xai-`, String.raw`[A-Za-z0-9]{40,}`],
  [String.raw`whsec_`, String.raw`[A-Za-z0-9+/=]{24,}`], // Stripe webhook signing secret
  [String.raw`ntn_`, String.raw`[A-Za-z0-9]{40,}`], // Notion integration token
  [String.raw`secret_`, String.raw`(?=[a-z0-9]*[A-Z])(?=[A-Za-z]*[0-9])[A-Za-z0-9]{43}(?![A-Za-z0-9_])`], // Notion (legacy)
  [String.raw`sk\.`, String.raw`eyJ[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{10,}`], // Mapbox secret token
  // Round 4: Sourcegraph, Resend, Fireworks, Dynatrace, Prefect, Dropbox, Airtable, Render, Mailchimp.
  [String.raw`sgp_`, String.raw`(?:[a-f0-9]{16}_)?[a-f0-9]{40}`],
  [String.raw`re_|fw_`, String.raw`(?=[A-Za-z0-9_]*[0-9])(?=[A-Za-z0-9_]*[A-Z])(?=[A-Za-z0-9_]*[a-z])[A-Za-z0-9_]{20,}`],
  [String.raw`dt0c01\.`, String.raw`[A-Z0-9]{24}\.[A-Z0-9]{64}`],
  [String.raw`pn[ub]_`, String.raw`[A-Za-z0-9]{36}(?![A-Za-z0-9])`],
  [String.raw`sl\.(?:u\.)?`, String.raw`[A-Za-z0-9_-]{100,}`],
  [String.raw`pat[A-Za-z0-9]{14}\.`, String.raw`[a-f0-9]{64}`],
  [String.raw`rnd_`, String.raw`[A-Za-z0-9]{32}(?![A-Za-z0-9])`],
  [String.raw`(?=[0-9a-f]{32}-us[0-9])`, String.raw`[0-9a-f]{32}(?=-us[0-9]{1,2}\b)`],
];

/** An uppercase env-style name, or netrc's `password`, followed by blanks and a value. */
const NAME_SPACE_VALUE = /(?<![\w.$-])(?=[A-Z0-9_]{0,80}?(?:PASS|PWD|SECRET|TOKEN|KEY|CRED|AUTH)|password[ \t])([A-Z][A-Z0-9_]{2,80}|password)([ \t]+)([A-Za-z0-9+/=_.~:-]{8,512})(?![^\s"'`,;)])/g;

const nameSpaceValue: Replacer = (match: string, name: string, gap: string, value: string) => {
  if (name !== "password" && !(isEnvStyleName(name) && isSecretName(name))) return match;
  if (value.includes(REDACTED) || !looksLikeSecretValue(value, false)) return match;
  return `${name}${gap}${REDACTED}`;
};

/** `--password value`, `--api-key=value`, `-p value` after sshpass. */
const SECRET_FLAG = /(^|[\s"'])(--?[A-Za-z][\w-]*)(=|[ \t]+)(?!-)("[^"\n]*"|'[^'\n]*'|[^\s"'|;&<>]+)/g;

const flag: Replacer = (match: string, lead: string, name: string, sep: string, value: string) => {
  if (!/pass|pwd|secret|token|key|cred|auth/i.test(name) || !isSecretName(name.replace(/^-+/, ""))) return match;
  const bare = value.replace(/^(["'])(.*)\1$/, "$2");
  if (bare.startsWith("-") || bare === REDACTED || !looksLikeSecretValue(bare, bare !== value, true)) return match;
  return `${lead}${name}${sep}${value === bare ? REDACTED : `${value[0]}${REDACTED}${value[0]}`}`;
};

// A name (with the credential word somewhere in it), the optional closing quote of a JSON or
// YAML key (possibly JSON-escaped), a separator, then a double-quoted, single-quoted or bare
// value. Separators never cross a line.
const ASSIGNMENT = new RegExp(
  String.raw`(?<![\w.$-])(?=[\w.-]{0,80}?(?:pass|pwd|secret|token|key|cred|auth|sig))([A-Za-z_][\w.-]{0,80})(\\?["'])?([ \t]*(?::=|=>|[:=])[ \t]*)(?:(\\?")([^"\\\r\n]*)\\?"|'([^'\r\n]*)'|([^\s"'\x60,;&<>(){}\[\]\\]+))`,
  "gi",
);

const assignment: Replacer = (
  match: string,
  name: string,
  _keyQuote: string | undefined,
  _sep: string,
  _dqOpen: string | undefined,
  dq: string | undefined,
  sq: string | undefined,
  bare: string | undefined,
  offset: number,
  whole: string,
) => {
  if (!isSecretName(name)) return match;
  const value = dq ?? sq ?? bare ?? "";
  const quoted = bare === undefined;
  if (!quoted) {
    const end = offset + match.length;
    if (whole.charCodeAt(end) === 40 /* ( */) return match; // a call: getToken(), os.Getenv("X")
    if (whole.startsWith(REDACTED, end)) return match; // already masked by a format rule
  }
  if (!looksLikeSecretValue(value, quoted, isEnvStyleName(name))) return match;
  const closing = dq !== undefined ? (match.endsWith('\\"') ? 2 : 1) : sq !== undefined ? 1 : 0;
  const valueStart = match.length - closing - value.length;
  return match.slice(0, valueStart) + REDACTED + match.slice(valueStart + value.length);
};

export const RULES: Rule[] = [
  // scheme://user:password@host → scheme://user:[REDACTED]@host. Anchored on the literal
  // "://" (the scheme is checked behind it) so the scan does not start at every word.
  {
    pattern: /:\/\/(?<=[A-Za-z][A-Za-z0-9+.-]{0,20}:\/\/)([^\s:/?#@"'<>]*):([^\s/?#@"'<>]+)@/g,
    replace: (match: string, user: string, password: string) =>
      password === REDACTED || password.startsWith("$") || password.startsWith("{") ? match : `://${user}:${REDACTED}@`,
  },
  // Anthropic, OpenAI (sk-, sk-proj-, sk-svcacct-, sk-admin-), OpenRouter.
  {
    pattern: /\b(sk-(?:ant-(?:api\d\d-|admin\d\d-|oat\d\d-)?|proj-|or-v\d-|or-|svcacct-|admin-)?)([A-Za-z0-9_-]{20,})/g,
    replace: prefixed(randomish),
  },
  // Google API keys and OAuth access tokens.
  { pattern: /\b(AIza)([0-9A-Za-z_-]{35})(?![0-9A-Za-z_-])/g, replace: prefixed() },
  { pattern: /\b(ya29\.)([0-9A-Za-z_-]{20,})/g, replace: prefixed() },
  // GitHub classic and fine-grained tokens; GitLab personal access tokens.
  { pattern: /\b(gh[pousr]_)([A-Za-z0-9]{30,})/g, replace: prefixed() },
  { pattern: /\b(github_pat_)([A-Za-z0-9_]{22,})/g, replace: prefixed() },
  { pattern: /\b(glpat-)([A-Za-z0-9_-]{20,})/g, replace: prefixed() },
  // Slack tokens and incoming webhooks.
  { pattern: /\b(xox[abprse]-)([A-Za-z0-9-]{10,})/g, replace: prefixed(randomish) },
  { pattern: /(hooks\.slack\.com\/(?:services|workflows)\/)([A-Za-z0-9/_-]{20,})/g, replace: prefixed() },
  // Stripe live/test secret and restricted keys.
  { pattern: /\b([sr]k_(?:live|test)_)([A-Za-z0-9]{16,})/g, replace: prefixed() },
  // AWS access key ids.
  { pattern: /\b(AKIA|ASIA)([0-9A-Z]{16})\b/g, replace: prefixed() },
  // Hugging Face user and org tokens.
  { pattern: /\b(hf_|api_org_)([A-Za-z0-9]{30,})/g, replace: prefixed(randomish) },
  // SendGrid: SG.<id>.<secret>.
  { pattern: /\b(SG\.)([A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64})/g, replace: prefixed() },
  // Telegram bot tokens: <bot id>:AA<35>.
  { pattern: /\b(\d{8,10}:)(AA[A-Za-z0-9_-]{33})(?![A-Za-z0-9_-])/g, replace: prefixed() },
  // Discord bot tokens: base64(user id).<timestamp>.<hmac>.
  { pattern: /\b[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}\b/g, replace: REDACTED },
  // Microsoft Entra (Azure AD) client secrets: 3 chars, a digit, "Q~", then 31-34.
  { pattern: /(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.-]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])/g, replace: REDACTED },
  // Azure storage / Service Bus connection strings and SAS signatures.
  { pattern: /((?:AccountKey|SharedAccessKey|SharedSecretValue)=)([A-Za-z0-9+/]{16,}={0,2})/g, replace: `$1${REDACTED}` },
  { pattern: /([?&](?:amp;)?sig=)([A-Za-z0-9%+/=]{16,})/gi, replace: `$1${REDACTED}` },
  // Discord webhooks: /api/webhooks/<id>/<token>.
  { pattern: /(discord(?:app)?\.com\/api\/webhooks\/\d{5,30}\/)([A-Za-z0-9_-]{20,})/g, replace: prefixed() },
  // Sentry DSN: the public key before "@o<n>.ingest.sentry.io" (the URL is kept).
  { pattern: /(:\/\/)([a-f0-9]{32})(?=(?::[a-f0-9]{32})?@[\w.-]{0,40}sentry)/g, replace: `$1${REDACTED}` },
  // Okta API tokens: "SSWS 00…" in a header, or a bare 42-character "00…" token.
  { pattern: /\b(SSWS[ \t]+)([A-Za-z0-9_-]{20,})/g, replace: `$1${REDACTED}` },
  { pattern: /\b(00)([A-Za-z0-9_-]{40})(?![A-Za-z0-9_-])/g, replace: prefixed((body) => /[a-z]/.test(body) && /[A-Z]/.test(body) && /[0-9]/.test(body)) },
  // Google OAuth refresh tokens: "1//0" then a long body.
  { pattern: /(?<![\w/])(1\/\/0)([A-Za-z0-9_-]{30,})/g, replace: prefixed() },
  // GCP service-account key id (the name ends in "id", which the generic rule treats as harmless).
  { pattern: /(["']?private_key_id["']?[ \t]*[:=][ \t]*["']?)([a-f0-9]{40})\b/g, replace: `$1${REDACTED}` },
  // netrc: machine <host> [login <user>] password <secret>.
  { pattern: /\b(machine[ \t]+\S+(?:[ \t]+login[ \t]+\S+)?[ \t]+password[ \t]+)([^\s$]+)/g, replace: (m: string, head: string, v: string) => (v === REDACTED ? m : `${head}${REDACTED}`) },
  // Other vendors with a recognisable prefix.
  ...PREFIXED_TOKENS.map(([prefix, body]): Rule => ({ pattern: new RegExp(String.raw`\b(${prefix})(${body})`, "g"), replace: prefixed() })),
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
  // Bearer / Basic credentials elsewhere ("Bearer abc…" in a log line or error message),
  // also with the value wrapped onto the next line.
  {
    pattern: /\b(bearer(?:[ \t]+|[ \t]*\r?\n[ \t]*))([A-Za-z0-9._~+/-]{16,}=*)/gi,
    replace: (match: string, head: string, value: string) => (/[0-9]/.test(value) ? `${head}${REDACTED}` : match),
  },
  {
    pattern: /\b(Basic[ \t]+)([A-Za-z0-9+/]{12,}={0,2})(?![A-Za-z0-9+/=])/g,
    replace: (match: string, head: string, value: string) => (/^[\x20-\x7e]+:[\x20-\x7e]+$/.test(Buffer.from(value, "base64").toString("latin1")) ? `${head}${REDACTED}` : match),
  },
  // Cookie headers: values of a random look (session ids) are credentials; `theme=dark` stays.
  {
    pattern: /\b((?:Set-)?Cookie[ \t]*:[ \t]*)([^\r\n]{1,4096})/gi,
    replace: (_match: string, head: string, body: string) =>
      `${head}${body.replace(/(^|;[ \t]*)([^=;\s]{1,128}=)([^;\s]{16,})/g, (pair: string, lead: string, name: string, value: string) => (randomish(value) && value !== REDACTED ? `${lead}${name}${REDACTED}` : pair))}`,
  },
  // URL-encoded "Basic " / "Bearer " credentials (a header echoed inside a URL or a log).
  { pattern: /(?<![A-Za-z])((?:Basic|Bearer)(?:%20|\+))([A-Za-z0-9._~+/-]{12,}(?:=|%3D){0,2})/gi, replace: `$1${REDACTED}` },
  // curl -u user:password, --user user:password (the user is kept).
  {
    pattern: /((?:^|\s)(?:-u|--user|--proxy-user)[ \t=]+["']?[^\s:"']+:)([^\s"'@]+)/g,
    replace: (match: string, head: string, password: string) => (password === REDACTED || isReference(password) ? match : `${head}${REDACTED}`),
  },
  // `sshpass -p PASS`, `docker login -u me -p PASS`, `az login … -p SECRET`: -p is the password there.
  { pattern: /(\b(?:sshpass|(?:docker|podman|buildah|skopeo|oras|nerdctl|helm registry|az|cf|oc) login)\b[^\n|;&]{0,200}?\s-p[ \t]+)("[^"\n]*"|'[^'\n]*'|[^\s"'|;&<>$]+)/g, replace: (match: string, head: string, value: string) => (value.includes(REDACTED) ? match : `${head}${REDACTED}`) },
  // Password hashes (htpasswd, shadow, bcrypt): crackable offline.
  { pattern: /(\$(?:apr1|2[aby]|5|6|y|gy|7)\$)([./A-Za-z0-9$]{20,})/g, replace: `$1${REDACTED}` },
  // mysql -pPASSWORD (no space: the password is glued to the flag).
  { pattern: /(\bmysql(?:dump|admin|import|sh)?\b[^\n|;&]{0,200}?\s-p)([^\s"'$]+)/g, replace: `$1${REDACTED}` },
  // Generic secret flags and assignments: CLI, JSON, YAML, env files, query strings, code.
  { pattern: SECRET_FLAG, replace: flag },
  { pattern: ASSIGNMENT, replace: assignment },
  { pattern: NAME_SPACE_VALUE, replace: nameSpaceValue },
];
