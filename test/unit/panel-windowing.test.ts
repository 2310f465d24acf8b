import assert from "node:assert/strict";
import { test } from "node:test";
import { growWindowStart, isNearBottom, nextWindowStart } from "../../webview-ui/lib/windowing";

test("a fresh or shorter transcript starts at its tail", () => {
  assert.equal(nextWindowStart({ length: 2000, start: 5000, atBottom: true, size: 80 }), 1920);
  assert.equal(nextWindowStart({ length: 30, start: 40, atBottom: true, size: 80 }), 0);
});

test("at the bottom the window keeps its start until it holds the cap, then trims back to the tail", () => {
  // New items are appended without removing old ones (no churn at the top on every item)...
  assert.equal(nextWindowStart({ length: 2001, start: 1920, atBottom: true, size: 80 }), 1920);
  // Expanded to 240 items: stays while within 4 × size.
  assert.equal(nextWindowStart({ length: 2001, start: 1760, atBottom: true, size: 80 }), 1760);
  // Past the cap: back to the tail.
  assert.equal(nextWindowStart({ length: 2001, start: 1600, atBottom: true, size: 80 }), 1921);
});

test("scrolled up, the start does not move as items arrive", () => {
  assert.equal(nextWindowStart({ length: 2500, start: 1920, atBottom: false, size: 80 }), 1920);
});

test("growing adds a step of older items, never below zero", () => {
  assert.equal(growWindowStart(1920, 80), 1840);
  assert.equal(growWindowStart(30, 80), 0);
});

test("near-bottom detection has slack", () => {
  assert.equal(isNearBottom(1000, 1500, 480), true);
  assert.equal(isNearBottom(900, 1500, 480), false);
});
