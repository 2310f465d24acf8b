// FileAccess on the local disk, used when the client does not serve fs/* itself.
import { closeSync, constants, fstatSync, openSync, readFileSync, readSync } from "node:fs";
import { chmod, mkdir, readFile, realpath, rename, stat, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { AgentError } from "../util/agent-error";
import { FileNotFoundError, type FileAccess } from "./context";

export class LocalFileAccess implements FileAccess {
  readonly viaEditor = false;

  async readText(file: string): Promise<string> {
    try {
      return readSmallFileSync(file, SYNC_READ_BYTES)?.toString("utf8") ?? (await readFile(file, "utf8"));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new FileNotFoundError(file);
      throw diskFailure(error);
    }
  }

  /**
   * Writes a sibling temp file and renames it over the target, so a crash never leaves a
   * half-written file. A symlink is followed (the link stays a link) and an existing
   * file keeps its permissions (an edited script stays executable).
   */
  async writeText(file: string, content: string): Promise<void> {
    const target = await realpath(file).catch(() => file); // expected: ENOENT: a new file has no real path yet, its own path is the target
    await mkdir(path.dirname(target), { recursive: true });
    const mode = (await stat(target).catch(() => undefined))?.mode; // expected: ENOENT: a new file has no mode to keep
    const temp = path.join(path.dirname(target), `.${path.basename(target)}.hermes-${process.pid}-${Date.now()}.tmp`);
    try {
      await writeFile(temp, content, "utf8");
      if (mode !== undefined) await chmod(temp, mode & 0o7777);
      await rename(temp, target);
    } catch (error) {
      await unlink(temp).catch(() => {}); // expected: the temp file may not exist; the write's own error is thrown below
      throw diskFailure(error);
    }
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

/** Opened without blocking: a FIFO's open would wait for a writer (regular files ignore the flag). */
const OPEN_NONBLOCKING = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * Runs `use` on a regular file opened for reading with blocking calls, and closes it; undefined
 * for anything else (a FIFO, a device, a socket, a directory), which the caller reads the
 * asynchronous way, so no read can block the thread. The descriptor is checked, not the path,
 * so a file swapped for a FIFO meanwhile cannot make a read block. Throws what open(2) throws.
 */
export function withRegularFileSync<T>(file: string, use: (fd: number, size: number) => T): T | undefined {
  const fd = openSync(file, OPEN_NONBLOCKING);
  try {
    const info = fstatSync(fd);
    return info.isFile() ? use(fd, info.size) : undefined;
  } finally {
    closeSync(fd);
  }
}

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

/** A regular file of at most `maxBytes`, whole (to its end, should it grow meanwhile); undefined otherwise. */
function readSmallFileSync(file: string, maxBytes: number): Buffer | undefined {
  return withRegularFileSync(file, (fd, size) => (size <= maxBytes ? readFileSync(fd) : undefined));
}
