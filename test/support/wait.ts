// Waiting on events instead of sleeping: a child's output, a change on disk. Each wait has a
// deadline only to fail a test that would otherwise hang; it never decides when to look.
import { watch } from "node:fs";
import path from "node:path";
import type { Readable } from "node:stream";

/**
 * Resolves once the text `stream` printed (from now on) matches `pattern`; rejects when the
 * stream ends first or after `timeoutMs`.
 */
export function waitForOutput(stream: Readable, pattern: RegExp, timeoutMs: number, what = `output matching ${pattern}`): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    const onData = (chunk: Buffer | string) => {
      text += chunk.toString();
      if (pattern.test(text)) finish();
    };
    const onEnd = () => finish(new Error(`the stream ended before ${what}: ${text.slice(-2000)}`));
    const timer = setTimeout(() => finish(new Error(`no ${what} within ${timeoutMs} ms: ${text.slice(-2000)}`)), timeoutMs);
    function finish(error?: Error) {
      clearTimeout(timer);
      stream.off("data", onData);
      stream.off("end", onEnd);
      if (error) reject(error);
      else resolve(text);
    }
    stream.on("data", onData);
    stream.once("end", onEnd);
  });
}

/**
 * Resolves once `check()` holds, checking now and after each change in `dir` (created, written,
 * renamed or removed entries); rejects after `timeoutMs`. `dir` must exist.
 */
export function waitForChangeIn<T>(dir: string, check: () => T | undefined | false, timeoutMs: number, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    // Watching starts before the first check, so no change can fall between the two.
    const watcher = watch(path.resolve(dir), () => look());
    const timer = setTimeout(() => finish(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)), timeoutMs);
    let done = false;
    function look() {
      if (done) return;
      let value: T | undefined | false;
      try {
        value = check();
      } catch (error) {
        return finish(error instanceof Error ? error : new Error(String(error)));
      }
      if (value) finish(undefined, value);
    }
    function finish(error?: Error, value?: T) {
      done = true;
      clearTimeout(timer);
      watcher.close();
      if (error) reject(error);
      else resolve(value as T);
    }
    look();
  });
}
