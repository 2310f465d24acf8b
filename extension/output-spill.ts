// The whole output of every command the agent runs in an editor terminal, spilled to a file as
// it arrives: the panel keeps only the newest ~64 KB, and "Show all" must still show everything.
// One folder per session under the OS temp folder (hermes-<session>/), one file per command,
// written through an append stream (no blocking writes in the extension host). No vscode import.
import { createWriteStream, mkdirSync, type WriteStream } from "node:fs";
import { lstat, realpath } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

interface Spilled {
  file: string;
  stream: WriteStream;
  /** Resolves once everything written so far is on disk. */
  closed?: Promise<void>;
}

export class OutputSpill {
  private readonly files = new Map<string, Spilled>();

  constructor(
    /** The open session, for the folder's name. */
    private readonly sessionId: () => string | null,
    private readonly root = os.tmpdir(),
  ) {}

  /** Starts a command's file (before its first output). */
  open(terminalId: string): void {
    if (this.files.has(terminalId)) return;
    const dir = path.join(this.root, `hermes-${safeName(this.sessionId() ?? "no-session")}`);
    // Terminal ids start over when the extension restarts: a timestamp keeps files apart.
    const file = path.join(dir, `${safeName(terminalId)}-${Date.now()}.log`);
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch {
      return; // no spill without a folder; the card still has the tail
    }
    const stream = createWriteStream(file, { flags: "a", mode: 0o600 });
    // A full disk must not take the extension down: the spill simply stops.
    stream.on("error", () => this.files.delete(terminalId));
    this.files.set(terminalId, { file, stream });
  }

  append(terminalId: string, text: string): void {
    if (!this.files.has(terminalId)) this.open(terminalId);
    const entry = this.files.get(terminalId);
    if (entry && !entry.closed) entry.stream.write(text);
  }

  /** The command ended: flush and close its file (it stays for "Show all"). */
  close(terminalId: string): void {
    const entry = this.files.get(terminalId);
    if (!entry || entry.closed) return;
    entry.closed = new Promise((resolve) => entry.stream.end(resolve));
  }

  /** The command's file once what was written is on disk; undefined when there is none. */
  async file(terminalId: string): Promise<string | undefined> {
    const entry = this.files.get(terminalId);
    if (!entry) return undefined;
    if (entry.closed) await entry.closed;
    // Writes complete in order: an empty one's callback runs once everything before it is written.
    else await new Promise<void>((resolve) => entry.stream.write("", () => resolve()));
    return entry.file;
  }

  dispose(): void {
    for (const id of this.files.keys()) this.close(id);
  }
}

function safeName(name: string): string {
  return name.replace(/[^\w.-]/g, "_").slice(0, 100);
}

/**
 * Whether `file` may be shown as a command's whole output: the agent's spill (in its session's
 * temp folder) or ours, so a plain file (not a link) under the OS temp folder. The agent names
 * it, but sandboxed commands can write in that folder: a link planted there is not followed.
 */
export async function isSpillFile(file: string, root = os.tmpdir()): Promise<boolean> {
  if (!path.isAbsolute(file) || !file.endsWith(".log")) return false;
  try {
    const info = await lstat(file);
    if (!info.isFile()) return false;
    const [real, base] = await Promise.all([realpath(file), realpath(root)]);
    return real.startsWith(base + path.sep);
  } catch {
    return false;
  }
}
