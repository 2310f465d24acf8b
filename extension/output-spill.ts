// The whole output of every command the agent runs in an editor terminal, spilled to a file as
// it arrives: the panel keeps only the newest ~64 KB, and "Show all" must still show everything.
// One folder per session under the OS temp folder's hermes-terminal-output/, one file per
// command, written through an append stream (no blocking writes in the extension host).
// Cleaned up, never while a chat may still need them: a deleted session's folder goes at once;
// when the window closes, the files it wrote go, except the open chat's (a window reload reopens
// it and its cards' "Show all"); at activation, files untouched for a week (another window's, a
// crash's). No vscode import.
import { createWriteStream, lstatSync, mkdirSync, readdirSync, rmdirSync, rmSync, unlinkSync, type WriteStream } from "node:fs";
import { lstat, realpath } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

/** Spill files not written for this long are removed at activation. */
export const SPILL_MAX_AGE_MS = 7 * 24 * 3_600_000;

/** Where the spill folders live (one per session). */
export function spillRoot(tmp = os.tmpdir()): string {
  return path.join(tmp, "hermes-terminal-output");
}

interface Spilled {
  file: string;
  /** The session's folder (safe name) the file is in. */
  session: string;
  stream: WriteStream;
  /** Resolves once everything written so far is on disk. */
  closed?: Promise<void>;
}

export class OutputSpill {
  private readonly files = new Map<string, Spilled>();

  constructor(
    /** The open session, for the folder's name. */
    private readonly sessionId: () => string | null,
    private readonly root = spillRoot(),
  ) {}

  /** Starts a command's file (before its first output). */
  open(terminalId: string): void {
    if (this.files.has(terminalId)) return;
    const session = safeName(this.sessionId() ?? "no-session");
    const dir = path.join(this.root, session);
    // Terminal ids start over when the extension restarts: a timestamp keeps files apart.
    const file = path.join(dir, `${safeName(terminalId)}-${Date.now()}.log`);
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch {
      // expected: no spill without a folder; the card still has the tail
      return;
    }
    const stream = createWriteStream(file, { flags: "a", mode: 0o600 });
    // A full disk must not take the extension down: the spill simply stops.
    stream.on("error", () => this.files.delete(terminalId));
    this.files.set(terminalId, { file, session, stream });
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

  /** A session was deleted: its folder goes, whoever wrote it (its cards are gone with it). */
  removeSession(sessionId: string): void {
    const session = safeName(sessionId);
    for (const [id, entry] of this.files) {
      if (entry.session !== session) continue;
      entry.stream.destroy();
      this.files.delete(id);
    }
    rmSync(path.join(this.root, session), { recursive: true, force: true });
  }

  /**
   * The window is closing: stop writing, and remove the files written here, except the open
   * chat's (`keep`: a reload reopens that chat, and its cards' "Show all" must still work; the
   * age sweep takes them later). Synchronous: deactivation does not wait long.
   */
  dispose(keep: string | null = null): void {
    const kept = keep === null ? undefined : safeName(keep);
    const folders = new Set<string>();
    for (const entry of this.files.values()) {
      entry.stream.destroy();
      if (entry.session === kept) continue;
      rmSync(entry.file, { force: true });
      folders.add(path.join(this.root, entry.session));
    }
    this.files.clear();
    for (const folder of folders) removeIfEmpty(folder);
  }
}

/**
 * Removes spill files not written for `maxAgeMs` (and folders left empty) under `root`: what a
 * crashed or long-closed window left. Plain files and folders only; a link is never followed,
 * and nothing outside the root's session folders is touched. Returns how many files went.
 */
export function sweepSpills(root = spillRoot(), maxAgeMs = SPILL_MAX_AGE_MS, now = Date.now()): number {
  let removed = 0;
  let sessions: string[];
  try {
    if (!lstatSync(root).isDirectory()) return 0;
    sessions = readdirSync(root);
  } catch {
    // expected: nothing spilled yet (no folder)
    return 0;
  }
  for (const session of sessions) {
    const folder = path.join(root, session);
    try {
      if (!lstatSync(folder).isDirectory()) continue;
      for (const name of readdirSync(folder)) {
        const file = path.join(folder, name);
        const info = lstatSync(file);
        if (info.isFile() && name.endsWith(".log") && now - info.mtimeMs > maxAgeMs) {
          unlinkSync(file);
          removed++;
        }
      }
      removeIfEmpty(folder);
    } catch {
      // expected: another window is using or removing it: left for next time
    }
  }
  return removed;
}

function removeIfEmpty(folder: string): void {
  try {
    rmdirSync(folder); // fails unless empty
  } catch {
    // expected: rmdir fails unless empty: the folder still holds another window's files, or is already gone
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
    // expected: a file that is gone or outside the spill folder is not ours to open
    return false;
  }
}
