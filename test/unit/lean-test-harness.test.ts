// The suite preloads test/support/lean-test-harness.cjs, which drops node:test's per-promise
// tracking. A failure the runner can no longer pin on one test must still fail the file and the
// run, and suites must still nest: checked on a fixture run the way `npm test` runs files.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const PRELOAD = path.join(ROOT, "test", "support", "lean-test-harness.cjs");
const FIXTURE = path.join(ROOT, "test", "fixtures", "test-runner", "late-failures.mjs");

function runFixture(lateFailure: "throw" | "reject", env: Record<string, string> = {}) {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("NODE_TEST") && key !== "HERMES_TEST_PRECISE_BLAME"));
  return spawnSync(process.execPath, ["--require", PRELOAD, "--test", "--test-reporter=tap", FIXTURE], {
    encoding: "utf8",
    env: { ...clean, ...env, LATE_FAILURE: lateFailure },
    timeout: 60_000,
  });
}

for (const [lateFailure, event, message] of [
  ["throw", "uncaughtException", "late boom from a timer"],
  ["reject", "unhandledRejection", "late boom, unhandled"],
] as const) {
  test(`an error raised after its test's code returned (${event}) still fails the file and the run`, () => {
    const run = runFixture(lateFailure);
    assert.equal(run.status, 1, run.stdout + run.stderr);
    assert.ok(run.stdout.includes(`created the error "Error: ${message}" which triggered an ${event} event`), run.stdout);
    assert.match(run.stdout, /^# fail [1-9]/m, run.stdout);
    assert.match(run.stdout, /^\s+ok \d+ - keeps its nested test$/m, "the suite's test is still nested in it");
  });
}

test("HERMES_TEST_PRECISE_BLAME=1 keeps the runner's own tracking: the failure is pinned on its test", () => {
  const run = runFixture("throw", { HERMES_TEST_PRECISE_BLAME: "1" });
  assert.equal(run.status, 1, run.stdout + run.stderr);
  assert.match(run.stdout, /^not ok \d+ - throws in a later timer$/m, run.stdout);
});
