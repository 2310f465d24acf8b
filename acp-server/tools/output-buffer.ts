// Capped output accumulators. Command output can be unbounded (a chatty build, a
// server left running), but what matters is usually at the start (what ran, the first
// error) and at the end (the summary, the last error). So both keep a head and a tail
// and drop the middle, saying explicitly how much was dropped.

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
    const headEnd = completeUtf8Prefix(head);
    const tailStart = firstCharBoundary(tail);
    const omitted = this.total - headEnd - (tail.length - tailStart);
    return (
      head.subarray(0, headEnd).toString("utf8") +
      omissionMarker(omitted, "bytes") +
      tail.subarray(tailStart).toString("utf8")
    );
  }

  private trimTail(): void {
    while (this.tailBytes > this.tailLimit && this.tail.length > 0) {
      const excess = this.tailBytes - this.tailLimit;
      const first = this.tail[0];
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
  const omitted = tailStart - headEnd;
  return { text: text.slice(0, headEnd) + omissionMarker(omitted, "characters") + text.slice(tailStart), truncated: true };
}

/** The last `maxChars` of a string (for live previews), without splitting a surrogate pair. */
export function tailOf(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let start = text.length - maxChars;
  if (isLowSurrogate(text.charCodeAt(start))) start++;
  return text.slice(start);
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
  while (i >= 0 && continuation < 3 && (bytes[i] & 0xc0) === 0x80) {
    i--;
    continuation++;
  }
  if (i < 0) return bytes.length;
  const lead = bytes[i];
  const needed = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return needed > continuation + 1 ? i : bytes.length;
}

/** Index of the first byte that starts a character (skips leading continuation bytes). */
function firstCharBoundary(bytes: Buffer): number {
  let i = 0;
  while (i < bytes.length && i < 3 && (bytes[i] & 0xc0) === 0x80) i++;
  return i;
}
