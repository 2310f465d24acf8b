// Cold start: how long from spawning `node dist/hermes.js acp` until the initialize
// response line arrives, against a bare `node -e 0` spawn-to-exit measured in the same run
// (interleaved, so machine noise hits both alike). Target: hermes <= 2x bare node.
// NODE_EXTRA_CA_CERTS (set on this machine) makes every Node start load a CA bundle, so a
// second comparison runs both with it removed from the environment.
//   node --import tsx bench/cold-start.ts        (BENCH_RUNS=15 by default)
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import { benchEnv, type BenchRow, ensureBuilt, fmt, HERMES_BIN, INITIALIZE_PARAMS, intFromEnv, makeHome, median, modelConfig, percentile, readMainThreadCpuMs, reportRows, ROOT } from "./lib";

const TARGET_RATIO = 2;
/** Issue 15's target for the start without NODE_EXTRA_CA_CERTS. */
const TARGET_RATIO_WITHOUT_CA = 1.3;

// The least any Node program can do to answer initialize: read the line, write an answer.
const BARE_ANSWER = `process.stdin.once("data", (d) => { const m = JSON.parse(String(d)); process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: m.id, result: {} }) + "\\n"); });`;

/** CPU time of the main thread (ms) at the moment each answered initialize. */
const cpuAtAnswer: { hermes: number[]; bare: number[] } = { hermes: [], bare: [] };

