// session_search over a large history: 1,000 sessions of 100 messages (100,000 messages,
// Zipf-distributed words) written as journals, ingested by a SessionStore (first query),
// saved to state.db and reloaded by a second store; then 50 searches of varied kinds
// (common and rare words, two words, phrases, prefixes). Target: median <= 50 ms.
//   node --import tsx bench/session-search.ts      (BENCH_SESSIONS=1000, BENCH_MESSAGES=100)
import { mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { SessionStore } from "../acp-server/sessions/session-store";
import type { JournalRecord } from "../acp-server/sessions/types";
import { recordingLogger, sessionMeta } from "../test/support/session-fixtures";
import { type BenchRow, fmt, intFromEnv, makeTempDir, median, percentile, reportRows } from "./lib";
import { Corpus } from "./session-corpus";

const TARGET_MS = 50;

/** Journals written directly (same format, no fsync per line): the store's ingestion is what is measured. */
function writeJournals(home: string, corpus: Corpus, sessions: number, messages: number): number {
  const dir = path.join(home, "sessions");
  mkdirSync(dir, { recursive: true });
  let bytes = 0;
  const start = Date.UTC(2025, 0, 1);
  for (let s = 0; s < sessions; s++) {
    const id = `session-${String(s).padStart(5, "0")}`;
    const createdAt = start + s * 3_600_000;
    const records: JournalRecord[] = [{ t: "meta", v: 1, at: createdAt, session: sessionMeta(id, `/work/project-${s % 20}`, createdAt) }];
    records.push({ t: "update", at: createdAt + 1, title: corpus.text(5), titleSource: "auto" });
    for (let seq = 0; seq < messages; seq++) records.push(corpus.message(seq, createdAt + 1_000 * (seq + 1)));
    const text = records.map((r) => `${JSON.stringify(r)}\n`).join("");
    writeFileSync(path.join(dir, `${id}.jsonl`), text);
    bytes += Buffer.byteLength(text);
  }
  return bytes;
}

interface Query {
  kind: string;
  text: string;
}

function queries(corpus: Corpus): Query[] {
  const words = corpus.words;
  const pick = (from: number, to: number) => words[from + Math.floor(corpus.random() * (to - from))];
  const out: Query[] = [];
  for (let i = 0; i < 8; i++) out.push({ kind: "common word", text: pick(20, 120) });
  for (let i = 0; i < 14; i++) out.push({ kind: "mid word", text: pick(300, 3_000) });
  for (let i = 0; i < 6; i++) out.push({ kind: "rare word", text: pick(5_000, 20_000) });
  for (let i = 0; i < 8; i++) out.push({ kind: "two words", text: `${pick(100, 2_000)} ${pick(100, 2_000)}` });
  for (let i = 0; i < 6; i++) out.push({ kind: "phrase", text: `"${corpus.text(2)}"` });
  for (let i = 0; i < 5; i++) out.push({ kind: "prefix", text: `${pick(200, 2_000).slice(0, 4)}*` });
  out.push({ kind: "very common word", text: "file" }, { kind: "very common word", text: "error" }, { kind: "very common word", text: "the" });
  return out;
}

async function main(): Promise<void> {
  const sessions = intFromEnv("BENCH_SESSIONS", 1_000);
  const messages = intFromEnv("BENCH_MESSAGES", 100);
  const home = makeTempDir("hermes-bench-search-");
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const time = async <T>(fn: () => Promise<T>): Promise<[T, number]> => {
    const start = performance.now();
    const value = await fn();
    return [value, performance.now() - start];
  };
  /** CPU time of the whole process (every thread: V8 compiles wasm and JS on worker threads), in ms. */
  const cpuMs = (since?: NodeJS.CpuUsage) => {
    const used = process.cpuUsage(since);
    return (used.user + used.system) / 1000;
  };
  try {
    const corpus = new Corpus(7);
    const t = performance.now();
    const bytes = writeJournals(home, corpus, sessions, messages);
    out(`search: wrote ${sessions} journals, ${sessions * messages} messages, ${fmt(bytes / 1e6)} MB in ${fmt(performance.now() - t, 0)} ms`);

    const first = new SessionStore({ home, log: recordingLogger() });
    const ingestCpu = process.cpuUsage();
    const [, ingestMs] = await time(() => first.list({ limit: 1 }));
    const ingestCpuMs = cpuMs(ingestCpu);
    const [, flushMs] = await time(() => first.flush());
    const dbMb = statSync(path.join(home, "state.db")).size / 1e6;
    out(`search: first query ingested everything in ${fmt(ingestMs, 0)} ms, ${fmt(ingestCpuMs, 0)} ms CPU (${fmt((sessions * messages) / (ingestMs / 1000), 0)} messages/s); state.db ${fmt(dbMb)} MB saved in ${fmt(flushMs, 0)} ms; rss ${fmt(process.memoryUsage().rss / 1e6, 0)} MB`);
    await first.close();

    const store = new SessionStore({ home, log: recordingLogger() });
    const [, reloadMs] = await time(() => store.list({ limit: 1 }));
    const [, catchUpMs] = await time(async () => {
      await new Promise((resolve) => setTimeout(resolve, 120)); // past the throttle: a real rescan (readdir + stats)
      const start = performance.now();
      await store.list({ limit: 1 });
      return performance.now() - start;
    });
    out(`search: second store loaded state.db and caught up in ${fmt(reloadMs, 0)} ms; a no-change catch-up (${sessions} stats) ~${fmt(catchUpMs - 120, 1)} ms`);

    const list = queries(corpus);
    await store.search("warm up");
    const times: number[] = [];
    const byKind = new Map<string, number[]>();
    const queriesCpu = process.cpuUsage();
    for (const query of list) {
      const start = performance.now();
      const hits = await store.search(query.text, { limit: 5 });
      const ms = performance.now() - start;
      times.push(ms);
      byKind.set(query.kind, [...(byKind.get(query.kind) ?? []), ms]);
      if (process.env.BENCH_VERBOSE === "1") out(`  ${query.kind.padEnd(16)} ${query.text.padEnd(24)} ${fmt(ms, 1)} ms, ${hits.length} hits, best ${hits[0]?.snippet.slice(0, 60) ?? "-"}`);
    }
    const queriesCpuMs = cpuMs(queriesCpu);
    for (const [kind, values] of byKind) out(`search: ${kind.padEnd(16)} median ${fmt(median(values), 1)} ms, max ${fmt(Math.max(...values), 1)} ms (${values.length})`);
    out(`search: rss after reload and searches ${fmt(process.memoryUsage().rss / 1e6, 0)} MB`);
    out(`search: ${list.length} queries over ${sessions * messages} messages: median ${fmt(median(times), 1)} ms, p90 ${fmt(percentile(times, 90), 1)} ms, max ${fmt(Math.max(...times), 1)} ms (target median <= ${TARGET_MS} ms); ${fmt(queriesCpuMs, 0)} ms CPU in all`);
    await store.close();

    const rows: BenchRow[] = [
      { metric: `search: median over ${sessions * messages} msgs`, value: `${fmt(median(times), 1)} ms`, target: `<= ${TARGET_MS} ms`, ok: median(times) <= TARGET_MS },
      { metric: "search: p90", value: `${fmt(percentile(times, 90), 1)} ms`, target: "" },
      { metric: `search: CPU of the ${list.length} queries`, value: `${fmt(queriesCpuMs, 0)} ms`, target: "" },
      { metric: "search: first ingest (no state.db)", value: `${fmt(ingestMs / 1000, 1)} s, ${fmt(ingestCpuMs / 1000, 1)} s CPU`, target: "" },
      { metric: "search: reload from state.db", value: `${fmt(reloadMs, 0)} ms`, target: "" },
      { metric: "search: state.db size", value: `${fmt(dbMb)} MB`, target: "" },
    ];
    reportRows("session-search", rows);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

await main();
