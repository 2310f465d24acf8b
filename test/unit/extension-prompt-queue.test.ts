// The panel's queue bookkeeping (extension/prompt-queue.ts): what it shows while prompts go to
// the agent's queue, start, are removed, or come back after a stop; and which queue updates it takes.
import assert from "node:assert/strict";
import { test } from "node:test";
import { PromptQueue, queueChangedParams } from "../../extension/prompt-queue";
import type { QueuedPrompt } from "../../common/panel-state/types";

function queue() {
  const published: QueuedPrompt[][] = [];
  const q = new PromptQueue((shown) => published.push(shown));
  return { q, texts: () => published.at(-1)?.map((p) => p.text) ?? [] };
}

test("a sent prompt shows at once, then as the agent lists it, and no more once it started", () => {
  const { q, texts } = queue();
  const a = q.send("s1", "a", []);
  const b = q.send("s1", "b", []);
  assert.deepEqual(texts(), ["a", "b"], "before the agent has them");
  q.agentChanged([{ id: a.id, text: "a" }]);
  assert.deepEqual(texts(), ["a", "b"], "the agent's list first, then the one it does not have yet");
  q.agentChanged([{ id: a.id, text: "a" }, { id: b.id, text: "b" }, { id: "q7", text: "from another client" }]);
  assert.deepEqual(texts(), ["a", "b", "from another client"]);
  assert.ok(q.started(a.id, "user-1"));
  assert.equal(q.started(a.id, "user-2"), undefined, "a second chunk of the echo starts nothing");
  q.agentChanged([{ id: b.id, text: "b" }]);
  assert.deepEqual(texts(), ["b"]);
  assert.equal(q.get(a.id)?.itemId, "user-1");
});

test("removed, cleared, stopped and forgotten prompts", () => {
  const { q, texts } = queue();
  const a = q.send("s1", "a", []);
  q.hold("held", []);
  const b = q.send("s1", "b", []);
  assert.deepEqual(texts(), ["a", "b", "held"]);
  assert.equal(q.remove(a.id), false, "one with the agent: the caller asks it");
  assert.equal(q.get(a.id)?.removed, true);
  assert.deepEqual(texts(), ["b", "held"]);
  q.answered(a.id, true);
  assert.deepEqual(texts(), ["b", "held"], "a removed prompt's cancelled answer does not bring it back");
  // Stopped with the turn before it: back among the held ones, in the order typed.
  q.answered(b.id, true);
  assert.deepEqual(texts(), ["held", "b"], "in the order typed (held was typed before b)");
  assert.deepEqual(q.takeHeld().map((p) => p.text), ["held", "b"]);
  assert.equal(q.heldCount, 0);
  const c = q.send("s1", "c", []);
  q.hold("d", []);
  q.clear();
  assert.deepEqual(texts(), []);
  assert.equal(q.get(c.id)?.removed, true);
  q.send("s1", "e", []);
  q.forget();
  assert.deepEqual(texts(), []);
});

test("queue updates: well-formed ones only", () => {
  assert.deepEqual(queueChangedParams({ sessionId: "s", prompts: [{ id: "panel-1", text: "x" }] }), { sessionId: "s", prompts: [{ id: "panel-1", text: "x" }] });
  for (const bad of [undefined, null, "x", { sessionId: 1, prompts: [] }, { sessionId: "s" }, { sessionId: "s", prompts: [{ id: "has space", text: "x" }] }, { sessionId: "s", prompts: [{ id: "a" }] }]) {
    assert.equal(queueChangedParams(bad), undefined, JSON.stringify(bad));
  }
});
