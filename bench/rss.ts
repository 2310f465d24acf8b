// Memory: resident set size of `hermes acp` (from /proc/<pid>/status) right after it answered
// initialize and again 0.5 s later (the agent may keep loading after its early answer), then
// after session/new plus one short scripted prompt turn (two tool calls and a text answer),
// then over a long session: BENCH_TURNS (200) more turns, each a read_file call and an answer.
// Targets: <= 80 MB after initialize; <= 120 MB after 200 turns, flat after turn 100: RSS settled
// (SETTLE_MS idle) after the 200 turns and again after 100 more, within what the session's own
// history adds. The back-to-back growth from turn 100 to 200 is printed too; it includes the
// garbage of the last turns, which the agent collects once idle. VmHWM is the peak RSS so far.
// BENCH_HISTORY=N starts the agent with N earlier sessions of 100 messages on disk, indexed in
// state.db (a user's history: the session index the first-prompt hint opens holds all of it).
// BENCH_IDLE_S=N then leaves the agent idle N seconds and samples again (the index is closed
// after a minute without queries: sessions/session-store.ts).
//   node --import tsx bench/rss.ts       (Linux only)
import { spawn } from "node:child_process";
import { mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { SessionStore } from "../acp-server/sessions/session-store";
import type { JournalRecord } from "../acp-server/sessions/types";
import { recordingLogger, sessionMeta } from "../test/support/session-fixtures";
import { startScriptedModel } from "../test/support/scripted-model";
import { Corpus } from "./session-corpus";
import { benchEnv, type BenchRow, ensureBuilt, fmt, intFromEnv, INITIALIZE_PARAMS, LineClient, makeHome, makeTempDir, modelConfig, readCpuMs, readRss, reportRows, sleep } from "./lib";

const TARGET_MB = 80;
const LONG_TARGET_MB = 120;
/** Growth allowed over 100 turns after turn 100 (the history itself grows by a few hundred KB). */
const FLAT_MB = 5;
/**
 * Idle time after which the agent's periodic full collection has run (util/heap-upkeep.ts: 1 s
 * after the old generation grew, at least 2 s apart). The bench's turns take ~10 ms each, so a
 * sample taken between them also holds the garbage of the last second or two of turns, which an
 * editor's turns (seconds each) never pile up: "flat" is judged on settled samples.
 */
const SETTLE_MS = 3_000;

/** RSS of an idle bare `node` (same flags and environment), for scale. */
async function bareNodeRss(): Promise<number> {
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { env: benchEnv(), stdio: "ignore" });
  try {
    await sleep(300);
    return readRss(child.pid!).rssMb;
  } finally {
    child.kill("SIGKILL");
  }
}

/** `sessions` earlier sessions of 100 messages in `home`, their index saved to state.db. */
async function writeHistory(home: string, cwd: string, sessions: number): Promise<void> {
  const dir = path.join(home, "sessions");
  mkdirSync(dir, { recursive: true });
  const corpus = new Corpus(11);
  const start = Date.now() - sessions * 3_600_000;
  for (let s = 0; s < sessions; s++) {
    const id = `history-${String(s).padStart(5, "0")}`;
    const createdAt = start + s * 3_600_000;
    const records: JournalRecord[] = [{ t: "meta", v: 1, at: createdAt, session: sessionMeta(id, s % 2 === 0 ? cwd : `/work/other-${s % 7}`, createdAt) }];
    for (let seq = 0; seq < 100; seq++) records.push(corpus.message(seq, createdAt + 1_000 * (seq + 1)));
    writeFileSync(path.join(dir, `${id}.jsonl`), records.map((record) => `${JSON.stringify(record)}\n`).join(""));
  }
  const store = new SessionStore({ home, log: recordingLogger() });
  await store.list({ limit: 1 });
  await store.close();
}

