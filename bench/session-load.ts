// Sessions at scale: (1) session/load of a 10,000-message session in a fresh process: time
// from the request to its answer (the replay is sent before the answer), target <= 60 ms, for
// the loads after the first (which caches the replay; printed on its own),
// for a journal written by this version (records redacted and stamped as the recorder writes
// them) and, for scale, by an older one (no stamps: every record goes through the redaction
// rules again); (2) cold start with 1,000 sessions on disk against an empty home (initialize must not wait
// for the session index): target no slower.
//   node --import tsx bench/session-load.ts      (BENCH_MESSAGES=10000, BENCH_SESSIONS=1000, BENCH_RUNS=11)
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { redactRecord } from "../acp-server/sessions/redact-record";
import type { JournalRecord } from "../acp-server/sessions/types";
import type { ChatMessage } from "../acp-server/providers/types";
import { startScriptedModel } from "../test/support/scripted-model";
import { benchEnv, type BenchRow, ensureBuilt, fmt, HERMES_BIN, INITIALIZE_PARAMS, intFromEnv, LineClient, makeHome, makeTempDir, median, modelConfig, reportRows, sleep } from "./lib";

const LOAD_TARGET_MS = 60;

/**
 * A journal of `messages` messages: user → assistant with a tool call → tool result → answer.
 * `stamped`: written as this version's recorder writes (redacted, stamped); otherwise as an
 * older version did (no stamps).
 */
function writeBigSession(home: string, id: string, cwd: string, messages: number, stamped = true): void {
  const lines: string[] = [JSON.stringify({ t: "meta", v: 1, at: Date.now(), session: { id, cwd, createdAt: Date.now(), source: "acp", mode: "default" } })];
  const write = (record: JournalRecord) => lines.push(JSON.stringify(stamped ? redactRecord(record) : record));
  let seq = 0;
  const message = (m: ChatMessage) => write({ t: "message", seq: seq++, at: Date.now(), message: m, tokens: 40 });
  for (let i = 0; seq < messages; i++) {
    message({ role: "user", content: [{ type: "text", text: `Question ${i}: what does module${i % 50}.ts export, and why?` }] });
    message({ role: "assistant", content: `Let me look at module${i % 50}.ts.`, toolCalls: [{ id: `c${i}`, name: "read_file", arguments: `{"path":"module${i % 50}.ts"}` }] });
    const output = { path: `module${i % 50}.ts`, content: `   1|export const value${i} = ${i};\n   2|export function f${i}() { return value${i} * 2; }\n`, total_lines: 2 };
    write({ t: "tool_call", at: Date.now(), call: { id: `c${i}`, requestId: `c${i}`, name: "read_file", title: `read module${i % 50}.ts`, kind: "read", locations: [], rawInput: { path: `module${i % 50}.ts` }, status: "completed", content: [{ type: "text", text: output.content }], rawOutput: output } });
    message({ role: "tool", toolCallId: `c${i}`, name: "read_file", content: JSON.stringify(output) });
    message({ role: "assistant", content: `module${i % 50}.ts exports value${i} and f${i}, which doubles it.` });
  }
  mkdirSync(path.join(home, "sessions"), { recursive: true });
  writeFileSync(path.join(home, "sessions", `${id}.jsonl`), `${lines.join("\n")}\n`);
}

/**
 * CPU time of the agent's main (JavaScript) thread in ms, from /proc/<pid>/schedstat (Linux;
 * NaN elsewhere). On a busy machine the wall time includes waiting for a core; this does not.
 */
function mainThreadCpuMs(pid: number): number {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, "utf8").split(" ")[0]) / 1e6;
  } catch {
    return Number.NaN;
  }
}

