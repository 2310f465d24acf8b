// Per-command cost of the OS sandbox: the median start-to-exit time of `true` run through
// LocalShellRunner with the session sandbox (bubblewrap), minus the same without it, and the
// same for the network allowlist (which adds a Node relay inside the sandbox). Target: the
// sandbox adds <= 15 ms per command (median).
//   node --import tsx bench/sandbox.ts      (BENCH_ITERATIONS=40)
import { CommandSandbox } from "../acp-server/security/sandbox/command-sandbox";
import { detectSandbox } from "../acp-server/security/sandbox/detect";
import { LocalShellRunner } from "../acp-server/tools/local-shell";
import { type BenchRow, fmt, intFromEnv, makeTempDir, median, reportRows } from "./lib";

const TARGET_MS = 15;

async function timeTrue(runner: LocalShellRunner, cwd: string, iterations: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < iterations + 3; i++) {
    const start = process.hrtime.bigint();
    const handle = await runner.start("true", { cwd, outputLimit: 1000 });
    const exit = await handle.waitForExit();
    const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
    await handle.release();
    if (exit.code !== 0) throw new Error(`\`true\` failed in the sandbox: ${(await handle.output()).text}`);
    if (i >= 3) times.push(elapsed); // the first runs warm caches
  }
  return times;
}

async function main(): Promise<void> {
  const detection = detectSandbox();
  if (detection.kind === "none") {
    process.stdout.write(`no sandbox here (${detection.problem}); nothing to measure\n`);
    reportRows("sandbox", [{ metric: "sandbox available", value: "no", target: "bubblewrap installed" }]);
    return;
  }
  const iterations = intFromEnv("BENCH_ITERATIONS", 40);
  const workspace = makeTempDir("hermes-bench-sandbox-");
  const scope = () => ({ roots: [workspace], readOnlyWorkspace: false, sessionKey: "bench" });
  const bare = new LocalShellRunner(process.env);
  const boxed = new LocalShellRunner(process.env, new CommandSandbox({ mode: "on", allowedDomains: [] }, scope));
  const allowlisted = new LocalShellRunner(process.env, new CommandSandbox({ mode: "on", allowedDomains: ["registry.npmjs.org"] }, scope));

  const bareMs = median(await timeTrue(bare, workspace, iterations));
  const boxedMs = median(await timeTrue(boxed, workspace, iterations));
  const allowMs = median(await timeTrue(allowlisted, workspace, iterations));
  const extra = boxedMs - bareMs;
  const rows: BenchRow[] = [
    { metric: "`true` unsandboxed (median)", value: `${fmt(bareMs)} ms`, target: "" },
    { metric: `\`true\` in ${detection.kind} (median)`, value: `${fmt(boxedMs)} ms`, target: "" },
    { metric: "sandbox extra start-up per command", value: `${fmt(extra)} ms`, target: `<= ${TARGET_MS} ms`, ok: extra <= TARGET_MS },
    { metric: "network allowlist extra (Node relay inside)", value: `${fmt(allowMs - bareMs)} ms`, target: "" },
  ];
  for (const row of rows) process.stdout.write(`${row.metric}: ${row.value}${row.target ? ` (target ${row.target})` : ""}\n`);
  reportRows("sandbox", rows);
}

await main();
