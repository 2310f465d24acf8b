import assert from "node:assert/strict";
import { constants, type PerformanceEntry, PerformanceObserver } from "node:perf_hooks";
import { test } from "node:test";
import { Worker } from "node:worker_threads";
import { startHeapUpkeep } from "../../acp-server/util/heap-upkeep";
import { createLogger } from "../../acp-server/util/log";

const log = createLogger("test");
const turn = () => new Promise((resolve) => setImmediate(resolve));

test("a fresh heap's young generation does not grow past 8 MB under a long churn", async () => {
  // In a worker: an isolate of its own, whose young generation starts small (this process's may
  // already have grown while the test files were compiled). First in this file: the growth factor
  // is a process-wide V8 flag, and this test must see a heap that would grow without it.
  const code = `
    const { parentPort, workerData } = require("node:worker_threads");
    const v8 = require("node:v8");
    const young = () => v8.getHeapSpaceStatistics().find((space) => space.space_name === "new_space").space_size;
    (async () => {
      const { tsImport } = await import(workerData.tsx);
      const { startHeapUpkeep } = await tsImport(workerData.module, workerData.module);
      startHeapUpkeep({ debug() {}, info() {}, warn() {}, error() {} });
      let largest = young();
      let batch = [];
      for (let round = 0; round < 200; round++) {
        for (let i = 0; i < 20000; i++) batch.push({ round, i, text: "t" + i });
        if (batch.length > 200000) batch = [];
        largest = Math.max(largest, young());
        await new Promise((resolve) => setImmediate(resolve));
      }
      parentPort.postMessage(largest);
    })();
  `;
  const worker = new Worker(code, { eval: true, workerData: { tsx: import.meta.resolve("tsx/esm/api"), module: new URL("../../acp-server/util/heap-upkeep.ts", import.meta.url).href } });
  const largest = await new Promise<number>((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  });
  await worker.terminate();
  assert.ok(largest <= 8 * 1024 * 1024, `young generation reached ${largest} bytes`);
});

test("old-generation growth brings a forced full collection", async () => {
  const upkeep = startHeapUpkeep(log);
  const major = new Promise<void>((resolve) => {
    const observer = new PerformanceObserver((list) => {
      // Forced: one the upkeep asked for, not one V8 started on its own.
      const forced = (entry: PerformanceEntry) => {
        const detail = (entry as { detail?: unknown }).detail as { kind?: number; flags?: number } | undefined;
        return detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR && ((detail.flags ?? 0) & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED) !== 0;
      };
      if (list.getEntries().some(forced)) {
        observer.disconnect();
        resolve();
      }
    });
    observer.observe({ entryTypes: ["gc"] });
  });
  try {
    // Objects that live through a few young collections are promoted, then dropped: old-generation garbage.
    let kept: { text: string; n: number[] }[] = [];
    for (let round = 0; round < 40; round++) {
      for (let i = 0; i < 20_000; i++) kept.push({ text: `row ${round} ${i}`, n: [i, round] });
      await turn();
    }
    kept = [];
    assert.equal(kept.length, 0);
    // The upkeep's timer does not hold the process open (unref): this does, until the collection.
    const keepAlive = setInterval(() => {}, 1_000);
    try {
      await major; // the test fails by timing out if no full collection ever runs
    } finally {
      clearInterval(keepAlive);
    }
  } finally {
    upkeep.stop();
  }
});
