// THE way the file tools (and checkpoint restores) touch the local disk: a path that was
// resolved and judged once is opened without following any link, so a background process that
// swaps a file or folder for a symlink between the check and the I/O changes nothing.
//
// Node has no openat(2). On Linux the walk opens each component of the real path from "/" with
// O_DIRECTORY|O_NOFOLLOW, holds the descriptor, and names children as /proc/self/fd/<fd>/<name>:
// the kernel resolves that magic link to the held folder itself, so renaming or replacing any
// component by name afterwards does not move the I/O. The last component is opened O_NOFOLLOW and
// checked on its descriptor (fstat). Without /proc (macOS, a locked-down container) the walk
// checks every component with lstat before and after the I/O and refuses on any change: the
// window is narrowed, not closed (docs/security.md says so).
import { closeSync, constants, existsSync, fstatSync, fsyncSync, lstatSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, unlinkSync, writeSync, type Stats } from "node:fs";
import path from "node:path";

/** A resolved path stopped being what was checked: a component became a symlink, or the file gained a hard link. */
export class PathMovedError extends Error {
  readonly code = "EMOVED";
  constructor(
    readonly file: string,
    why: string,
  ) {
    super(`${file} changed while it was being opened (${why}); nothing was read or written through it`);
    this.name = "PathMovedError";
  }
}

/** What a tool checked before asking: the real path it will touch, and whether it had other hard links then. */
export interface PinnedTarget {
  real: string;
  /** The file existed with more than one link (the policy saw it as outside the workspace). */
  linked: boolean;
}

const HAS_PROC_FD = process.platform === "linux" && existsSync("/proc/self/fd");
const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;
/** O_NONBLOCK: a FIFO's open would wait for a writer (regular files ignore the flag). */
export const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | (constants.O_NONBLOCK ?? 0);

/** A folder held open (Linux) or checked by identity (elsewhere); children are named through it. */
export class HeldFolder {
  private constructor(
    readonly real: string,
    private readonly fd: number | undefined,
    /** dev:ino of every component from "/" down (the fallback's proof that nothing moved). */
    private readonly chain: string[],
  ) {}

  /**
   * Opens `realDir` (an absolute path with no symlink in it: a real path) component by component
   * without following links. `create` makes missing folders on the way, each inside the one held.
   */
  static open(realDir: string, create: boolean): HeldFolder {
    const parts = path.resolve(realDir).split(path.sep).filter(Boolean);
    if (!HAS_PROC_FD) return new HeldFolder(path.resolve(realDir), undefined, checkChain(parts, create, realDir));
    let fd = openSync("/", DIR_FLAGS);
    try {
      for (const part of parts) {
        const child = `/proc/self/fd/${fd}/${part}`;
        let next: number;
        try {
          next = openSync(child, DIR_FLAGS);
        } catch (error) {
          if (!create || (error as NodeJS.ErrnoException).code !== "ENOENT") throw asMoved(error, realDir);
          mkdirIfMissing(child);
          next = openSync(child, DIR_FLAGS);
        }
        closeSync(fd);
        fd = next;
      }
    } catch (error) {
      closeSync(fd);
      throw asMoved(error, realDir);
    }
    return new HeldFolder(path.resolve(realDir), fd, []);
  }

  /** A path that names `name` inside this very folder (not whatever now has its name). */
  child(name: string): string {
    if (name.includes("/") || name === "" || name === "." || name === "..") throw new Error(`not a plain file name: ${name}`);
    return this.fd === undefined ? path.join(this.real, name) : `/proc/self/fd/${this.fd}/${name}`;
  }

  /** Without /proc: refuses when any component changed since open (call after the I/O). */
  verify(): void {
    if (this.fd !== undefined) return;
    const now = checkChain(this.real.split(path.sep).filter(Boolean), false, this.real);
    if (now.join("/") !== this.chain.join("/")) throw new PathMovedError(this.real, "a folder on the way was replaced");
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
  }
}

