// Preloaded into every test process (`node --require ./test/support/lean-test-harness.cjs --test`).
//
// WHY: node:test (Node 20 to 24) enables an async_hooks hook with a `destroy` callback to map every
// async resource a test creates back to that test. A destroy callback makes V8 track the end of
// every promise in the process (registerDestroyHook, a weak callback per promise, more GC). The
// in-process agent tests create millions of promises (web streams, the SDKs), and that tracking
// cost them 7-23% of their CPU (core/compression 12.2 → 9.3 s, core/permissions 6.7 → 5.7 s).
//
// What the runner needs the map for, and what stays true with this hook:
// - Nesting: `it()` inside a `describe()` callback finds its suite by the current async id. The
//   callback runs synchronously in the suite's own scope, and Test/Suite resources (type "Test")
//   are still registered, so nesting is unchanged. (An async `describe` callback that awaits before
//   declaring its tests would attach them to the file instead; the suite has none.)
// - Blame for an uncaught exception or unhandled rejection raised in a later callback: it is no
//   longer pinned on the test that started the work. The runner then reports it as a top-level
//   diagnostic and sets exit code 1, so the file, and `npm test`, still fail
//   (test/unit/lean-test-harness.test.ts checks exactly that). To see which test started the
//   work, rerun the file with HERMES_TEST_PRECISE_BLAME=1: the runner's own hook is kept.
// Any other async_hooks user (AsyncLocalStorage, the code under test) is left alone.
"use strict";
const asyncHooks = require("node:async_hooks");

const createHook = asyncHooks.createHook;

/** The runner's hook: created from node:test's harness, with both init and destroy. */
function isTestRunnerHook(callbacks) {
  return typeof callbacks?.init === "function" && typeof callbacks.destroy === "function" && /internal\/test_runner\/harness/.test(new Error().stack ?? "");
}

if (!process.env.HERMES_TEST_PRECISE_BLAME) asyncHooks.createHook = function leanCreateHook(callbacks) {
  if (!isTestRunnerHook(callbacks)) return createHook.call(this, callbacks);
  const runnerInit = callbacks.init;
  // Only the tests' own resources, and no destroy callback: no per-promise tracking.
  return createHook({
    init(asyncId, type, triggerAsyncId, resource) {
      if (type === "Test") runnerInit(asyncId, type, triggerAsyncId, resource);
    },
  });
};
