// THE check on what a tool sends out of the machine (web_fetch's URL, web_search's query, an MCP
// tool's arguments; the browser and code execution when they come): does it carry a secret the
// session has seen (security/seen-secrets.ts) or one of Hermes's own keys (util/secret-values.ts),
// in any spelling? A match asks the user in every mode, dont_ask and plan included, naming the
// secret (never its value); the answer covers this one request and is never remembered.
//
// Spellings covered, each inside any of the decoded views of security/outbound-views.ts
// (percent-encoding, escapes, base64 runs, nested up to three layers):
//   - the value as is, reversed (in any letter case when it has 16 letters and digits or more);
//   - base64 of the value or of its reverse (standard or url-safe, padded or not, at any of the
//     three byte alignments inside a larger encoded blob);
//   - hex of the value or of its reverse, any letter case;
//   - any of these split into parts sent in order (security/split-secret-match.ts).
// Values shorter than 8 characters are not registered at all (too close to ordinary words), and
// those under 12 letters and digits are looked for whole, not split.
import { base64Core, knownSecretValues } from "../util/secret-values";
import { outboundViews } from "./outbound-views";
import type { PolicyAsk } from "./policy-ask";
import { coversInParts, MIN_SPLIT_SECRET, wordCharacters, wordText, type WordText } from "./split-secret-match";

export interface NamedSecret {
  value: string;
  /** What the user is told: "OPENAI_API_KEY", "API_TOKEN (read by read_file)". Never the value. */
  name: string;
}

export interface OutboundFinding {
  name: string;
  /** How it was spelled: "as is", "base64", "hex, split into parts"… */
  spelling: string;
}

/** One spelling of a secret: looked for whole in every view, and split when it is long enough. */
interface Form {
  text: string;
  words: string;
  spelling: string;
  /** Hex, and long values: compared without regard to letter case. */
  anyCase: boolean;
}

/** Letters and digits a value needs before it is matched in any letter case. */
const MIN_CASE_FOLDED = 16;

const formsByValue = new Map<string, Form[]>();
const MAX_REMEMBERED_FORMS = 1024;

function formsOf(value: string): Form[] {
  let forms = formsByValue.get(value);
  if (forms === undefined) {
    if (formsByValue.size >= MAX_REMEMBERED_FORMS) formsByValue.clear();
    formsByValue.set(value, (forms = spellingsOf(value)));
  }
  return forms;
}

function spellingsOf(value: string): Form[] {
  const reversed = [...value].reverse().join("");
  const forms: Form[] = [];
  const add = (text: string, spelling: string, anyCase = false) => {
    const form = anyCase ? text.toLowerCase() : text;
    if (form.length >= 8 && !forms.some((known) => known.text === form)) forms.push({ text: form, words: wordCharacters(form), spelling, anyCase });
  };
  // A long value is matched in any letter case: a host name is case-folded on the way (a DNS
  // label carries a secret lowercased), and lowercased it still gives away nearly all of it.
  // Short ones keep their case: "Summer2024" must not match every "summer2024".
  const foldCase = wordCharacters(value).length >= MIN_CASE_FOLDED;
  add(value, "as is", foldCase);
  add(reversed, "reversed", foldCase);
  for (const [text, label] of [[value, "base64"], [reversed, "reversed, base64"]] as const) {
    const bytes = Buffer.from(text, "utf8");
    for (const pad of [0, 1, 2]) {
      const core = base64Core(bytes, pad);
      add(core, label);
      add(core.replace(/\+/g, "-").replace(/\//g, "_"), label);
    }
  }
  add(Buffer.from(value, "utf8").toString("hex"), "hex", true);
  add(Buffer.from(reversed, "utf8").toString("hex"), "reversed, hex", true);
  return forms;
}

/** A view of the outbound text, ready for both searches. */
interface PreparedView {
  text: string;
  lower: string;
  words: WordText;
  lowerWords: WordText;
  decoded: boolean;
}

function prepare(text: string, decoded: boolean): PreparedView {
  const lower = text.toLowerCase();
  return { text, lower, words: wordText(text), lowerWords: wordText(lower), decoded };
}

/** Which of `secrets` the texts carry (all of them together, in order, as one request). */
export function findOutboundSecrets(texts: readonly string[], secrets: readonly NamedSecret[]): OutboundFinding[] {
  if (secrets.length === 0) return [];
  const views = outboundViews(texts.join("\n")).map((view, index) => prepare(view, index > 0));
  const found: OutboundFinding[] = [];
  for (const secret of secrets) {
    const spelling = spellingIn(views, formsOf(secret.value));
    if (spelling !== undefined) found.push({ name: secret.name, spelling });
  }
  return found;
}

function spellingIn(views: readonly PreparedView[], forms: readonly Form[]): string | undefined {
  for (const view of views) {
    for (const form of forms) {
      const whole = form.anyCase ? view.lower.includes(form.text) : view.text.includes(form.text);
      const split = !whole && form.words.length >= MIN_SPLIT_SECRET && coversInParts(form.anyCase ? view.lowerWords : view.words, form.words);
      if (whole || split) return [form.spelling, ...(split ? ["split into parts"] : []), ...(view.decoded ? ["encoded"] : [])].join(", ");
    }
  }
  return undefined;
}

/** The session's secrets and Hermes's own keys, each value once (the session's name wins: it says where it was read). */
export function secretsToCheck(seen: readonly NamedSecret[] = []): NamedSecret[] {
  const byValue = new Map<string, NamedSecret>();
  for (const secret of [...seen, ...knownSecretValues()]) if (!byValue.has(secret.value)) byValue.set(secret.value, secret);
  return [...byValue.values()];
}

/** What an outbound tool hands the check. */
export interface OutboundRequest {
  /** The tool, for the prompt: "web_fetch". */
  tool: string;
  /** Where it goes, as the user knows it: a host, a search service, an MCP server. Never the URL (it may hold the secret). */
  destination: string;
  /** Everything that leaves: URL, headers, body, query, arguments (strings of a structure: see stringsOf). */
  texts: readonly string[];
}

/** The narrow part of a tool's context the check uses (tools/context.ts's ToolContext fits). */
export interface OutboundAsker {
  requestPermission(ask: PolicyAsk & { title: string }): Promise<boolean>;
  secretsSeen?: { list(): readonly NamedSecret[] };
}

/**
 * THE entry point for outbound tools. Returns undefined when the request may go (nothing found,
 * or the user allowed this one), else the refusal the model reads.
 */
export async function checkOutbound(asker: OutboundAsker, request: OutboundRequest): Promise<string | undefined> {
  const findings = findOutboundSecrets(request.texts, secretsToCheck(asker.secretsSeen?.list()));
  if (findings.length === 0) return undefined;
  const names = findings.map((finding) => `${finding.name} (${finding.spelling})`);
  const allowed = await asker.requestPermission({
    action: "other",
    title: `${request.tool} would send ${findings.map((finding) => finding.name).join(", ")} to ${request.destination}`,
    outboundSecret: { names, destination: request.destination },
  });
  return allowed
    ? undefined
    : `The user did not allow sending ${names.join(", ")} to ${request.destination}. Hermes does not send a secret out in any spelling (encoded, reversed, split) without the user's yes.`;
}

/** Every string of a JSON-like value (keys too), in order: an MCP tool's arguments, a request body. */
export function stringsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") out.push(String(value));
  else if (Array.isArray(value)) for (const item of value) stringsOf(item, out);
  else if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      out.push(key);
      stringsOf(item, out);
    }
  }
  return out;
}
