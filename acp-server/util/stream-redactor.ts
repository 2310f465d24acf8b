// Redacts text that arrives in pieces (a streamed model reply). A secret can be split
// across two deltas ("ghp_abc" + "def…"), and neither half matches a rule, so a bounded
// tail that could still become (part of) a secret is held back until the next delta or
// the end of the stream:
//   - the last, unfinished word (a token has no whitespace);
//   - the whole last line when it carries credential context ("Authorization: Bearer",
//     "password =", "--token", "-u user:") whose value may be the next word;
//   - from an unterminated "-----BEGIN … PRIVATE KEY-----" on, until its END line.
// The hold is bounded (MAX_HOLD characters): past it the text goes out redacted as it is,
// so a reply without whitespace cannot stall the stream.
import { redactSecrets } from "./redact";

const MAX_HOLD = 8_192;
/** Words after which, on the same line, the next word may be a credential. */
const CONTEXT = /pass|pwd|secret|token|key|cred|auth|bearer|basic|sig=|-u\b|--user|:\/\/|mysql/i;

export class StreamRedactor {
  private pending = "";

  /** Adds a piece; returns the redacted text that is now safe to show (possibly ""). */
  push(piece: string): string {
    if (!piece) return "";
    this.pending += piece;
    const cut = this.pending.length > MAX_HOLD ? this.boundedCut() : safeCut(this.pending);
    if (cut <= 0) return "";
    const ready = this.pending.slice(0, cut);
    this.pending = this.pending.slice(cut);
    return redactSecrets(ready);
  }

  /** The end of the stream: everything still held, redacted. */
  end(): string {
    const rest = this.pending;
    this.pending = "";
    return rest ? redactSecrets(rest) : "";
  }

  /** Over the bound: release up to the last whitespace, or everything. */
  private boundedCut(): number {
    const space = lastWhitespace(this.pending);
    return space > 0 ? space + 1 : this.pending.length;
  }
}

/** How much of `text` can be redacted and shown now without splitting a possible secret. */
function safeCut(text: string): number {
  let cut = lastWhitespace(text) + 1; // hold the unfinished last word
  const begin = text.lastIndexOf("-----BEGIN");
  if (begin >= 0 && text.indexOf("-----END", begin) < 0) cut = Math.min(cut, begin);
  // A partial "-----BEG" at the very end is an unfinished word and already held.
  const lineStart = text.lastIndexOf("\n", cut - 1) + 1;
  if (CONTEXT.test(text.slice(lineStart, cut))) cut = Math.min(cut, lineStart);
  return cut;
}

function lastWhitespace(text: string): number {
  for (let i = text.length - 1; i >= 0; i--) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 10 || c === 9 || c === 13) return i;
  }
  return -1;
}
