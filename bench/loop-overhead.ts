// Agent-loop overhead: one prompt in which the scripted model asks for K cheap tool calls,
// one per model request, then answers with text. The model adds no delay (chunkDelayMs 0).
// For each iteration, the time spent in Hermes is
//   arrival(request i+1) - responseEnd(response i)
// i.e. parsing the stream, running the tool, sending the ACP updates and building and
// sending the next request; model time is excluded (bench/timed-model.ts stamps both ends).
// Target: median <= 2 ms.
//   node --import tsx bench/loop-overhead.ts     (BENCH_ITERATIONS=50, BENCH_TOOL=mixed|todo|read_file,
//                                                 BENCH_VERBOSE=1 prints every iteration)
import { spawn } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { ScriptedReply } from "../test/support/scripted-model";
import { benchEnv, type BenchRow, ensureBuilt, fmt, INITIALIZE_PARAMS, intFromEnv, LineClient, makeHome, makeTempDir, median, modelConfig, percentile, readCpuMs, reportRows } from "./lib";
import { startTimedModel } from "./timed-model";

const TARGET_MEDIAN_MS = 2;
/** Issue 15: the agent's time per iteration at most this much above the bare-fetch floor. */
const TARGET_ABOVE_FLOOR_MS = 1;
type ToolChoice = "todo" | "read_file";

function toolFor(i: number, mode: string): ToolChoice {
  if (mode === "todo" || mode === "read_file") return mode;
  return i % 2 === 0 ? "todo" : "read_file";
}

function toolReply(i: number, tool: ToolChoice): ScriptedReply {
  const id = `bench_${i}`;
  if (tool === "read_file") return { toolCalls: [{ id, name: "read_file", arguments: { path: "notes.txt" } }] };
  const todos = [
    { id: "1", content: "Read the notes", status: "completed" },
    { id: "2", content: `Step ${i}`, status: "in_progress" },
    { id: "3", content: "Answer", status: "pending" },
  ];
  return { toolCalls: [{ id, name: "todo", arguments: { todos } }] };
}

// The floor of this measurement on this machine: a bare Node fetch() client that reads each
// streamed response to the end and immediately sends the next request (no SDK, no tools, no ACP).
// It prints the CPU time its requests took (after the first, which loads fetch).
const BARE_CLIENT = `
const [url, count] = process.argv.slice(1);
const body = JSON.stringify({ model: "m", stream: true, messages: [{ role: "user", content: "x".repeat(2000) }] });
let cpu;
for (let i = 0; i < Number(count); i++) {
  if (i === 1) cpu = process.cpuUsage();
  const response = await fetch(url + "/chat/completions", { method: "POST", headers: { "content-type": "application/json" }, body });
  await response.text();
}
const used = process.cpuUsage(cpu);
process.stdout.write(String((used.user + used.system) / 1000));`;

