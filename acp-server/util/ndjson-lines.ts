// Splits a byte stream (Hermes's stdin; a child agent's stdout; Hermes's, read by the editor
// extension) into newline-delimited frames with a size limit, in linear time and bounded
// memory. A frame is kept as the list of chunk slices it arrived in and joined once, at its
// newline; only the new chunk is scanned for '\n'. A frame that grows past the limit is
// skipped: the splitter only looks for the next '\n' and keeps just its first and last
// bytes (so the caller can recover a request id that some clients write last), however
// long the line turns out to be; it is reported once, when it ends.

export const MB = 1024 * 1024;
/** How much of an oversized frame's start and end is kept to look for its id. */
export const OVERSIZE_HEAD_BYTES = 4096;
export const OVERSIZE_TAIL_BYTES = 1024;

export type FrameEvent =
  | { kind: "line"; text: string }
  /** A frame over the limit, skipped: `head` and `tail` are its first and last bytes. */
  | { kind: "oversize"; head: string; tail: string; limitBytes: number };

export class FrameSplitter {
  private parts: Buffer[] = [];
  private length = 0;
  private discarding = false;
  private head = Buffer.alloc(0);
  private tail = Buffer.alloc(0);

  /** `maxBytes` is read at each chunk, so the limit can change once config is loaded. */
  constructor(private readonly maxBytes: () => number) {}

  /** Bytes held for the current (unfinished) frame. */
  get buffered(): number {
    return this.length;
  }

  push(chunk: Buffer, emit: (event: FrameEvent) => void): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      const end = newline === -1 ? chunk.length : newline;
      if (this.discarding) {
        this.keepTail(chunk.subarray(start, end));
        if (newline !== -1) this.finishDiscard(emit);
      } else if (this.length + (end - start) > this.maxBytes()) {
        this.overflow(chunk.subarray(start, end));
        if (newline !== -1) this.finishDiscard(emit);
      } else if (newline === -1) {
        this.parts.push(chunk.subarray(start));
        this.length += chunk.length - start;
      } else {
        this.parts.push(chunk.subarray(start, end));
        this.length += end - start;
        this.takeLine(emit);
      }
      if (newline === -1) return;
      start = newline + 1;
    }
  }

  /** End of input: a last frame without a newline still counts. */
  end(emit: (event: FrameEvent) => void): void {
    if (this.discarding) this.finishDiscard(emit);
    else if (this.length > 0) this.takeLine(emit);
  }

  private takeLine(emit: (event: FrameEvent) => void): void {
    const bytes = this.parts.length === 1 && this.parts[0] ? this.parts[0] : Buffer.concat(this.parts, this.length);
    this.parts = [];
    this.length = 0;
    let text = bytes.toString("utf8");
    if (text.endsWith("\r")) text = text.slice(0, -1);
    if (text.trim() !== "") emit({ kind: "line", text });
  }

  private overflow(tail: Buffer): void {
    const headParts: Buffer[] = [];
    let headLength = 0;
    for (const part of [...this.parts, tail]) {
      if (headLength >= OVERSIZE_HEAD_BYTES) break;
      const piece = part.subarray(0, OVERSIZE_HEAD_BYTES - headLength);
      headParts.push(piece);
      headLength += piece.length;
    }
    this.head = Buffer.concat(headParts);
    this.tail = Buffer.alloc(0);
    this.keepTail(tail);
    this.parts = [];
    this.length = 0;
    this.discarding = true;
  }

  /** The last OVERSIZE_TAIL_BYTES seen (copies at most twice that per chunk: still linear). */
  private keepTail(bytes: Buffer): void {
    if (bytes.length >= OVERSIZE_TAIL_BYTES) this.tail = Buffer.from(bytes.subarray(bytes.length - OVERSIZE_TAIL_BYTES));
    else if (bytes.length > 0) this.tail = Buffer.concat([this.tail, bytes]).subarray(-OVERSIZE_TAIL_BYTES);
  }

  private finishDiscard(emit: (event: FrameEvent) => void): void {
    const event: FrameEvent = { kind: "oversize", head: this.head.toString("utf8"), tail: this.tail.toString("utf8").replace(/\r$/, ""), limitBytes: this.maxBytes() };
    this.discarding = false;
    this.head = Buffer.alloc(0);
    this.tail = Buffer.alloc(0);
    emit(event);
  }
}
