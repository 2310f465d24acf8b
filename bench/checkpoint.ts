// Checkpoint speed on a 10,000-file workspace (BENCH_FILES) in a temp folder: the first full
// checkpoint, then BENCH_RUNS (default 10) turns that each change 5 files and take a "pre"
// checkpoint before and a "post" checkpoint after; the incremental checkpoint time is the
// median of those. Then the time to plan and apply undoing the last turn. Target: incremental
// checkpoint <= 300 ms. Needs git on PATH.
//   node --import tsx bench/checkpoint.ts
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { openCheckpointStore } from "../acp-server/checkpoints/store";
import { type BenchRow, fmt, intFromEnv, makeTempDir, median, percentile, reportRows } from "./lib";

const TARGET_MS = 300;
const CHANGED_PER_TURN = 5;

function elapsed(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

async function main(): Promise<void> {
  const files = intFromEnv("BENCH_FILES", 10_000);
  const runs = intFromEnv("BENCH_RUNS", 10);
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const root = makeTempDir("hermes-bench-checkpoint-");
  const workspace = path.join(root, "workspace");
  const home = path.join(root, "home");
  try {
    const perDir = 100;
    for (let i = 0; i < files; i++) {
      const dir = path.join(workspace, "src", `pkg${Math.floor(i / perDir)}`);
      if (i % perDir === 0) mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, `module${i}.ts`), `// module ${i}\nexport function f${i}(x: number): number {\n  return x * ${i};\n}\n`);
    }
    writeFileSync(path.join(workspace, ".gitignore"), "node_modules/\ndist/\n");

    const opened = await openCheckpointStore(workspace, { hermesHome: home });
    if (!opened.ok) throw new Error(opened.reason);
    const store = opened.store;

    let start = process.hrtime.bigint();
    const first = await store.checkpoint({ sessionId: "bench", turn: 0, prompt: "first" });
    const fullMs = elapsed(start);
    if (!first.ok) throw new Error(first.reason);

    const pre: number[] = [];
    const post: number[] = [];
    for (let run = 1; run <= runs; run++) {
      start = process.hrtime.bigint();
      const result = await store.checkpoint({ sessionId: "bench", turn: run, prompt: `turn ${run}` });
      pre.push(elapsed(start));
      if (!result.ok) throw new Error(result.reason);
      for (let k = 0; k < CHANGED_PER_TURN; k++) {
        const i = (run * 997 + k * 1931) % files;
        const file = path.join(workspace, "src", `pkg${Math.floor(i / perDir)}`, `module${i}.ts`);
        writeFileSync(file, `// module ${i}, edited in turn ${run}\nexport const edited${i} = ${run};\n`);
      }
      start = process.hrtime.bigint();
      const after = await store.checkpoint({ sessionId: "bench", turn: run, phase: "post" });
      post.push(elapsed(start));
      if (!after.ok || after.changes.length !== CHANGED_PER_TURN) throw new Error(`expected ${CHANGED_PER_TURN} changed files, got ${after.ok ? after.changes.length : after.reason}`);
    }

    start = process.hrtime.bigint();
    const plan = await store.planUndo("bench");
    const planMs = elapsed(start);
    start = process.hrtime.bigint();
    const restored = await store.restore(plan);
    const restoreMs = elapsed(start);
    if (restored.applied.length !== CHANGED_PER_TURN || restored.failed.length > 0) throw new Error(`undo applied ${restored.applied.length} files`);

    const incremental = post; // the turn changed 5 files since the pre checkpoint
    out(`checkpoint: ${files} files, ${os.availableParallelism()} CPUs, load average ${os.loadavg()[0].toFixed(2)}`);
    out(`checkpoint: full (first) ${fmt(fullMs)} ms`);
    out(`checkpoint: incremental, ${CHANGED_PER_TURN} files changed: median ${fmt(median(incremental))} ms, p90 ${fmt(percentile(incremental, 90))} ms, max ${fmt(Math.max(...incremental))} ms (${runs} runs)`);
    out(`checkpoint: incremental, nothing changed since the last one: median ${fmt(median(pre))} ms`);
    out(`checkpoint: undo of a ${CHANGED_PER_TURN}-file turn: plan (preview + conflicts) ${fmt(planMs)} ms, restore ${fmt(restoreMs)} ms`);
    out(`checkpoint: target incremental median <= ${TARGET_MS} ms`);
    const rows: BenchRow[] = [
      { metric: `checkpoint: incremental (${files} files, ${CHANGED_PER_TURN} changed)`, value: `${fmt(median(incremental))} ms`, target: `<= ${TARGET_MS} ms`, ok: median(incremental) <= TARGET_MS },
      { metric: "checkpoint: full, first", value: `${fmt(fullMs)} ms`, target: "" },
      { metric: "checkpoint: undo plan", value: `${fmt(planMs)} ms`, target: "" },
      { metric: "checkpoint: undo restore", value: `${fmt(restoreMs)} ms`, target: "" },
    ];
    reportRows("checkpoint", rows);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
