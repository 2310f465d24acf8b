// FileAccess on the local disk, used when the client does not serve fs/* itself.
import { constants, readSync } from "node:fs";
import { open } from "node:fs/promises";
import path from "node:path";
import { AgentError } from "../util/agent-error";
import { HeldFolder, PathMovedError, READ_FLAGS, readSmallPinnedSync, writePinned, type PinnedTarget } from "../util/no-follow-io";
import { FileNotFoundError, type FileAccess } from "./context";
import { checkStillPinned, pinTarget } from "./pinned-target";

export class LocalFileAccess implements FileAccess {
  readonly viaEditor = false;

  /**
   * Reads the real file the path resolves to (or `pin`, the one the policy judged), opened
   * without following links: a name swapped for a symlink meanwhile is refused, not followed.
   */
  async readText(file: string, pin?: PinnedTarget): Promise<string> {
    try {
      if (pin) checkStillPinned(file, pin);
      const target = pin ?? pinTarget(file);
      return readSmallPinnedSync(target, SYNC_READ_BYTES)?.toString("utf8") ?? (await readPinnedAsync(target));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new FileNotFoundError(file);
      if (error instanceof PathMovedError) throw error;
      throw diskFailure(error);
    }
  }

  /**
   * Writes a temp file in the target's folder, held open, and renames it over the target, so a
   * crash never leaves a half-written file and a swapped folder or link cannot redirect either.
   * A symlink is followed as resolved before (the link stays a link); an existing file keeps its
   * permissions (an edited script stays executable).
   */
  async writeText(file: string, content: string, pin?: PinnedTarget): Promise<void> {
    try {
      if (pin) checkStillPinned(file, pin);
      writePinned(pin ?? pinTarget(file), content);
    } catch (error) {
      if (error instanceof PathMovedError) throw error;
      throw diskFailure(error);
    }
  }
}

/** A large file or a FIFO: opened no-follow through the held folder, read without blocking the thread. */
async function readPinnedAsync(pin: PinnedTarget): Promise<string> {
  const folder = HeldFolder.open(path.dirname(pin.real), false);
  try {
    const handle = await open(folder.child(path.basename(pin.real)), READ_FLAGS & ~(constants.O_NONBLOCK ?? 0)).catch((error: unknown) => {
      throw (error as NodeJS.ErrnoException).code === "ELOOP" ? new PathMovedError(pin.real, "it is now a symlink") : error;
    });
    try {
      const info = await handle.stat();
      if (info.isFile() && info.nlink > 1 && !pin.linked) throw new PathMovedError(pin.real, "it gained another hard link");
      const text = await handle.readFile("utf8");
      folder.verify();
      return text;
    } finally {
      await handle.close();
    }
  } finally {
    folder.close();
  }
}

/** A disk error (EACCES, EISDIR, ENOSPC, ...) as a member of the error union, its message unchanged. */
function diskFailure(error: unknown): AgentError {
  const code = (error as NodeJS.ErrnoException).code;
  return new AgentError("internal", (error as Error).message ?? String(error), code ? { code } : {}, { cause: error });
}

/**
 * Regular files up to this size are read with blocking calls. Each step of an async read is a
 * round trip through libuv's thread pool (readFile takes four: open, fstat, read, close), and
 * on a busy machine each costs far more than reading a small file: read_file ran ~2 ms slower
 * than a tool that touches no file. A few MB read from the page cache take about a millisecond.
 */
export const SYNC_READ_BYTES = 4 * 1024 * 1024;

/** Up to `count` bytes from the start of an open file. */
export function readHeadSync(fd: number, count: number): Buffer {
  const bytes = Buffer.alloc(count);
  let filled = 0;
  while (filled < count) {
    const read = readSync(fd, bytes, filled, count - filled, filled);
    if (read === 0) break;
    filled += read;
  }
  return bytes.subarray(0, filled);
}
