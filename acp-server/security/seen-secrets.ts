// The secret values a session has seen: what the redactor masked in its tools' output (a token
// in a .env that read_file returned, a password a command printed). The model got "[REDACTED]"
// in their place, but the tool that read them can read them again in another spelling
// (`base64 .env`, `xxd`, `rev`), and the model can then put that spelling into a URL. So the
// values themselves are kept, in memory only, for the outbound check (outbound-secrets.ts).
//
// The masked values are found by aligning the output with its redacted text: the redactor
// replaces each secret by "[REDACTED]" (keeping a short type prefix before "…" at times), so
// the text between two kept pieces is what it removed.
import { REDACTED } from "../util/secret-names";
import { isDistinctiveSecret } from "../util/secret-values";
import { redactSecrets, mayHoldFormattedSecret } from "../util/redact";
import { decodeTokenEscapes, stripAnsi } from "../util/redact-views";
import type { NamedSecret } from "./outbound-secrets";

/** A session keeps this many values; the oldest are forgotten first. */
const MAX_VALUES = 256;
/** Secrets longer than this are key files or blobs: their encoded forms are searched whole anyway. */
const MAX_VALUE_LENGTH = 4096;

export class SeenSecrets {
  private readonly names = new Map<string, string>();

  /** Remembers the secrets the redactor masks in `output`, a tool's output before redaction. */
  noteOutput(output: string, tool: string): void {
    if (!output || !mayHoldFormattedSecret(output)) return;
    // The redactor masks a key split by colour codes or spelled with \u escapes in the decoded
    // text, so the output is lined up with its redaction in those views too.
    for (const view of new Set([output, stripAnsi(output), decodeTokenEscapes(output)])) {
      for (const found of maskedValues(view, redactSecrets(view))) this.add(found.value, `${found.name} (read by ${tool})`);
    }
  }

  add(value: string, name: string): void {
    if (!isDistinctiveSecret(value) || value.length > MAX_VALUE_LENGTH || this.names.has(value)) return;
    this.names.set(value, name);
    if (this.names.size > MAX_VALUES) this.names.delete(this.names.keys().next().value as string);
  }

  list(): NamedSecret[] {
    return [...this.names].map(([value, name]) => ({ value, name }));
  }
}

/** A name right before a value: `API_TOKEN=`, `"password": "`, `token: `, and JSON-escaped inside a string (`\"api_token\": \"`). */
const NAME_BEFORE = /([A-Za-z_][A-Za-z0-9_.-]{0,63})\\?["']?\s*[:=]\s*\\?["']?$/;
/** The type prefix the redactor keeps ("ghp_…[REDACTED]"): part of the secret as sent. */
const KEPT_PREFIX = /[A-Za-z0-9_.-]*…$/;

/** The values `redacted` masked in `text`, with the name each stood under when there was one. */
export function maskedValues(text: string, redacted: string): NamedSecret[] {
  if (redacted === text || !redacted.includes(REDACTED)) return [];
  const pieces = redacted.split(REDACTED);
  const found: NamedSecret[] = [];
  let at = 0;
  for (let index = 0; index < pieces.length - 1; index++) {
    let kept = pieces[index]!;
    let prefix = "";
    const marked = KEPT_PREFIX.exec(kept);
    if (marked) {
      prefix = marked[0].slice(0, -1);
      kept = kept.slice(0, -marked[0].length);
    }
    const keptAt = text.indexOf(kept, at);
    if (keptAt < 0) break; // a decoded view was masked (ANSI, escapes): the pieces no longer line up
    const start = keptAt + kept.length;
    const following = pieces[index + 1]!;
    // The next kept text (up to its own prefix mark) ends this value; at the end, the text does.
    const nextKept = index + 1 === pieces.length - 1 ? following : following.replace(KEPT_PREFIX, "");
    const end = nextKept === "" ? (index + 1 === pieces.length - 1 ? text.length : -1) : text.indexOf(nextKept, start + prefix.length);
    if (end < 0) break;
    const value = text.slice(start, end).trim().replace(/^["']|["']$/g, "");
    const name = NAME_BEFORE.exec(text.slice(Math.max(0, start - 80), start))?.[1];
    found.push({ value, name: name ?? "a credential" });
    at = end;
  }
  return found;
}