async function loadTime(home: string, id: string, cwd: string): Promise<{ ms: number; cpuMs: number; updates: number }> {
  // BENCH_PROF=dir: a CPU profile of each agent (BENCH_PROF_INTERVAL in µs).
  const profile = process.env.BENCH_PROF ? ["--cpu-prof", "--cpu-prof-interval", process.env.BENCH_PROF_INTERVAL ?? "1000", "--cpu-prof-dir", process.env.BENCH_PROF] : [];
  const client = new LineClient(benchEnv({ HERMES_HOME: home }), cwd, profile);
  try {
    await client.request("initialize", INITIALIZE_PARAMS);
    await client.request("session/new", { cwd, mcpServers: [] }); // the runtime is up, as in an editor
    await sleep(300); // and what session/new started in the background is done
    const before = client.notifications;
    const cpuBefore = mainThreadCpuMs(client.pid);
    const started = performance.now();
    await client.request("session/load", { sessionId: id, cwd, mcpServers: [] });
    const ms = performance.now() - started;
    return { ms, cpuMs: mainThreadCpuMs(client.pid) - cpuBefore, updates: client.notifications - before };
  } finally {
    await client.close();
  }
}

/**
 * The chat used live in one process (a prompt and its answer), then the editor closed: the
 * first load in the next process. The cache the live process's own load wrote is removed
 * before the prompt, so only its idle-time refresh after the turn (acp/replay-refresh.ts) can
 * have cached the replay: the case of a chat that process created and grew.
 */
async function firstLoadAfterLiveUse(messages: number, project: string): Promise<{ ms: number; cpuMs: number; cached: boolean }> {
  const model = await startScriptedModel();
  const live = makeHome(modelConfig(model.url));
  const snapshot = path.join(live.home, "cache", "replay", "live-session.ndjson");
  try {
    writeBigSession(live.home, "live-session", project, messages);
    const client = new LineClient(benchEnv({ HERMES_HOME: live.home }), project);
    try {
      await client.request("initialize", INITIALIZE_PARAMS);
      await client.request("session/load", { sessionId: "live-session", cwd: project, mcpServers: [] });
      for (let i = 0; i < 100 && !existsSync(snapshot); i++) await sleep(50); // the load's own cache
      await sleep(200);
      rmSync(snapshot, { force: true });
      model.enqueue({ text: "Here is what changed since we last spoke." });
      await client.request("session/prompt", { sessionId: "live-session", prompt: [{ type: "text", text: "what changed?" }] });
      for (let i = 0; i < 400 && !existsSync(snapshot); i++) await sleep(50); // idle, then the refresh
    } finally {
      await client.close();
    }
    const cached = existsSync(snapshot);
    return { ...(await loadTime(live.home, "live-session", project)), cached };
  } finally {
    live.cleanup();
    await model.close();
  }
}