/** Spawn to the initialize response line, in ms; the agent is killed (and reaped) afterwards. */
function hermesInitialize(env: NodeJS.ProcessEnv, argv: string[] = [HERMES_BIN, "acp"], cpu: number[] = cpuAtAnswer.hermes): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, argv, { env, cwd: ROOT, stdio: ["pipe", "pipe", "pipe"] });
    let elapsed: number | undefined;
    let buffer = "";
    let stderr = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => (stderr += chunk));
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      if (elapsed !== undefined) return;
      buffer += chunk;
      for (const line of buffer.split("\n").slice(0, -1)) {
        const message = JSON.parse(line);
        if (message.id === 0 && (message.result || message.error)) {
          elapsed = performance.now() - start;
          const used = readMainThreadCpuMs(child.pid!);
          if (used !== undefined) cpu.push(used);
          if (message.error) return reject(new Error(`initialize failed: ${line}`));
          child.kill("SIGKILL");
          return;
        }
      }
    });
    child.once("error", reject);
    child.once("exit", () => {
      if (elapsed !== undefined) resolve(elapsed);
      else reject(new Error(`hermes exited before answering initialize; stderr:\n${stderr}`));
    });
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: INITIALIZE_PARAMS })}\n`);
  });
}

/** Spawn to exit of `node -e 0`, in ms. */
function bareNode(env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, ["-e", "0"], { env, cwd: ROOT, stdio: "ignore" });
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve(performance.now() - start) : reject(new Error(`node -e 0 exited ${code}`))));
  });
}

interface Comparison {
  hermes: number[];
  bare: number[];
}

async function compare(runs: number, env: NodeJS.ProcessEnv): Promise<Comparison> {
  const result: Comparison = { hermes: [], bare: [] };
  cpuAtAnswer.hermes = [];
  cpuAtAnswer.bare = [];
  // One untimed warm-up of each, so the first timed run does not pay for a cold page cache.
  await hermesInitialize(env);
  await bareNode(env);
  for (let i = 0; i < runs; i++) {
    // Alternate which goes first, so neither always follows the other.
    if (i % 2 === 0) {
      result.hermes.push(await hermesInitialize(env));
      result.bare.push(await bareNode(env));
    } else {
      result.bare.push(await bareNode(env));
      result.hermes.push(await hermesInitialize(env));
    }
    await hermesInitialize(env, ["-e", BARE_ANSWER], cpuAtAnswer.bare);
  }
  return result;
}

/** The same comparison in CPU time of the main thread, which a loaded machine hardly moves. */
function describeCpu(label: string): string {
  const hermes = median(cpuAtAnswer.hermes);
  const bare = median(cpuAtAnswer.bare);
  if (!Number.isFinite(hermes) || !Number.isFinite(bare)) return `cold start${label}: no CPU figures (needs /proc/<pid>/schedstat)`;
  return `cold start${label}, main-thread CPU time until initialize is answered: hermes median ${fmt(hermes, 1)} ms, a bare node script answering it ${fmt(bare, 1)} ms, ratio ${fmt(hermes / bare, 2)}x`;
}

function describe(label: string, c: Comparison, target = TARGET_RATIO): { line: string; ratio: number; hermesMedian: number; bareMedian: number } {
  const hermesMedian = median(c.hermes);
  const bareMedian = median(c.bare);
  const ratio = hermesMedian / bareMedian;
  const line =
    `cold start${label}: hermes initialize median ${fmt(hermesMedian, 0)} ms (p90 ${fmt(percentile(c.hermes, 90), 0)}), ` +
    `bare node -e 0 median ${fmt(bareMedian, 0)} ms (p90 ${fmt(percentile(c.bare, 90), 0)}), ` +
    `ratio ${fmt(ratio, 2)}x (target <= ${target}x)`;
  return { line, ratio, hermesMedian, bareMedian };
}

async function main(): Promise<void> {
  ensureBuilt();
  const runs = intFromEnv("BENCH_RUNS", 15);
  const { home, cleanup } = makeHome(modelConfig("http://127.0.0.1:9/v1"));
  try {
    process.stdout.write(`cold start: ${runs} runs each, interleaved (node ${process.version}, dist/hermes.js)\n`);
    const withCa = process.env.NODE_EXTRA_CA_CERTS;
    const env = benchEnv({ HERMES_HOME: home });
    const primary = describe(withCa ? ` (NODE_EXTRA_CA_CERTS=${withCa})` : "", await compare(runs, env));
    process.stdout.write(`${primary.line}\n${describeCpu("")}\n`);

    const rows: BenchRow[] = [
      { metric: "cold start: hermes initialize (median)", value: `${fmt(primary.hermesMedian, 0)} ms`, target: "" },
      { metric: "cold start: bare node -e 0 (median)", value: `${fmt(primary.bareMedian, 0)} ms`, target: "" },
      { metric: "cold start: ratio", value: `${fmt(primary.ratio, 2)}x`, target: `<= ${TARGET_RATIO}x`, ok: primary.ratio <= TARGET_RATIO },
    ];
    if (withCa) {
      const bare = describe(" without NODE_EXTRA_CA_CERTS", await compare(runs, benchEnv({ HERMES_HOME: home, NODE_EXTRA_CA_CERTS: undefined })), TARGET_RATIO_WITHOUT_CA);
      process.stdout.write(`${bare.line}\n${describeCpu(" without NODE_EXTRA_CA_CERTS")}\n`);
      process.stdout.write(
        `NODE_EXTRA_CA_CERTS costs ${fmt(primary.bareMedian - bare.bareMedian, 0)} ms per bare node start and ` +
          `${fmt(primary.hermesMedian - bare.hermesMedian, 0)} ms per hermes start (medians)\n`,
      );
      rows.push(
        { metric: "cold start w/o NODE_EXTRA_CA_CERTS: hermes", value: `${fmt(bare.hermesMedian, 0)} ms`, target: "" },
        { metric: "cold start w/o NODE_EXTRA_CA_CERTS: bare node", value: `${fmt(bare.bareMedian, 0)} ms`, target: "" },
        { metric: "cold start w/o NODE_EXTRA_CA_CERTS: ratio", value: `${fmt(bare.ratio, 2)}x`, target: `<= ${TARGET_RATIO_WITHOUT_CA}x`, ok: bare.ratio <= TARGET_RATIO_WITHOUT_CA },
      );
    }
    reportRows("cold-start", rows);
  } finally {
    cleanup();
  }
}

await main();