async function main(): Promise<void> {
  if (process.platform !== "linux") throw new Error("bench/rss.ts reads /proc/<pid>/status: Linux only");
  ensureBuilt();
  const model = await startScriptedModel();
  const project = makeTempDir("hermes-bench-project-");
  writeFileSync(path.join(project, "notes.txt"), "alpha\nbeta\ngamma\n");
  const { home, cleanup } = makeHome(modelConfig(model.url));
  const history = intFromEnv("BENCH_HISTORY", 0);
  if (history > 0) {
    await writeHistory(home, project, history);
    process.stdout.write(`rss: history of ${history} sessions (${history * 100} messages), state.db ${fmt(statSync(path.join(home, "state.db")).size / 1e6)} MB\n`);
  }
  const client = new LineClient(benchEnv({ HERMES_HOME: home }), project);
  const out = (line: string) => process.stdout.write(`${line}\n`);
  try {
    await client.request("initialize", INITIALIZE_PARAMS);
    const afterInit = readRss(client.pid);
    await sleep(500);
    const settled = readRss(client.pid);

    model.enqueue(
      { toolCalls: [{ id: "r1", name: "read_file", arguments: { path: "notes.txt" } }] },
      { toolCalls: [{ id: "r2", name: "todo", arguments: { todos: [{ id: "1", content: "Answer", status: "in_progress" }] } }] },
      { text: "RSS-DONE: the notes list three words." },
    );
    const { sessionId } = await client.request("session/new", { cwd: project, mcpServers: [] });
    const result = await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "What is in notes.txt?" }] });
    if (result.stopReason !== "end_turn") throw new Error(`unexpected stopReason ${result.stopReason}`);
    if (model.requests.length !== 3) throw new Error(`expected 3 model requests, got ${model.requests.length}`);
    const afterTurn = readRss(client.pid);
    await sleep(500);
    const turnSettled = readRss(client.pid);

    // A long session: the same short turn again and again; RSS sampled along the way.
    const turns = intFromEnv("BENCH_TURNS", 200);
    const samples: { turn: number; rssMb: number }[] = [];
    // The agent's CPU over the long session (all its threads: garbage collection and compiles too),
    // the price of whatever keeps its memory down.
    const cpuBefore = readCpuMs(client.pid);
    for (let turn = 1; turn <= turns; turn++) {
      model.enqueue({ toolCalls: [{ id: `t${turn}`, name: "read_file", arguments: { path: "notes.txt" } }] }, { text: `Turn ${turn}: alpha, beta, gamma.` });
      const answer = await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: `Turn ${turn}: what is in notes.txt?` }] });
      if (answer.stopReason !== "end_turn") throw new Error(`turn ${turn}: unexpected stopReason ${answer.stopReason}`);
      if (turn === 1 || turn % 25 === 0 || turn === turns) samples.push({ turn, rssMb: readRss(client.pid).rssMb });
    }
    const cpuMs = (readCpuMs(client.pid) ?? Number.NaN) - (cpuBefore ?? Number.NaN);
    await sleep(500);
    const longSettled = readRss(client.pid);
    const at = (turn: number) => samples.find((sample) => sample.turn === turn)?.rssMb ?? Number.NaN;
    const growth = at(turns) - at(Math.floor(turns / 2));
    out(`rss: over ${turns} more turns: ${samples.map((sample) => `${sample.turn}: ${fmt(sample.rssMb)}`).join(", ")} MB; 0.5 s idle after ${fmt(longSettled.rssMb)} MB, peak ${fmt(longSettled.peakMb)} MB`);
    out(`rss: agent CPU over the ${turns} turns ${fmt(cpuMs, 0)} ms (${fmt(cpuMs / turns, 2)} ms per turn)`);
    out(
      `rss: after ${turns} turns ${fmt(at(turns))} MB (target <= ${LONG_TARGET_MB} MB); turn ${Math.floor(turns / 2)} → ${turns}, back to back: ` +
        `${growth >= 0 ? "+" : ""}${fmt(growth)} MB (garbage of the last turns included; flatness is judged settled, below)`,
    );

    // Retained memory: settled after the long session, then after 100 more turns, settled again.
    await sleep(SETTLE_MS);
    const settledBefore = readRss(client.pid).rssMb;
    for (let turn = turns + 1; turn <= turns + 100; turn++) {
      model.enqueue({ toolCalls: [{ id: `t${turn}`, name: "read_file", arguments: { path: "notes.txt" } }] }, { text: `Turn ${turn}: alpha, beta, gamma.` });
      const answer = await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: `Turn ${turn}: what is in notes.txt?` }] });
      if (answer.stopReason !== "end_turn") throw new Error(`turn ${turn}: unexpected stopReason ${answer.stopReason}`);
    }
    await sleep(SETTLE_MS);
    const settledAfter = readRss(client.pid).rssMb;
    const retained = settledAfter - settledBefore;
    out(
      `rss: settled (${SETTLE_MS / 1000} s idle: the agent's periodic full collection has run) after turn ${turns} ${fmt(settledBefore)} MB, ` +
        `after turn ${turns + 100} ${fmt(settledAfter)} MB: ${retained >= 0 ? "+" : ""}${fmt(retained)} MB per 100 turns (target: flat, <= ${FLAT_MB} MB)`,
    );

    const idleSeconds = intFromEnv("BENCH_IDLE_S", 0);
    if (idleSeconds > 0) {
      await sleep(idleSeconds * 1000);
      out(`rss: after ${idleSeconds} s idle ${fmt(readRss(client.pid).rssMb)} MB`);
    }

    const bare = await bareNodeRss();
    out(`rss: hermes acp after initialize ${fmt(afterInit.rssMb)} MB (after 0.5 s idle ${fmt(settled.rssMb)} MB) (target <= ${TARGET_MB} MB); idle bare node ${fmt(bare)} MB`);
    out(
      `rss: after session/new + a 3-request prompt turn ${fmt(afterTurn.rssMb)} MB (after 0.5 s idle ${fmt(turnSettled.rssMb)} MB), ` +
        `peak (VmHWM) ${fmt(turnSettled.peakMb)} MB`,
    );
    const rows: BenchRow[] = [
      { metric: "rss after initialize", value: `${fmt(afterInit.rssMb)} MB`, target: `<= ${TARGET_MB} MB`, ok: afterInit.rssMb <= TARGET_MB },
      { metric: "rss 0.5 s after initialize (idle)", value: `${fmt(settled.rssMb)} MB`, target: `<= ${TARGET_MB} MB`, ok: settled.rssMb <= TARGET_MB },
      { metric: "rss after one prompt turn", value: `${fmt(afterTurn.rssMb)} MB`, target: "" },
      { metric: "rss peak (VmHWM)", value: `${fmt(turnSettled.peakMb)} MB`, target: "" },
      { metric: `rss after ${turns} turns`, value: `${fmt(at(turns))} MB`, target: `<= ${LONG_TARGET_MB} MB`, ok: at(turns) <= LONG_TARGET_MB },
      { metric: `agent CPU per turn (${turns} turns)`, value: `${fmt(cpuMs / turns, 2)} ms`, target: "" },
      { metric: `rss growth, turn ${Math.floor(turns / 2)} → ${turns} (back to back)`, value: `${fmt(growth)} MB`, target: "" },
      { metric: `rss growth over 100 turns after turn ${turns}, settled`, value: `${fmt(retained)} MB`, target: `<= ${FLAT_MB} MB`, ok: retained <= FLAT_MB },
    ];
    reportRows("rss", rows);
  } finally {
    await client.close();
    await model.close();
    cleanup();
    rmSync(project, { recursive: true, force: true });
  }
}

await main();