/** Spawn → initialize answered, in ms. */
function coldStart(home: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [HERMES_BIN, "acp"], { env: benchEnv({ HERMES_HOME: home }), stdio: ["pipe", "pipe", "ignore"] });
    child.stdout.once("data", () => {
      resolve(performance.now() - started);
      child.kill("SIGKILL");
    });
    child.once("error", reject);
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: INITIALIZE_PARAMS })}\n`);
  });
}

async function main(): Promise<void> {
  ensureBuilt();
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const messages = intFromEnv("BENCH_MESSAGES", 10_000);
  const sessionCount = intFromEnv("BENCH_SESSIONS", 1_000);
  const runs = intFromEnv("BENCH_RUNS", 11);
  const project = makeTempDir("hermes-bench-project-");
  // With an API key, as a user has one: the load then also looks for the agent's own secret values.
  const big = makeHome({ model: { provider: "custom", name: "m", base_url: "http://127.0.0.1:9/v1", api_key: "sk-bench-not-a-real-key" }, sessions: { auto_title: false } });
  const many = makeHome({ model: { provider: "custom", name: "m", base_url: "http://127.0.0.1:9/v1" } });
  const empty = makeHome({ model: { provider: "custom", name: "m", base_url: "http://127.0.0.1:9/v1" } });
  try {
    writeBigSession(big.home, "big-session", project, messages);
    writeBigSession(big.home, "old-session", project, messages, false);
    const loadRuns = intFromEnv("BENCH_LOAD_RUNS", 5);
    // The first load of a session builds its replay and caches it (cache/replay/); the others,
    // like an editor reopening the chat, send the cached frames: the median is theirs, and the
    // first load is printed on its own.
    const measureLoad = async (id: string) => {
      const loads: number[] = [];
      const cpu: number[] = [];
      let updates = 0;
      let first = { ms: Number.NaN, cpuMs: Number.NaN };
      for (let i = 0; i <= loadRuns; i++) {
        const result = await loadTime(big.home, id, project);
        updates = result.updates;
        if (i === 0) {
          first = result;
          continue;
        }
        loads.push(result.ms);
        cpu.push(result.cpuMs);
      }
      return { ms: median(loads), cpuMs: median(cpu), loads, updates, first };
    };
    const current = await measureLoad("big-session");
    const loadMs = current.ms;
    out(
      `session load: ${messages} messages, ${current.updates} updates replayed, request → answer median ${fmt(loadMs)} ms ` +
        `(runs: ${current.loads.map((v) => fmt(v)).join(", ")}; agent main-thread CPU median ${fmt(current.cpuMs)} ms) (target <= ${LOAD_TARGET_MS} ms)`,
    );
    const old = await measureLoad("old-session");
    out(`  its first load (no cached replay yet: builds and caches it): ${fmt(current.first.ms)} ms (CPU ${fmt(current.first.cpuMs)} ms)`);
    const afterLive = await firstLoadAfterLiveUse(messages, project);
    out(
      `  first load in a new process after the session was used live: ${fmt(afterLive.ms)} ms (CPU ${fmt(afterLive.cpuMs)} ms)` +
        (afterLive.cached ? " (replay cached by the live process)" : " (NOT cached by the live process: built from the journal)"),
    );
    out(`session load, journal from before redaction stamps (every record redacted again): median ${fmt(old.ms)} ms (runs: ${old.loads.map((v) => fmt(v)).join(", ")}; CPU median ${fmt(old.cpuMs)} ms)`);
    out(`  its first load (no cached replay yet): ${fmt(old.first.ms)} ms (CPU ${fmt(old.first.cpuMs)} ms)`);

    for (let i = 0; i < sessionCount; i++) writeBigSession(many.home, `s${String(i).padStart(5, "0")}`, project, 8);
    const withMany: number[] = [];
    const withNone: number[] = [];
    for (let i = 0; i < runs; i++) {
      withNone.push(await coldStart(empty.home));
      withMany.push(await coldStart(many.home));
    }
    const none = median(withNone);
    const full = median(withMany);
    out(`startup: initialize answered after median ${fmt(full)} ms with ${sessionCount} sessions on disk, ${fmt(none)} ms with none (ratio ${fmt(full / none, 2)}x; target: no slower)`);
    const rows: BenchRow[] = [
      { metric: `session load + replay (${messages} messages)`, value: `${fmt(loadMs)} ms`, target: `<= ${LOAD_TARGET_MS} ms`, ok: loadMs <= LOAD_TARGET_MS },
      { metric: `session load, agent main-thread CPU`, value: `${fmt(current.cpuMs)} ms`, target: "" },
      { metric: `first session load (builds the replay cache)`, value: `${fmt(current.first.ms)} ms (CPU ${fmt(current.first.cpuMs)} ms)`, target: "" },
      { metric: `first load in a new process after live use`, value: `${fmt(afterLive.ms)} ms (CPU ${fmt(afterLive.cpuMs)} ms)${afterLive.cached ? "" : ", not cached"}`, target: `<= ${LOAD_TARGET_MS} ms`, ok: afterLive.cached && afterLive.ms <= LOAD_TARGET_MS },
      { metric: `session load + replay, unstamped journal`, value: `${fmt(old.ms)} ms`, target: "" },
      { metric: `startup with ${sessionCount} sessions / none`, value: `${fmt(full)} / ${fmt(none)} ms`, target: "no slower", ok: full <= none * 1.1 },
    ];
    reportRows("session-load", rows);
  } finally {
    for (const home of [big, many, empty]) home.cleanup();
    rmSync(project, { recursive: true, force: true });
  }
}

await main();
