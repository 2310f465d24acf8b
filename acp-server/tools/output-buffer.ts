// Capped output accumulators. Command output can be unbounded (a chatty build, a
// server left running), but what matters is usually at the start (what ran, the first
// error) and at the end (the summary, the last error). So both keep a head and a tail
// and drop the middle, saying explicitly how much was dropped.
//
// Cuts never leave a fragment of a word: a token cut in half ("ghp_AbC…" | "…xyz") no longer
// matches any redaction rule, so the partial word on each side of a cut is dropped with the
// middle (up to WORD_LIMIT characters; a longer "word" is not a credential format we know).

/** Accumulates a byte stream, keeping the first `headRatio` of `limit` bytes and the last rest. */
export class OutputBuffer {
  private readonly headLimit: number;
  private readonly tailLimit: number;
  private head: Buffer[] = [];
  private headBytes = 0;
  /** Chunks after the head; trimmed from the front so at most tailLimit bytes stay. */
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private total = 0;

  constructor(
    readonly limit: number,
    headRatio = 0.5,
  ) {
    if (!(limit > 0)) throw new RangeError("OutputBuffer limit must be positive");
    const ratio = Math.min(1, Math.max(0, headRatio));
    this.headLimit = Math.floor(limit * ratio);
    this.tailLimit = limit - this.headLimit;
  }

  append(chunk: string | Buffer): void {
    let bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
    if (bytes.length === 0) return;
    this.total += bytes.length;
    if (this.headBytes < this.headLimit) {
      const take = Math.min(this.headLimit - this.headBytes, bytes.length);
      this.head.push(bytes.subarray(0, take));
      this.headBytes += take;
      bytes = bytes.subarray(take);
      if (bytes.length === 0) return;
    }
    // Copy so a huge chunk does not keep its whole backing memory alive.
    this.tail.push(bytes.length > this.tailLimit ? Buffer.from(bytes.subarray(bytes.length - this.tailLimit)) : bytes);
    this.tailBytes += Math.min(bytes.length, this.tailLimit);
    this.trimTail();
  }

  /** Bytes appended so far (including dropped ones). */
  get totalBytes(): number {
    return this.total;
  }

  get truncated(): boolean {
    return this.total > this.headBytes + this.tailBytes;
  }

  /** The kept text, with a marker where the middle was dropped. */
  text(): string {
    const head = Buffer.concat(this.head);
    const tail = Buffer.concat(this.tail);
    if (!this.truncated) return Buffer.concat([head, tail]).toString("utf8");
    // The cut points may fall inside a multi-byte character: drop the partial bytes
    // rather than show replacement characters, and count them as omitted.
    const headText = wholeWordsBefore(head.subarray(0, completeUtf8Prefix(head)).toString("utf8"));
    const tailText = wholeWordsAfter(tail.subarray(firstCharBoundary(tail)).toString("utf8"));
    const omitted = this.total - Buffer.byteLength(headText) - Buffer.byteLength(tailText);
    return headText + omissionMarker(omitted, "bytes") + tailText;
  }

  private trimTail(): void {
    for (let first = this.tail[0]; first && this.tailBytes > this.tailLimit; first = this.tail[0]) {
      const excess = this.tailBytes - this.tailLimit;
      if (first.length <= excess) {
        this.tail.shift();
        this.tailBytes -= first.length;
      } else {
        this.tail[0] = first.subarray(excess);
        this.tailBytes -= excess;
      }
    }
  }
}

export interface Truncated {
  text: string;
  truncated: boolean;
}

/**
 * Caps a string at `maxChars`, keeping `headRatio` of it from the start and the rest
 * from the end (use a small ratio when the end matters most, e.g. a running server).
 */
export function truncateMiddle(text: string, maxChars: number, headRatio = 0.5): Truncated {
  if (text.length <= maxChars) return { text, truncated: false };
  let headEnd = Math.floor(maxChars * Math.min(1, Math.max(0, headRatio)));
  let tailStart = text.length - (maxChars - headEnd);
  // Never split a surrogate pair.
  if (headEnd > 0 && isHighSurrogate(text.charCodeAt(headEnd - 1))) headEnd--;
  if (tailStart < text.length && isLowSurrogate(text.charCodeAt(tailStart))) tailStart++;
  const head = isSpace(text.charCodeAt(headEnd)) ? text.slice(0, headEnd) : wholeWordsBefore(text.slice(0, headEnd));
  const tail = isSpace(text.charCodeAt(tailStart - 1)) ? text.slice(tailStart) : wholeWordsAfter(text.slice(tailStart));
  const omitted = text.length - head.length - tail.length;
  return { text: head + omissionMarker(omitted, "characters") + tail, truncated: true };
}

/** The last `maxChars` of a string (for live previews), without splitting a surrogate pair. */
export function tailOf(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let start = text.length - maxChars;
  if (isLowSurrogate(text.charCodeAt(start))) start++;
  return isSpace(text.charCodeAt(start - 1)) ? text.slice(start) : wholeWordsAfter(text.slice(start));
}

/** Longest "word" dropped at a cut; longer runs are kept as they are. */
const WORD_LIMIT = 1_024;
/** A shorter fragment carries too little of any credential to matter (and keeps short outputs whole). */
const FRAGMENT_MIN = 8;

function isSpace(code: number): boolean {
  return code === 32 || code === 10 || code === 9 || code === 13;
}

/** `head` without its last word when that word may continue past the cut. */
function wholeWordsBefore(head: string): string {
  if (head.length === 0 || isSpace(head.charCodeAt(head.length - 1))) return head;
  for (let i = head.length - 1; i >= Math.max(0, head.length - WORD_LIMIT); i--) {
    if (isSpace(head.charCodeAt(i))) return head.length - i - 1 < FRAGMENT_MIN ? head : head.slice(0, i + 1);
  }
  return head.length < FRAGMENT_MIN || head.length > WORD_LIMIT ? head : "";
}

/** `tail` without its first word when that word may have started before the cut. */
function wholeWordsAfter(tail: string): string {
  if (tail.length === 0 || isSpace(tail.charCodeAt(0))) return tail;
  const limit = Math.min(tail.length, WORD_LIMIT);
  for (let i = 0; i < limit; i++) {
    if (isSpace(tail.charCodeAt(i))) return i < FRAGMENT_MIN ? tail : tail.slice(i);
  }
  return tail.length < FRAGMENT_MIN || tail.length > WORD_LIMIT ? tail : "";
}

function omissionMarker(count: number, unit: string): string {
  return `\n[... ${count} ${unit} omitted ...]\n`;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Length of the longest prefix of `bytes` that ends on a complete UTF-8 character. */
function completeUtf8Prefix(bytes: Buffer): number {
  // Walk back over at most 3 continuation bytes to the lead byte of the last character.
  let i = bytes.length - 1;
  let continuation = 0;
  while (i >= 0 && continuation < 3 && ((bytes[i] ?? 0) & 0xc0) === 0x80) {
    i--;
    continuation++;
  }
  if (i < 0) return bytes.length;
  const lead = bytes[i] ?? 0;
  const needed = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return needed > continuation + 1 ? i : bytes.length;
}

/** Index of the first byte that starts a character (skips leading continuation bytes). */
function firstCharBoundary(bytes: Buffer): number {
  let i = 0;
  while (i < bytes.length && i < 3 && ((bytes[i] ?? 0) & 0xc0) === 0x80) i++;
  return i;
}
