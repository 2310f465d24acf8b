import assert from "node:assert/strict";
import { test } from "node:test";
import { quietGate } from "../../acp-server/util/quiet-gate";

test("quiet() resolves at once with nothing in flight, else when the last request in flight ends", async () => {
  const gate = quietGate();
  await gate.quiet();
  let finishFirst!: () => void;
  let finishSecond!: () => void;
  const first = gate.run(() => new Promise<string>((resolve) => (finishFirst = () => resolve("first"))));
  const second = gate.run(() => new Promise<string>((resolve) => (finishSecond = () => resolve("second"))));
  let quietNow = false;
  const quiet = gate.quiet().then(() => (quietNow = true));
  finishFirst();
  assert.equal(await first, "first");
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(quietNow, false, "one request is still in flight");
  finishSecond();
  assert.equal(await second, "second");
  await quiet;
  assert.equal(quietNow, true);
});

test("a failed request still ends its turn in flight", async () => {
  const gate = quietGate();
  await assert.rejects(gate.run(() => Promise.reject(new Error("boom"))), /boom/);
  await gate.quiet(); // would hang if the failure had left it in flight
});
