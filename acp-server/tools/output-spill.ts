// The whole output of a local command, spilled to a file as it arrives: the model gets its head
// and tail (OUTPUT_LIMIT) and the card less still, but nothing is lost. The file sits in the
// session's temp folder (security/sandbox/temp-dir.ts), so it goes when that folder does (the
// process exits); its path travels in the tool call's `_meta["hermes/fullOutput"]` for a
// client's "Show all". Written redacted (a stream redactor: a secret split across two chunks is
// still caught), with synchronous appends in arrival order; capped so a runaway command cannot
// fill the disk.
import { closeSync, mkdirSync, openSync, rmSync, writeSync } from "node:fs";
import path from "node:path";
import { sessionTempDir } from "../security/sandbox/temp-dir";
import { StreamRedactor } from "../util/stream-redactor";

/** Most bytes kept of one command's output. */
export const SPILL_LIMIT_BYTES = 64 * 1024 * 1024;

/** Where the spilled file is, and how much it holds (the `_meta["hermes/fullOutput"]` value). */
export interface FullOutput {
  path: string;
  bytes: number;
}

export class OutputSpill {
  private readonly redactor = new StreamRedactor();
  private bytes = 0;
  private full = false;
  private fd: number | undefined;

  private constructor(
    readonly path: string,
    fd: number,
    private readonly limit: number,
  ) {
    this.fd = fd;
  }

  /** A new spill file for one tool call; undefined when the folder or file cannot be made (the card keeps its tail). */
  static open(sessionId: string, toolCallId: string, limit = SPILL_LIMIT_BYTES): OutputSpill | undefined {
    try {
      const dir = path.join(sessionTempDir(sessionId), "hermes-output");
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const file = path.join(dir, `${toolCallId.replace(/[^\w.-]/g, "_").slice(0, 80) || "call"}-${Date.now()}.log`);
      // "wx": never through something already there (the temp folder is writable by sandboxed commands).
      return new OutputSpill(file, openSync(file, "wx", 0o600), limit);
    } catch {
      // expected: no spill file (temp folder unwritable): the command still runs, and the model gets the capped output
      return undefined;
    }
  }

  write(chunk: string): void {
    this.append(this.redactor.push(chunk));
  }

  /** The command is done: what the redactor held back is written and the file closed. */
  finish(): FullOutput {
    this.append(this.redactor.end());
    this.close();
    return { path: this.path, bytes: this.bytes };
  }

  /** Not needed after all (the card shows the whole output): the file goes. */
  discard(): void {
    this.close();
    rmSync(this.path, { force: true });
  }

  private append(text: string): void {
    if (!text || this.fd === undefined || this.full) return;
    let data = Buffer.from(text, "utf8");
    if (this.bytes + data.length > this.limit) {
      data = Buffer.concat([data.subarray(0, Math.max(0, this.limit - this.bytes)), Buffer.from(`\n[... output past ${Math.round(this.limit / 1048576)} MB was not kept ...]\n`)]);
      this.full = true;
    }
    try {
      writeSync(this.fd, data);
      this.bytes += data.length;
    } catch {
      // expected: a full disk stops the spill, never the command
      this.full = true;
    }
  }

  private close(): void {
    if (this.fd === undefined) return;
    try {
      closeSync(this.fd);
    } catch {
      // expected: the descriptor is already closed
    }
    this.fd = undefined;
  }
}
