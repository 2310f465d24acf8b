// Runs every benchmark in sequence, each in its own process (so none inherits another's
// warm-up or memory), streams their output, then prints a summary table.
//   node --import tsx bench/run-all.ts
// Environment knobs are passed through: BENCH_RUNS, BENCH_ITERATIONS, BENCH_TOOL, BENCH_BUILD.
// Figures only: a missed target is shown in the table, never turned into a failure.
import { spawn } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type BenchRow, ensureBuilt, makeTempDir, ROOT } from "./lib";

const BENCHMARKS = ["cold-start", "first-session", "loop-overhead", "rss", "cache", "session-append", "session-search", "session-load", "checkpoint", "plant-guard", "task-calls", "sandbox"];

async function runOne(name: string, resultFile: string): Promise<{ rows: BenchRow[]; code: number | null }> {
  process.stdout.write(`\n== ${name} ==\n`);
  const env: NodeJS.ProcessEnv = { ...process.env, BENCH_RESULT_FILE: resultFile };
  delete env.BENCH_BUILD; // built (or checked) once already, by main()
  env.BENCH_BUILD_CHECKED = "1";
  const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "bench", `${name}.ts`)], {
    cwd: ROOT,
    env,
    stdio: "inherit",
  });
  const code = await new Promise<number | null>((resolve) => child.once("exit", (status) => resolve(status)));
  try {
    return { rows: (JSON.parse(readFileSync(resultFile, "utf8")) as { rows: BenchRow[] }).rows, code };
  } catch {
    return { rows: [], code };
  }
}

async function main(): Promise<void> {
  ensureBuilt(); // once here, so the benchmarks do not race to build
  const dir = makeTempDir("hermes-bench-results-");
  const table: (BenchRow & { bench: string })[] = [];
  let failed = false;
  try {
    for (const name of BENCHMARKS) {
      const { rows, code } = await runOne(name, path.join(dir, `${name}.json`));
      if (code !== 0 || rows.length === 0) {
        failed = true;
        table.push({ bench: name, metric: "(benchmark failed)", value: `exit ${code}`, target: "" });
      }
      for (const row of rows) table.push({ bench: name, ...row });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const headers = ["metric", "value", "target", "ok"];
  const cells = table.map((row) => [row.metric, row.value, row.target, row.ok === undefined ? "" : row.ok ? "yes" : "NO"]);
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) => c.map((text, i) => text.padEnd(widths[i])).join("  ").trimEnd();
  process.stdout.write(`\n== summary (node ${process.version}, ${os.availableParallelism()} CPUs, load average ${os.loadavg()[0].toFixed(2)}) ==\n`);
  process.stdout.write(`${line(headers)}\n${line(widths.map((w) => "-".repeat(w)))}\n`);
  for (const c of cells) process.stdout.write(`${line(c)}\n`);
  if (failed) process.exitCode = 1;
}

await main();
