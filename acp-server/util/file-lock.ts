// One lock-file helper for every file Hermes processes share in $HERMES_HOME (config.yaml,
// skill usage counts): O_EXCL creates the lock, the holder's pid and a token go in it, and a
// lock whose holder is dead, or which is older than `staleMs`, is taken over. Synchronous on
// purpose: the critical sections are a read-modify-write of one small file.
import fs from "node:fs";
import { AgentError } from "./agent-error";
import { processAlive } from "./process-alive";

export interface FileLockOptions {
  /** Give up after this long (default 10 s: a loaded machine can hold a small read-modify-write for seconds). */
  timeoutMs?: number;
  /** A lock older than this is abandoned, whoever holds it (default 10 s). */
  staleMs?: number;
}

export class LockBusyError extends AgentError<"busy"> {
  constructor(readonly lockFile: string) {
    super("busy", `${lockFile} is held by another process`, { lockFile });
    this.name = "LockBusyError";
  }
}

/** Takes `lockFile`, or throws LockBusyError after the timeout. Returns the release function. */
export function acquireFileLock(lockFile: string, options: FileLockOptions = {}): () => void {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  const staleMs = options.staleMs ?? 10_000;
  const token = `${process.pid} ${Date.now()} ${Math.random().toString(36).slice(2)}`;
  for (;;) {
    try {
      const fd = fs.openSync(lockFile, fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_WRONLY, 0o600);
      try {
        fs.writeSync(fd, token);
      } finally {
        fs.closeSync(fd);
      }
      return () => {
        try {
          // Only our own lock: after a stale takeover the file may belong to someone else.
          if (fs.readFileSync(lockFile, "utf8") === token) fs.unlinkSync(lockFile);
        } catch {
          // expected: the lock file is already gone (a stale takeover removed it)
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    if (isStale(lockFile, staleMs)) {
      fs.rmSync(lockFile, { force: true });
      continue;
    }
    if (Date.now() >= deadline) throw new LockBusyError(lockFile);
    sleepSync(10 + Math.floor(Math.random() * 20));
  }
}

/**
 * Like acquireFileLock, for a lock held across async work (seconds): waits without blocking the
 * event loop; `onWait` is told once when it has to wait.
 */
export async function acquireFileLockAsync(lockFile: string, options: FileLockOptions & { onWait?: () => Promise<void> | void } = {}): Promise<() => void> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  let told = false;
  for (;;) {
    try {
      return acquireFileLock(lockFile, { ...options, timeoutMs: 0 });
    } catch (error) {
      if (!(error instanceof LockBusyError) || Date.now() >= deadline) throw error;
    }
    if (!told) {
      told = true;
      await options.onWait?.();
    }
    await new Promise((resolve) => setTimeout(resolve, 25 + Math.floor(Math.random() * 50)));
  }
}

/** Runs `work` holding `lockFile`. */
export function withFileLock<T>(lockFile: string, work: () => T, options?: FileLockOptions): T {
  const release = acquireFileLock(lockFile, options);
  try {
    return work();
  } finally {
    release();
  }
}

function isStale(lockFile: string, staleMs: number): boolean {
  let text: string;
  let mtimeMs: number;
  try {
    mtimeMs = fs.statSync(lockFile).mtimeMs;
    text = fs.readFileSync(lockFile, "utf8");
  } catch {
    // expected: released meanwhile (ENOENT): the next O_EXCL attempt decides
    return false;
  }
  if (Date.now() - mtimeMs > staleMs) return true;
  const pid = Number(text.split(" ")[0]);
  // An empty lock is one being written right now (or one from an older Hermes): age decides.
  if (!Number.isInteger(pid) || pid <= 0 || text === "") return false;
  return !processAlive(pid);
}

export function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
