// Durable append latency: SessionStore.append of realistic records (an assistant message with
// a tool call, a ~4 KB tool result, a user prompt), each written with one write(2) on an
// O_APPEND descriptor and fdatasync'd before it returns. Measured twice: before the index is
// loaded (journal only, the common case during a turn) and with the index loaded (each append
// also goes into the in-memory index). Target: median <= 2 ms.
//   node --import tsx bench/session-append.ts      (BENCH_ITERATIONS=500)
import { closeSync, constants, fdatasyncSync, openSync, rmSync, writeSync } from "node:fs";
import path from "node:path";
import { SessionStore } from "../acp-server/sessions/session-store";
import type { JournalRecord } from "../acp-server/sessions/types";
import { assistantMessage, prose, recordingLogger, sessionMeta, toolMessage, userMessage } from "../test/support/session-fixtures";
import { type BenchRow, fmt, intFromEnv, makeTempDir, median, percentile, reportRows } from "./lib";

const TARGET_MS = 2;

function record(seq: number): JournalRecord {
  const at = Date.now();
  switch (seq % 3) {
    case 0:
      return userMessage(seq, at, `Please look at the failing test in src/module${seq % 7}.ts and fix it. ${prose(seq, 30)}`);
    case 1: {
      const base = assistantMessage(seq, at, `I'll read the file first. ${prose(seq, 60)}`);
      if (base.t === "message" && base.message.role === "assistant") {
        base.message.toolCalls = [{ id: `call_${seq}`, name: "read_file", arguments: JSON.stringify({ path: `src/module${seq % 7}.ts`, offset: 1, limit: 200 }) }];
      }
      return base;
    }
    default:
      return toolMessage(seq, at, `${"export function handler(request: Request): Response {\n  return render(request);\n}\n".repeat(50)}`);
  }
}

function measure(store: SessionStore, id: string, iterations: number, firstSeq: number): number[] {
  const times: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const entry = record(firstSeq + i);
    const start = process.hrtime.bigint();
    store.append(id, entry);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return times;
}

/** Bare write + fdatasync of the same bytes: the floor the file system sets. */
function floor(dir: string, iterations: number): number[] {
  const fd = openSync(path.join(dir, "floor.jsonl"), constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND, 0o600);
  const times: number[] = [];
  try {
    for (let i = 0; i < iterations; i++) {
      const line = Buffer.from(`${JSON.stringify(record(i))}\n`);
      const start = process.hrtime.bigint();
      writeSync(fd, line);
      fdatasyncSync(fd);
      times.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  } finally {
    closeSync(fd);
  }
  return times;
}

async function main(): Promise<void> {
  const iterations = intFromEnv("BENCH_ITERATIONS", 500);
  const home = makeTempDir("hermes-bench-append-");
  const out = (line: string) => process.stdout.write(`${line}\n`);
  try {
    const store = new SessionStore({ home, log: recordingLogger() });
    store.create(sessionMeta("bench", home, Date.now()));
    const journalOnly = measure(store, "bench", iterations, 0);
    await store.list(); // loads the index; from now on appends also feed it
    const withIndex = measure(store, "bench", iterations, iterations);
    await store.close();
    const bare = floor(home, iterations);

    const line = (name: string, t: number[]) =>
      `append: ${name.padEnd(22)} median ${fmt(median(t), 3)} ms, p90 ${fmt(percentile(t, 90), 3)} ms, p99 ${fmt(percentile(t, 99), 3)} ms, max ${fmt(Math.max(...t), 3)} ms`;
    out(`append: ${iterations} records per run (user prompt / assistant + tool call / 4 KB tool result), fdatasync each; file system of ${home}`);
    out(line("journal only", journalOnly));
    out(line("index loaded", withIndex));
    out(line("floor (write+fdatasync)", bare));
    out(`append: target median <= ${TARGET_MS} ms`);
    const rows: BenchRow[] = [
      { metric: "append: median (journal only)", value: `${fmt(median(journalOnly), 3)} ms`, target: `<= ${TARGET_MS} ms`, ok: median(journalOnly) <= TARGET_MS },
      { metric: "append: median (index loaded)", value: `${fmt(median(withIndex), 3)} ms`, target: `<= ${TARGET_MS} ms`, ok: median(withIndex) <= TARGET_MS },
      { metric: "append: p90 (index loaded)", value: `${fmt(percentile(withIndex, 90), 3)} ms`, target: "" },
      { metric: "append: write+fdatasync floor", value: `${fmt(median(bare), 3)} ms`, target: "" },
    ];
    reportRows("session-append", rows);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

await main();
