// Real processes on one HERMES_HOME: concurrent writers lose nothing and see each other's
// sessions; a writer killed with SIGKILL loses nothing whose append had returned.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import path from "node:path";
import { after, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { readJournal } from "../../acp-server/sessions/journal";
import { SessionStore } from "../../acp-server/sessions/session-store";
import { recordingLogger, tempDirs, userMessage } from "../support/session-fixtures";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const WRITER = path.join(ROOT, "test", "support", "session-writer.ts");

const dirs = tempDirs();
after(() => dirs.cleanup());

function startWriter(args: string[]) {
  const child = spawn(process.execPath, ["--import", "tsx", WRITER, ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  // "close", not "exit": only then has all of its stdout been read.
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once("close", (code, signal) => resolve({ code, signal })));
  /** Resolves on the first stdout chunk after which the output so far matches `pattern`. */
  const printed = (pattern: RegExp, timeoutMs: number) =>
    new Promise<void>((resolve, reject) => {
      if (pattern.test(stdout)) return resolve();
      const timer = setTimeout(() => finish(new Error(`the writer did not print ${pattern} within ${timeoutMs} ms: ${stderr}`)), timeoutMs);
      const onData = () => {
        if (pattern.test(stdout)) finish();
      };
      const onClose = () => finish(new Error(`the writer exited before printing ${pattern}: ${stderr}`));
      function finish(error?: Error) {
        clearTimeout(timer);
        child.stdout.off("data", onData);
        child.off("close", onClose);
        if (error) reject(error);
        else resolve();
      }
      // Registered after the accumulating listener above, so `stdout` already holds the chunk.
      child.stdout.on("data", onData);
      child.once("close", onClose);
    });
  return { child, exited, printed, stdout: () => stdout, stderr: () => stderr };
}

describe("session store across processes", () => {
  test("two writers, 50 sessions each, concurrently: all 100 complete, and each saw the other's", async () => {
    const home = dirs.make();
    const messages = 6;
    const writers = ["left", "right"].map((prefix) => startWriter(["sessions", home, prefix, "50", String(messages), "100"]));
    const results = await Promise.all(writers.map((w) => w.exited));
    for (const [i, result] of results.entries()) {
      assert.equal(result.code, 0, `writer ${i} failed: ${writers[i].stderr()}`);
      assert.equal(writers[i].stdout().trim(), "saw 100", `writer ${i} listed: ${writers[i].stdout()} ${writers[i].stderr()}`);
      assert.equal(writers[i].stderr(), "", "no warnings in the writers");
    }

    const log = recordingLogger();
    const store = new SessionStore({ home, log });
    const first = await store.list({ limit: 50 });
    const second = await store.list({ limit: 50, cursor: first.nextCursor });
    const sessions = [...first.sessions, ...second.sessions];
    assert.equal(second.nextCursor, undefined);
    assert.equal(new Set(sessions.map((s) => s.id)).size, 100);
    for (const prefix of ["left", "right"]) assert.equal(sessions.filter((s) => s.id.startsWith(`${prefix}-`)).length, 50);
    for (const summary of sessions) assert.equal(summary.messageCount, messages, summary.id);
    const stored = await store.read("right-49");
    assert.deepEqual(stored?.records.map((r) => (r.t === "message" ? r.seq : r.t)), ["meta", 0, 1, 2, 3, 4, 5]);
    assert.equal((await store.search('"left session 7 message 5"')).length, 1);
    assert.deepEqual(log.warnings, []);
    await store.close();
  });

  test("kill -9 mid-stream: every append that returned is on disk, at most one torn line", async () => {
    const home = dirs.make();
    const writer = startWriter(["loop", home, "victim"]);
    // Let it write for a while (past its startup), then kill it without warning.
    await writer.printed(/appended 200\n/, 20_000);
    writer.child.kill("SIGKILL");
    const { signal } = await writer.exited;
    assert.equal(signal, "SIGKILL");

    const acknowledged = [...writer.stdout().matchAll(/^appended (\d+)$/gm)].map((m) => Number(m[1]));
    assert.ok(acknowledged.length > 200, `the writer got going (stderr: ${writer.stderr()})`);
    const read = readJournal(path.join(home, "sessions", "victim.jsonl"));
    assert.ok(read.warnings.length <= 1, read.warnings.join("\n"));
    for (const warning of read.warnings) assert.match(warning, /truncated last line/);
    const onDisk = new Set(read.records.flatMap((r) => (r.t === "message" ? [r.seq] : [])));
    const missing = acknowledged.filter((seq) => !onDisk.has(seq));
    assert.deepEqual(missing, []);
    // Nothing beyond the acknowledged ones but the one append that may have been in flight.
    assert.ok(onDisk.size <= acknowledged.length + 1, `${onDisk.size} on disk, ${acknowledged.length} acknowledged`);

    // The store loads it, and continuing the session after the crash works.
    let clockMs = Date.now();
    const store = new SessionStore({ home, log: recordingLogger(), now: () => clockMs });
    assert.equal((await store.summary("victim"))?.messageCount, onDisk.size);
    store.append("victim", userMessage(1_000_000, Date.now(), "after the crash"));
    clockMs += 150; // the store's clock steps past the catch-up throttle
    assert.equal((await store.summary("victim"))?.messageCount, onDisk.size + 1);
    const reread = readJournal(path.join(home, "sessions", "victim.jsonl"));
    const last = reread.records.at(-1);
    assert.equal(last?.t === "message" ? last.seq : undefined, 1_000_000, "the new record is not glued onto a torn line");
    assert.equal(reread.records.length, read.records.length + 1);
    await store.close();
  });
});
