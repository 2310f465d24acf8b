// Agent-loop overhead: prompts in which the scripted model asks for K cheap tool calls, one
// per model request, then answers with text. The model adds no delay (chunkDelayMs 0).
// For each iteration, the time spent in Hermes is
//   arrival(request i+1) - responseEnd(response i)
// i.e. parsing the stream, running the tool, sending the ACP updates and building and
// sending the next request; model time is excluded (bench/timed-model.ts stamps both ends).
// The agent's main-thread CPU time over the same gap is read at both stamps too: unlike the
// wall gap, the machine's load hardly moves it.
//
// Two prompts run in one session. The first is the process's first turn: its first iterations
// pay for compiling and optimizing the code they run (JIT) and share the thread with one-time
// start-up work (the workspace's checkpoint store, the session index). The second is the same
// work in a warm process, which is what nearly every iteration of a long-lived agent is; the
// floor it is compared with (a bare fetch() loop) is measured warm too (its CPU figure leaves
// out its first request). Issue 15's target (<= 1 ms above the floor) is judged on the warm
// turn; both turns' figures are printed.
// Target: median <= 2 ms.
//   node --import tsx bench/loop-overhead.ts     (BENCH_ITERATIONS=50, BENCH_TOOL=mixed|todo|read_file,
//                                                 BENCH_VERBOSE=1 prints every iteration)
import { spawn } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { RecordedRequest, ScriptedReply } from "../test/support/scripted-model";
import { benchEnv, type BenchRow, ensureBuilt, fmt, INITIALIZE_PARAMS, intFromEnv, LineClient, makeHome, makeTempDir, median, modelConfig, percentile, readCpuMs, readMainThreadCpuMs, reportRows } from "./lib";
import { type RequestTiming, startTimedModel } from "./timed-model";

const TARGET_MEDIAN_MS = 2;
/** Issue 15: the agent's time per iteration at most this much above the bare-fetch floor. */
const TARGET_ABOVE_FLOOR_MS = 1;
type ToolChoice = "todo" | "read_file";

function toolFor(i: number, mode: string): ToolChoice {
  if (mode === "todo" || mode === "read_file") return mode;
  return i % 2 === 0 ? "todo" : "read_file";
}

/** The prompt of bench turn `turn`: the scripted model tells the bench's calls from background ones by it. */
const promptText = (turn: number) => `Run the benchmark steps (turn ${turn}).`;

