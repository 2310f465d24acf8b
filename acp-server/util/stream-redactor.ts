// Redacts text that arrives in pieces (a streamed model reply). A secret can be split
// across two deltas ("ghp_abc" + "def…"), and neither half matches a rule, so a bounded
// tail that could still become (part of) a secret is held back until the next delta or
// the end of the stream:
//   - the last, unfinished word (a token has no whitespace);
//   - the last two words when they are credential context whose value may be the next word
//     ("Authorization: Bearer", "password =", "--token", "-u"), and the whole line while a
//     quoted value after "=" or ":" is still open (`DB_PASSWORD="correct horse`);
//   - from an unterminated "-----BEGIN … PRIVATE KEY-----" on, until its END line;
//   - from a line whose value continues on the next lines ("Bearer" at a line end, a YAML
//     block scalar "key: |", a PuTTY "Private-Lines: N") while that block may still go on.
// The hold is bounded (MAX_HOLD characters): past it the text goes out redacted as it is,
// so a reply without whitespace cannot stall the stream.
import { redactSecrets } from "./redact";
import { isSecretName } from "./secret-names";

const MAX_HOLD = 8_192;
/** Line endings after which the next word may be a credential (the value of this context). */
const CONTEXT_END = /(?:authorization|bearer|basic|token|tokens|password|passwd|pwd|pass|secret|key|apikey|credentials?|auth)\W{0,3}\s*$|[:=]\s*["']?\s*$|(?:^|\s)(?:-u|--user|-p|--password|--token|--api-key|--secret)\s*$/i;
/** Commands whose password is glued to a flag later on the line (`mysql -u root -pSECRET`). */
const LINE_CONTEXT = /\bmysql(?:dump|admin|import|sh)?\b/;
/** A quoted value opened after "=" or ":" and not closed yet on this line. */
const OPEN_QUOTE = /[:=]\s*(["'])[^"'\n]*$/;

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
  const line = text.slice(lineStart, cut);
  if (OPEN_QUOTE.test(line) || LINE_CONTEXT.test(line)) return Math.min(cut, lineStart);
  const lastTwo = Math.max(lineStart, wordStart(text, wordStart(text, cut)));
  if (CONTEXT_END.test(text.slice(lastTwo, cut))) cut = Math.min(cut, lastTwo);
  return Math.min(cut, openBlockStart(text, cut));
}

/** A line after which the value continues on the following lines. */
const BLOCK_OPENER = /(?:\bbearer|([A-Za-z_][\w.-]{0,80})["']?[ \t]*:[ \t]*[|>][-+0-9]{0,2}|Private-Lines:[ \t]*(\d{1,3}))[ \t]*\r?$/i;
const BLOCK_LOOKBACK = 64;

/**
 * Where a still-open multi-line value starts, else `cut`: "Authorization: Bearer" with the
 * token not yet on the next line, a YAML block scalar ("api_key: |") whose indented lines may
 * go on, a PuTTY key whose "Private-Lines: N" lines have not all arrived.
 */
function openBlockStart(text: string, cut: number): number {
  let end = cut;
  let after = 0; // complete lines between the opener candidate and `cut`
  let allIndentedOrBlank = true;
  for (let n = 0; n < BLOCK_LOOKBACK && end > 0; n++) {
    const start = text.lastIndexOf("\n", end - 2) + 1;
    const line = text.slice(start, end).replace(/\n$/, "");
    const complete = text.charCodeAt(end - 1) === 10; // the first segment may end mid-line
    const opener = complete ? BLOCK_OPENER.exec(line) : null;
    if (opener) {
      if (opener[2] !== undefined) return after < Number(opener[2]) ? start : cut;
      if (opener[1] !== undefined && !isSecretName(opener[1])) return cut; // `script: |` is not a secret
      if (/bearer/i.test(opener[0])) return text.slice(end, cut).trim() === "" ? start : cut;
      return allIndentedOrBlank ? start : cut;
    }
    if (line.trim() !== "") {
      if (!/^[ \t]/.test(line)) allIndentedOrBlank = false;
      if (complete) after++;
    }
    if (start === 0) break;
    end = start;
  }
  return cut;
}

/** Where the word ending at or before `end` (trailing whitespace skipped) starts. */
function wordStart(text: string, end: number): number {
  let i = end;
  while (i > 0 && isSpace(text.charCodeAt(i - 1))) i--;
  while (i > 0 && !isSpace(text.charCodeAt(i - 1))) i--;
  return i;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 9 || c === 13;
}

function lastWhitespace(text: string): number {
  for (let i = text.length - 1; i >= 0; i--) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 10 || c === 9 || c === 13) return i;
  }
  return -1;
}