/** The fallback walk: lstat of each component (a symlink refuses), creating missing ones when asked. */
function checkChain(parts: string[], create: boolean, realDir: string): string[] {
  const ids: string[] = [];
  let current = "/";
  for (const part of parts) {
    current = path.join(current, part);
    let info: Stats;
    try {
      info = lstatSync(current);
    } catch (error) {
      if (!create || (error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      mkdirIfMissing(current);
      info = lstatSync(current);
    }
    if (info.isSymbolicLink()) throw new PathMovedError(realDir, `${current} is a symlink`);
    if (!info.isDirectory()) throw Object.assign(new Error(`ENOTDIR: not a directory, ${current}`), { code: "ENOTDIR" });
    ids.push(`${info.dev}:${info.ino}`);
  }
  return ids;
}

function mkdirIfMissing(folder: string): void {
  try {
    mkdirSync(folder, 0o777);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error; // another writer made it: opened no-follow next
  }
}

/** ELOOP from O_NOFOLLOW means a symlink sits where the real path had a folder or file. */
function asMoved(error: unknown, file: string): unknown {
  if (error instanceof PathMovedError) return error;
  return (error as NodeJS.ErrnoException).code === "ELOOP" ? new PathMovedError(file, "a component is now a symlink") : error;
}

/** Runs `use` with the folder of `real` held; closes it whatever happens. */
export function withHeldParent<T>(real: string, create: boolean, use: (folder: HeldFolder, name: string) => T): T {
  const folder = HeldFolder.open(path.dirname(real), create);
  try {
    const result = use(folder, path.basename(real));
    folder.verify();
    return result;
  } finally {
    folder.close();
  }
}

/**
 * Opens the file `pin.real` for reading without following links and hands its descriptor to
 * `use`. A file that gained a hard link since it was checked refuses (the policy judged it as
 * having one name). Throws ENOENT when missing.
 */
export function openPinnedForRead<T>(pin: PinnedTarget, use: (fd: number, info: Stats) => T): T {
  return withHeldParent(pin.real, false, (folder, name) => {
    let fd: number;
    try {
      fd = openSync(folder.child(name), READ_FLAGS);
    } catch (error) {
      throw asMoved(error, pin.real);
    }
    try {
      const info = fstatSync(fd);
      if (info.isFile() && info.nlink > 1 && !pin.linked) throw new PathMovedError(pin.real, "it gained another hard link");
      return use(fd, info);
    } finally {
      closeSync(fd);
    }
  });
}

/**
 * A regular file of at most `maxBytes`, whole, opened no-follow (and without blocking: a FIFO put
 * in its place never hangs the process); undefined for anything else. Throws ENOENT when missing.
 */
export function readSmallPinnedSync(pin: PinnedTarget, maxBytes: number): Buffer | undefined {
  return openPinnedForRead(pin, (fd, info) => (info.isFile() && info.size <= maxBytes ? readFileSync(fd) : undefined));
}

/** Options for writePinned. */
export interface PinnedWriteOptions {
  /** Prefix of the temp file's name (after the dot and the target's name). */
  tag?: string;
  /** Mode of a new file (the umask applies); an existing one keeps its own. */
  newMode?: number;
  /** fsync the file before the rename. */
  durable?: boolean;
}

/**
 * Replaces `pin.real` with `content`: a temp file created O_EXCL|O_NOFOLLOW in the held parent,
 * renamed over the name relative to that same folder, so neither the temp file nor the content
 * can land anywhere else. Missing parent folders are created the same way. An existing file keeps
 * its permissions; a directory there is refused (EISDIR).
 */
export function writePinned(pin: PinnedTarget, content: string | Buffer, options: PinnedWriteOptions = {}): void {
  withHeldParent(pin.real, true, (folder, name) => {
    const existing = existingEntry(folder.child(name), pin);
    if (existing?.isDirectory()) throw Object.assign(new Error(`EISDIR: illegal operation on a directory, open '${pin.real}'`), { code: "EISDIR" });
    const temp = folder.child(`.${name.slice(0, 100)}.${options.tag ?? "hermes"}-${process.pid}-${Math.random().toString(36).slice(2, 10)}.tmp`);
    const mode = existing ? existing.mode & 0o7777 : (options.newMode ?? 0o666);
    const fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode);
    try {
      try {
        writeSync(fd, typeof content === "string" ? Buffer.from(content, "utf8") : content);
        if (options.durable) fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(temp, folder.child(name));
    } catch (error) {
      rmSync(temp, { force: true });
      throw error;
    }
  });
}

/** Removes the entry `pin.real` (a file or a symlink itself, never what a link points to). */
export function unlinkPinned(pin: PinnedTarget): void {
  withHeldParent(pin.real, false, (folder, name) => unlinkSync(folder.child(name)));
}

/** What is at `child` now, not followed; a symlink there (or a new hard link) refuses. */
function existingEntry(child: string, pin: PinnedTarget): Stats | undefined {
  let info: Stats;
  try {
    info = lstatSync(child);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  if (info.isSymbolicLink()) throw new PathMovedError(pin.real, "it is now a symlink");
  if (info.isFile() && info.nlink > 1 && !pin.linked) throw new PathMovedError(pin.real, "it gained another hard link");
  return info;
}

/**
 * What is at `file` itself, not followed: "absent", "symlink", or the file's dev:ino. For I/O that
 * another process does by name (an editor's fs/*): compared before and after, it tells whether
 * the name was swapped while that process used it.
 */
export function entryIdentity(file: string): string {
  const info = lstatSync(file, { throwIfNoEntry: false });
  if (!info) return "absent";
  return info.isSymbolicLink() ? "symlink" : `${info.dev}:${info.ino}:${info.nlink}`;
}

/**
 * A file held open (without following links) while another program reads it by name, as an
 * editor does for fs/read_text_file. Holding it keeps its inode allocated, so a file swapped away
 * and replaced cannot come back under the same inode number; `unchanged()` then tells whether the
 * name still is this very file, never renamed or unlinked meanwhile (either changes its ctime).
 * A name that was a link, or becomes one, is PathMovedError / not unchanged.
 */
export class HeldEntry {
  private constructor(
    private readonly file: string,
    private readonly fd: number | undefined,
    private readonly ctimeNs: bigint | undefined,
  ) {}

  static open(file: string): HeldEntry {
    let fd: number;
    try {
      fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ELOOP") throw new PathMovedError(file, "it is now a symlink");
      // Missing (the reader reports it) or not openable: nothing to hold, and "unchanged" means still absent.
      if (code === "ENOENT") return new HeldEntry(file, undefined, undefined);
      throw error;
    }
    return new HeldEntry(file, fd, fstatSync(fd, { bigint: true }).ctimeNs);
  }

  unchanged(): boolean {
    const now = lstatSync(this.file, { bigint: true, throwIfNoEntry: false });
    if (this.fd === undefined) return now === undefined;
    if (!now || now.isSymbolicLink()) return false;
    const held = fstatSync(this.fd, { bigint: true });
    return now.dev === held.dev && now.ino === held.ino && held.nlink > 0n && held.ctimeNs === this.ctimeNs;
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
  }
}

