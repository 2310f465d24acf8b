// The plant guard's cost per command (security/git-plant-guard.ts): it records what git and the
// editor would run later (security/git-surface.ts) before a command and again after it. Measured
// on a git repository of BENCH_DIRS folders (default 6,000, about the size of a mid-sized
// monorepo's source tree without node_modules), BENCH_RUNS (default 15) times each:
//   - one snapshot of the surface (a full walk of the workspace's folders);
//   - a whole guarded command with nothing planted: the snapshot before and the check after.
// Target: a guarded command costs <= 60 ms here (the guard runs after every command).
//   node --import tsx bench/plant-guard.ts
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { GitPlantGuard } from "../acp-server/security/git-plant-guard";
import { snapshotGitSurface } from "../acp-server/security/git-surface";
import { type BenchRow, fmt, intFromEnv, makeTempDir, median, reportRows, sleep } from "./lib";

const TARGET_MS = 60;

function elapsedMs(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

function makeRepository(folders: number): string {
  const root = makeTempDir("hermes-bench-plant-");
  const perPackage = 50;
  for (let i = 0; i < folders; i++) {
    const dir = path.join(root, "packages", `pkg${Math.floor(i / perPackage)}`, `mod${i % perPackage}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, "index.ts"), `export const n = ${i};\n`);
  }
  spawnSync("git", ["init", "-q"], { cwd: root });
  return root;
}

async function main(): Promise<void> {
  const folders = intFromEnv("BENCH_DIRS", 6_000);
  const runs = intFromEnv("BENCH_RUNS", 15);
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const root = makeRepository(folders);
  try {
    out(`plant guard: a git repository of ${folders} folders, ${runs} runs (node ${process.version}, load average ${os.loadavg()[0].toFixed(2)} on ${os.availableParallelism()} CPUs)`);
    // A real workspace's folders mostly changed long ago; the guard trusts a remembered folder
    // listing only seconds after the folder's last change (security/folder-listings.ts).
    await sleep(3_500);
    snapshotGitSurface([root]); // untimed: page cache, and the listings remembered
    const snapshots: number[] = [];
    const guarded: number[] = [];
    for (let i = 0; i < runs; i++) {
      let start = process.hrtime.bigint();
      const surface = snapshotGitSurface([root]);
      snapshots.push(elapsedMs(start));
      if (surface.partial) throw new Error(surface.partial);
      start = process.hrtime.bigint();
      const report = GitPlantGuard.before([root]).check();
      guarded.push(elapsedMs(start));
      if (report.undone.length > 0) throw new Error(`nothing was planted, yet the guard undid ${report.undone.join(", ")}`);
    }
    const snapshot = median(snapshots);
    const command = median(guarded);
    out(`one snapshot of the surface: median ${fmt(snapshot)} ms (runs: ${snapshots.map((ms) => ms.toFixed(0)).join(", ")})`);
    out(`a guarded command (snapshot before + check after): median ${fmt(command)} ms (target <= ${TARGET_MS} ms)`);
    const rows: BenchRow[] = [
      { metric: `surface snapshot, ${folders} folders`, value: `${fmt(snapshot)} ms`, target: "" },
      { metric: `guarded command, ${folders} folders`, value: `${fmt(command)} ms`, target: `<= ${TARGET_MS} ms`, ok: command <= TARGET_MS },
    ];
    reportRows("plant-guard", rows);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

void main();