async function bareClientFloor(iterations: number): Promise<{ gaps: number[]; cpuPerRequest: number }> {
  const timed = await startTimedModel({ fallback: toolReply(0, "todo") });
  try {
    const child = spawn(process.execPath, ["--input-type=module", "-e", BARE_CLIENT, timed.url, String(iterations + 1)], { env: benchEnv(), stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    if (code !== 0) throw new Error(`bare fetch client exited ${code}`);
    const t = timed.timings;
    return { gaps: t.slice(0, -1).map((x, i) => t[i + 1].arrival - x.responseEnd), cpuPerRequest: Number(out) / iterations };
  } finally {
    await timed.close();
  }
}

async function main(): Promise<void> {
  ensureBuilt();
  const iterations = intFromEnv("BENCH_ITERATIONS", 50);
  const mode = process.env.BENCH_TOOL ?? "mixed";
  if (!["mixed", "todo", "read_file"].includes(mode)) throw new Error(`BENCH_TOOL must be mixed, todo or read_file, got ${mode}`);

  const timed = await startTimedModel();
  const project = makeTempDir("hermes-bench-project-");
  writeFileSync(path.join(project, "notes.txt"), "alpha\nbeta\ngamma\ndelta\n");
  const { home, cleanup } = makeHome(modelConfig(timed.url, { agent: { max_turns: iterations + 10 } }));
  const client = new LineClient(benchEnv({ HERMES_HOME: home }), project, process.env.BENCH_PROF ? ["--cpu-prof", "--cpu-prof-interval", process.env.BENCH_PROF_INTERVAL ?? "1000", "--cpu-prof-dir", process.env.BENCH_PROF] : []);
  try {
    const tools: ToolChoice[] = [];
    for (let i = 0; i < iterations; i++) {
      tools.push(toolFor(i, mode));
      timed.model.enqueue({ ...toolReply(i, tools[i]), chunkDelayMs: 0 });
    }
    timed.model.enqueue({ text: "BENCH-DONE: all steps ran.", chunkDelayMs: 0 });

    await client.request("initialize", INITIALIZE_PARAMS);
    const { sessionId } = await client.request("session/new", { cwd: project, mcpServers: [] });
    const cpuBefore = readCpuMs(client.pid);
    const promptSent = performance.now();
    const result = await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "Run the benchmark steps." }] });
    const promptDone = performance.now();
    const cpuAfter = readCpuMs(client.pid);

    const t = timed.timings;
    if (result.stopReason !== "end_turn") throw new Error(`unexpected stopReason ${result.stopReason}`);
    if (t.length !== iterations + 1) throw new Error(`expected ${iterations + 1} model requests, got ${t.length}; stderr:\n${client.stderr}`);
    const toolErrors = timed.model.requests
      .flatMap((r) => r.body.messages as any[])
      .filter((m) => m.role === "tool" && /error/i.test(String(m.content).slice(0, 200)));
    if (toolErrors.length > 0) throw new Error(`a tool call failed: ${JSON.stringify(toolErrors[0]).slice(0, 400)}`);

    const agent: number[] = [];
    for (let i = 0; i < iterations; i++) agent.push(t[i + 1].arrival - t[i].responseEnd);
    const modelTime = t.reduce((sum, x) => sum + (x.responseEnd - x.arrival), 0);
    const wall = promptDone - promptSent;
    const beforeFirst = t[0].arrival - promptSent;
    const afterLast = promptDone - t[iterations].responseEnd;
    const byTool = (tool: ToolChoice) => agent.filter((_, i) => tools[i] === tool);
    const head = agent.slice(0, Math.min(10, iterations));
    const tail = agent.slice(-Math.min(10, iterations));
    const med = median(agent);

    const out = (line: string) => process.stdout.write(`${line}\n`);
    const { gaps: floor, cpuPerRequest: floorCpu } = await bareClientFloor(iterations);
    // The agent's CPU time for the whole turn, per model request (iterations + the answer).
    const agentCpu = cpuBefore === undefined || cpuAfter === undefined ? NaN : (cpuAfter - cpuBefore) / (iterations + 1);
    if (process.env.BENCH_VERBOSE === "1") {
      for (const [i, x] of t.entries()) {
        const next = i < iterations ? ` agent ${fmt(agent[i], 2)} ms (${tools[i]})` : "";
        out(`  request ${i}: model ${fmt(x.responseEnd - x.arrival, 2)} ms${next}`);
      }
    }
    out(
      `loop overhead: ${iterations} tool iterations (${mode}) + final answer, scripted model without delays ` +
        `(load average ${os.loadavg()[0].toFixed(2)} on ${os.availableParallelism()} CPUs)`,
    );
    out(
      `loop overhead: agent time per iteration median ${fmt(med, 2)} ms (p90 ${fmt(percentile(agent, 90), 2)}, ` +
        `min ${fmt(Math.min(...agent), 2)}, max ${fmt(Math.max(...agent), 2)}) (target median <= ${TARGET_MEDIAN_MS} ms)`,
    );
    if (mode === "mixed") {
      for (const tool of ["todo", "read_file"] as const) {
        const values = byTool(tool);
        out(`  ${tool.padEnd(9)} median ${fmt(median(values), 2)} ms (p90 ${fmt(percentile(values, 90), 2)}, n=${values.length})`);
      }
    }
    out(`  first ${head.length} iterations median ${fmt(median(head), 2)} ms, last ${tail.length} median ${fmt(median(tail), 2)} ms (history grows each step)`);
    out(`  measurement floor: a bare fetch() client (no SDK, tools or ACP) measures median ${fmt(median(floor), 2)} ms (p90 ${fmt(percentile(floor, 90), 2)})`);
    out(`  agent time above the floor (medians): ${fmt(med - median(floor), 2)} ms (target <= ${TARGET_ABOVE_FLOOR_MS} ms)`);
    out(
      `  CPU time (steadier than wall time on a loaded machine): agent ${fmt(agentCpu, 2)} ms per model request, ` +
        `bare fetch() client ${fmt(floorCpu, 2)} ms per request; difference ${fmt(agentCpu - floorCpu, 2)} ms`,
    );
    out(`  prompt received -> first model request ${fmt(beforeFirst, 2)} ms; last response end -> prompt result ${fmt(afterLast, 2)} ms`);
    out(
      `turn wall time ${fmt(wall, 0)} ms for ${iterations + 1} model requests: model side ${fmt(modelTime, 0)} ms, ` +
        `agent side ${fmt(wall - modelTime, 0)} ms (${fmt((wall - modelTime) / (iterations + 1), 2)} ms per request incl. ACP round trip); ` +
        `${client.notifications} session/update notifications`,
    );

    const rows: BenchRow[] = [
      { metric: `loop overhead per iteration (median, K=${iterations})`, value: `${fmt(med, 2)} ms`, target: `<= ${TARGET_MEDIAN_MS} ms`, ok: med <= TARGET_MEDIAN_MS },
      { metric: "loop overhead per iteration (p90)", value: `${fmt(percentile(agent, 90), 2)} ms`, target: "" },
      { metric: "loop: measurement floor (bare fetch, median)", value: `${fmt(median(floor), 2)} ms`, target: "" },
      { metric: "loop overhead above the floor (medians)", value: `${fmt(med - median(floor), 2)} ms`, target: `<= ${TARGET_ABOVE_FLOOR_MS} ms`, ok: med - median(floor) <= TARGET_ABOVE_FLOOR_MS },
      { metric: "loop: agent CPU per model request", value: `${fmt(agentCpu, 2)} ms`, target: "" },
      { metric: "loop: bare fetch CPU per request", value: `${fmt(floorCpu, 2)} ms`, target: "" },
      { metric: "loop: turn wall time", value: `${fmt(wall, 0)} ms`, target: "" },
    ];
    reportRows("loop-overhead", rows);
  } finally {
    await client.close();
    await timed.close();
    cleanup();
    rmSync(project, { recursive: true, force: true });
  }
}

await main();