/** The bench turn a model request belongs to (its last user message is exactly a bench prompt), else undefined. */
function benchTurnOf(body: any): { turn: number; toolResults: number } | undefined {
  const messages: any[] = Array.isArray(body?.messages) ? body.messages : [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const match = messages[i].role === "user" && typeof messages[i].content === "string" ? /^Run the benchmark steps \(turn (\d+)\)\.$/.exec(messages[i].content) : null;
    if (match) return { turn: Number(match[1]), toolResults: messages.slice(i + 1).filter((m) => m.role === "tool").length };
  }
  return undefined;
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

async function bareClientFloor(iterations: number): Promise<{ gaps: number[]; cpu: number[]; cpuPerRequest: number }> {
  const timed = await startTimedModel({ fallback: toolReply(0, "todo") });
  try {
    const child = spawn(process.execPath, ["--input-type=module", "-e", BARE_CLIENT, timed.url, String(iterations + 1)], { env: benchEnv(), stdio: ["ignore", "pipe", "inherit"] });
    timed.clientCpu = () => readMainThreadCpuMs(child.pid!);
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    if (code !== 0) throw new Error(`bare fetch client exited ${code}`);
    const t = timed.timings;
    return { gaps: gapsOf(t), cpu: cpuGapsOf(t), cpuPerRequest: Number(out) / iterations };
  } finally {
    await timed.close();
  }
}

/** Wall time between each response's end and the next request's arrival. */
const gapsOf = (t: RequestTiming[]) => t.slice(0, -1).map((x, i) => t[i + 1]!.arrival - x.responseEnd);
/** The client's main-thread CPU time over the same gaps. */
const cpuGapsOf = (t: RequestTiming[]) => t.slice(0, -1).map((x, i) => t[i + 1]!.cpuAtArrival - x.cpuAtResponseEnd);

interface TurnFigures {
  timings: RequestTiming[];
  /** Wall time per iteration, and the agent's main-thread CPU per iteration. */
  agent: number[];
  cpu: number[];
  wall: number;
  beforeFirst: number;
  afterLast: number;
  /** Whole-process CPU (all threads, 10 ms ticks) per model request of the turn. */
  cpuPerRequest: number;
}

async function main(): Promise<void> {
  ensureBuilt();
  const iterations = intFromEnv("BENCH_ITERATIONS", 50);
  const mode = process.env.BENCH_TOOL ?? "mixed";
  if (!["mixed", "todo", "read_file"].includes(mode)) throw new Error(`BENCH_TOOL must be mixed, todo or read_file, got ${mode}`);
  const tools: ToolChoice[] = Array.from({ length: iterations }, (_, i) => toolFor(i, mode));

  // Every reply is computed from the request: the bench turns' calls get their tool calls and
  // answer; anything else (the learning review, the curator) gets a short text and never takes
  // a reply meant for a bench turn.
  const timed = await startTimedModel({
    fallback: {
      handler: (request: RecordedRequest) => {
        const bench = benchTurnOf(request.body);
        if (!bench) return { text: "Nothing worth saving.", chunkDelayMs: 0 };
        const i = bench.toolResults;
        return i < iterations ? { ...toolReply(i, tools[i]!), chunkDelayMs: 0 } : { text: "BENCH-DONE: all steps ran.", chunkDelayMs: 0 };
      },
    },
  });
  const project = makeTempDir("hermes-bench-project-");
  writeFileSync(path.join(project, "notes.txt"), "alpha\nbeta\ngamma\ndelta\n");
  const { home, cleanup } = makeHome(modelConfig(timed.url, { agent: { max_turns: iterations + 10 } }));
  const client = new LineClient(benchEnv({ HERMES_HOME: home }), project, process.env.BENCH_PROF ? ["--cpu-prof", "--cpu-prof-interval", process.env.BENCH_PROF_INTERVAL ?? "1000", "--cpu-prof-dir", process.env.BENCH_PROF] : []);
  timed.clientCpu = () => readMainThreadCpuMs(client.pid);
  try {
    await client.request("initialize", INITIALIZE_PARAMS);
    const { sessionId } = await client.request("session/new", { cwd: project, mcpServers: [] });

    const runBenchTurn = async (turn: number): Promise<TurnFigures> => {
      const cpuBefore = readCpuMs(client.pid);
      const promptSent = performance.now();
      const result = await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: promptText(turn) }] });
      const promptDone = performance.now();
      const cpuAfter = readCpuMs(client.pid);
      if (result.stopReason !== "end_turn") throw new Error(`unexpected stopReason ${result.stopReason}`);
      const t = timed.timings.filter((x) => benchTurnOf(JSON.parse(x.body))?.turn === turn);
      if (t.length !== iterations + 1) throw new Error(`turn ${turn}: expected ${iterations + 1} model requests, got ${t.length}; stderr:\n${client.stderr}`);
      return {
        timings: t,
        agent: gapsOf(t),
        cpu: cpuGapsOf(t),
        wall: promptDone - promptSent,
        beforeFirst: t[0]!.arrival - promptSent,
        afterLast: promptDone - t[iterations]!.responseEnd,
        cpuPerRequest: cpuBefore === undefined || cpuAfter === undefined ? NaN : (cpuAfter - cpuBefore) / (iterations + 1),
      };
    };
    const cold = await runBenchTurn(1);
    const notificationsCold = client.notifications;
    // Sent as soon as the first answers: a prompt stops the learning review the first turn started.
    const warm = await runBenchTurn(2);

    const toolErrors = timed.model.requests
      .filter((r) => benchTurnOf(r.body) !== undefined)
      .flatMap((r) => r.body.messages as any[])
      .filter((m) => m.role === "tool" && /error/i.test(String(m.content).slice(0, 200)));
    if (toolErrors.length > 0) throw new Error(`a tool call failed: ${JSON.stringify(toolErrors[0]).slice(0, 400)}`);

    const out = (line: string) => process.stdout.write(`${line}\n`);
    const { gaps: floor, cpu: floorCpuGaps, cpuPerRequest: floorCpu } = await bareClientFloor(iterations);
    const floorMedian = median(floor);
    const floorCpuMedian = median(floorCpuGaps);
    out(
      `loop overhead: ${iterations} tool iterations (${mode}) + final answer per prompt, two prompts in one session, scripted model without delays ` +
        `(load average ${os.loadavg()[0].toFixed(2)} on ${os.availableParallelism()} CPUs)`,
    );
    out(`  measurement floor: a bare fetch() client (no SDK, tools or ACP) measures median ${fmt(floorMedian, 2)} ms (p90 ${fmt(percentile(floor, 90), 2)}), main-thread CPU median ${fmt(floorCpuMedian, 2)} ms per iteration`);
    for (const [label, figures] of [["first turn of the process (cold)", cold], ["second turn (warm)", warm]] as const) {
      const { agent, cpu, timings: t } = figures;
      const med = median(agent);
      const byTool = (values: number[], tool: ToolChoice) => values.filter((_, i) => tools[i] === tool);
      const head = agent.slice(0, Math.min(10, iterations));
      const tail = agent.slice(-Math.min(10, iterations));
      out(`${label}:`);
      if (process.env.BENCH_VERBOSE === "1") {
        for (const [i, x] of t.entries()) {
          const next = i < iterations ? ` agent ${fmt(agent[i]!, 2)} ms, CPU ${fmt(cpu[i]!, 2)} ms (${tools[i]})` : "";
          out(`  request ${i}: model ${fmt(x.responseEnd - x.arrival, 2)} ms${next}`);
        }
      }
      out(`  agent time per iteration median ${fmt(med, 2)} ms (p90 ${fmt(percentile(agent, 90), 2)}, min ${fmt(Math.min(...agent), 2)}, max ${fmt(Math.max(...agent), 2)}) (target median <= ${TARGET_MEDIAN_MS} ms)`);
      if (mode === "mixed") {
        for (const tool of ["todo", "read_file"] as const) {
          out(`    ${tool.padEnd(9)} median ${fmt(median(byTool(agent, tool)), 2)} ms (p90 ${fmt(percentile(byTool(agent, tool), 90), 2)}), CPU median ${fmt(median(byTool(cpu, tool)), 2)} ms`);
        }
      }
      out(`    first ${head.length} iterations median ${fmt(median(head), 2)} ms, last ${tail.length} median ${fmt(median(tail), 2)} ms (history grows each step)`);
      out(`  agent time above the floor (medians): ${fmt(med - floorMedian, 2)} ms (target <= ${TARGET_ABOVE_FLOOR_MS} ms)`);
      out(
        `  main-thread CPU per iteration (load-steady): agent median ${fmt(median(cpu), 2)} ms (p90 ${fmt(percentile(cpu, 90), 2)}), ` +
          `bare fetch() client ${fmt(floorCpuMedian, 2)} ms; above the floor ${fmt(median(cpu) - floorCpuMedian, 2)} ms`,
      );
      out(`  process CPU (all threads) per model request: agent ${fmt(figures.cpuPerRequest, 2)} ms, bare fetch() client ${fmt(floorCpu, 2)} ms per request`);
      out(`  prompt received -> first model request ${fmt(figures.beforeFirst, 2)} ms; last response end -> prompt result ${fmt(figures.afterLast, 2)} ms`);
      const modelTime = t.reduce((sum, x) => sum + (x.responseEnd - x.arrival), 0);
      out(
        `  turn wall time ${fmt(figures.wall, 0)} ms for ${iterations + 1} model requests: model side ${fmt(modelTime, 0)} ms, ` +
          `agent side ${fmt(figures.wall - modelTime, 0)} ms (${fmt((figures.wall - modelTime) / (iterations + 1), 2)} ms per request incl. ACP round trip)`,
      );
    }
    out(`session/update notifications: ${notificationsCold} in the first turn, ${client.notifications - notificationsCold} in the second`);

    const warmMedian = median(warm.agent);
    const rows: BenchRow[] = [
      { metric: `loop overhead per iteration (median, K=${iterations}, warm)`, value: `${fmt(warmMedian, 2)} ms`, target: `<= ${TARGET_MEDIAN_MS} ms`, ok: warmMedian <= TARGET_MEDIAN_MS },
      { metric: "loop overhead per iteration (p90, warm)", value: `${fmt(percentile(warm.agent, 90), 2)} ms`, target: "" },
      { metric: "loop overhead per iteration (median, first turn)", value: `${fmt(median(cold.agent), 2)} ms`, target: "" },
      { metric: "loop: measurement floor (bare fetch, median)", value: `${fmt(floorMedian, 2)} ms`, target: "" },
      { metric: "loop overhead above the floor (medians, warm)", value: `${fmt(warmMedian - floorMedian, 2)} ms`, target: `<= ${TARGET_ABOVE_FLOOR_MS} ms`, ok: warmMedian - floorMedian <= TARGET_ABOVE_FLOOR_MS },
      { metric: "loop overhead above the floor (medians, first turn)", value: `${fmt(median(cold.agent) - floorMedian, 2)} ms`, target: "" },
      { metric: "loop: main-thread CPU per iteration above the floor (warm)", value: `${fmt(median(warm.cpu) - floorCpuMedian, 2)} ms`, target: "" },
      { metric: "loop: agent CPU per model request (first turn, all threads)", value: `${fmt(cold.cpuPerRequest, 2)} ms`, target: "" },
      { metric: "loop: bare fetch CPU per request", value: `${fmt(floorCpu, 2)} ms`, target: "" },
      { metric: "loop: prompt received -> first model request", value: `${fmt(cold.beforeFirst, 1)} ms`, target: "" },
      { metric: "loop: turn wall time (first turn)", value: `${fmt(cold.wall, 0)} ms`, target: "" },
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
