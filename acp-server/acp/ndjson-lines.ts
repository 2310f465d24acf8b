// Splits stdin into newline-delimited frames with a size limit, in linear time and bounded
// memory. A frame is kept as the list of chunk slices it arrived in and joined once, at its
// newline; only the new chunk is scanned for '\n'. A frame that grows past the limit is
// reported once (with its first bytes, so the caller can recover a request id) and then
// skipped: the splitter only looks for the next '\n' and keeps none of it, however long
// the line turns out to be.

export { DEFAULT_MAX_FRAME_MB } from "../config/frame-limit";
export const MB = 1024 * 1024;
/** How much of an oversized frame is kept to look for its id. */
export const OVERSIZE_HEAD_BYTES = 4096;

export type FrameEvent =
  | { kind: "line"; text: string }
  /** A frame over the limit: `head` is its first bytes; the rest up to its newline is skipped. */
  | { kind: "oversize"; head: string; limitBytes: number };

export class FrameSplitter {
  private parts: Buffer[] = [];
  private length = 0;
  private discarding = false;

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
        if (newline !== -1) this.discarding = false;
      } else if (this.length + (end - start) > this.maxBytes()) {
        this.overflow(chunk.subarray(start, end), emit);
        if (newline !== -1) this.discarding = false;
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
    if (!this.discarding && this.length > 0) this.takeLine(emit);
    this.discarding = false;
  }

  private takeLine(emit: (event: FrameEvent) => void): void {
    const bytes = this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts, this.length);
    this.parts = [];
    this.length = 0;
    let text = bytes.toString("utf8");
    if (text.endsWith("\r")) text = text.slice(0, -1);
    if (text.trim() !== "") emit({ kind: "line", text });
  }

  private overflow(tail: Buffer, emit: (event: FrameEvent) => void): void {
    const headParts: Buffer[] = [];
    let headLength = 0;
    for (const part of [...this.parts, tail]) {
      if (headLength >= OVERSIZE_HEAD_BYTES) break;
      const piece = part.subarray(0, OVERSIZE_HEAD_BYTES - headLength);
      headParts.push(piece);
      headLength += piece.length;
    }
    this.parts = [];
    this.length = 0;
    this.discarding = true;
    emit({ kind: "oversize", head: Buffer.concat(headParts).toString("utf8"), limitBytes: this.maxBytes() });
  }
}
