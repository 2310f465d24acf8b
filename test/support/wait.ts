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
 * renamed or removed entries; in its whole tree with `recursive`); rejects after `timeoutMs`.
 * `dir` must exist.
 */
export function waitForChangeIn<T>(dir: string, check: () => T | undefined | false, timeoutMs: number, what: string, options: { recursive?: boolean } = {}): Promise<T> {
  return new Promise((resolve, reject) => {
    // Watching starts before the first check, so no change can fall between the two.
    const watcher = watch(path.resolve(dir), { recursive: options.recursive ?? false }, () => look());
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

/** The part of a running command this needs (acp-server/tools/context.ts RunningCommand). */
interface StreamingCommand {
  output(): Promise<{ text: string }>;
  waitForExit(): Promise<unknown>;
  onOutput?(listener: (chunk: string) => void): () => void;
}

/**
 * Resolves with the command's output once it matches `pattern`, checking now, at each chunk the
 * command prints and when it exits; rejects if it exits without a match or after `timeoutMs`.
 */
export function commandOutputMatching(handle: StreamingCommand, pattern: RegExp, timeoutMs = 5000): Promise<string> {
  const subscribe = handle.onOutput?.bind(handle);
  if (!subscribe) return Promise.reject(new Error("this command does not stream its output"));
  return new Promise((resolve, reject) => {
    let done = false;
    let lastText = "";
    const finish = (error?: Error, text?: string) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      unsubscribe();
      if (error) reject(error);
      else resolve(text ?? "");
    };
    const check = async (exited = false) => {
      if (done) return;
      const { text } = await handle.output();
      lastText = text;
      if (pattern.test(text)) finish(undefined, text);
      else if (exited) finish(new Error(`the command exited without printing ${pattern}: ${JSON.stringify(text)}`));
    };
    const fail = (error: unknown) => finish(error instanceof Error ? error : new Error(String(error)));
    const unsubscribe = subscribe(() => void check().catch(fail));
    const timer = setTimeout(() => finish(new Error(`timed out waiting for ${pattern} in ${JSON.stringify(lastText)}`)), timeoutMs);
    void check().catch(fail);
    handle.waitForExit().then(() => check(true), fail).catch(fail);
  });
}
