// Memory: resident set size of `hermes acp` (from /proc/<pid>/status) right after it answered
// initialize and again 0.5 s later (the agent may keep loading after its early answer), then
// after session/new plus one short scripted prompt turn (two tool calls and a text answer).
// Target: <= 80 MB after initialize. VmHWM is the peak RSS so far.
//   node --import tsx bench/rss.ts       (Linux only)
import { spawn } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { startScriptedModel } from "../test/support/scripted-model";
import { benchEnv, type BenchRow, ensureBuilt, fmt, INITIALIZE_PARAMS, LineClient, makeHome, makeTempDir, modelConfig, readRss, reportRows, sleep } from "./lib";

const TARGET_MB = 80;

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

async function main(): Promise<void> {
  if (process.platform !== "linux") throw new Error("bench/rss.ts reads /proc/<pid>/status: Linux only");
  ensureBuilt();
  const model = await startScriptedModel();
  const project = makeTempDir("hermes-bench-project-");
  writeFileSync(path.join(project, "notes.txt"), "alpha\nbeta\ngamma\n");
  const { home, cleanup } = makeHome(modelConfig(model.url));
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
