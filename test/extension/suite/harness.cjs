// A tiny test runner for the extension host (no mocha): `test(name, fn)` registers, `runAll()`
// runs them in order with a timeout each, prints one line per test and rejects if any failed.
"use strict";

const tests = [];

function test(name, fn, { timeoutMs = 60_000 } = {}) {
  tests.push({ name, fn, timeoutMs });
}

async function runAll() {
  const failures = [];
  for (const { name, fn, timeoutMs } of tests) {
    const started = Date.now();
    let timer;
    try {
      await Promise.race([
        Promise.resolve().then(fn),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
        }),
      ]);
      console.log(`ok - ${name} (${Date.now() - started} ms)`);
    } catch (error) {
      failures.push(name);
      console.log(`not ok - ${name} (${Date.now() - started} ms)\n  ${String(error && error.stack ? error.stack : error).replace(/\n/g, "\n  ")}`);
    } finally {
      clearTimeout(timer);
    }
  }
  console.log(`${tests.length - failures.length} passed, ${failures.length} failed`);
  if (failures.length > 0) throw new Error(`${failures.length} extension test(s) failed: ${failures.join("; ")}`);
}

/** Polls `condition` (sync or async) until it returns a truthy value; returns that value. */
async function waitFor(condition, timeoutMs, message) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(typeof message === "function" ? message() : message);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

module.exports = { test, runAll, waitFor };
