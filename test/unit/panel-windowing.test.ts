import assert from "node:assert/strict";
import { test } from "node:test";
import { indexAt, isNearBottom, itemOffsets, rangeCovering, spacers, tailWindow, windowFor } from "../../webview-ui/lib/windowing";

// 1,000 items of 100 px with a 10 px gap: item i spans [110 i, 110 i + 100].
const uniform = itemOffsets(Array.from({ length: 1000 }, () => 100), 10);

test("offsets are prefix sums of measured heights, estimates for the unmeasured", () => {
  const offsets = itemOffsets([50, undefined, 30], 10, 72);
  assert.deepEqual([...offsets], [0, 60, 142, 182]);
});

test("indexAt finds the item under a y position", () => {
  assert.equal(indexAt(uniform, 0), 0);
  assert.equal(indexAt(uniform, 109), 0);
  assert.equal(indexAt(uniform, 110), 1);
  assert.equal(indexAt(uniform, 1e9), 1000);
});

test("the window covers the view plus overscan, both ways: items far above and below are not mounted", () => {
  // Scrolled to the middle (y = 55,000, item 500), a 600 px view, 1.5 views of overscan each side.
  const range = windowFor(uniform, { start: -1, end: -1 }, 55_000, 600, { overscan: 1.5 });
  assert.deepEqual(range, rangeCovering(uniform, 55_000 - 900, 55_600 + 900));
  assert.ok(range.start > 480 && range.start < 500, `start ${range.start}`);
  assert.ok(range.end > 505 && range.end < 525, `end ${range.end}`);
  // The spacers stand in exactly for what is not mounted.
  const { above, below } = spacers(uniform, range, 10);
  assert.equal(above, uniform[range.start] - 10);
  assert.equal(below, uniform[1000] - uniform[range.end] - 10);
});

test("a small scroll inside the margin keeps the window (no re-render); nearing its edge moves it", () => {
  const range = windowFor(uniform, { start: -1, end: -1 }, 55_000, 600);
  assert.equal(windowFor(uniform, range, 55_050, 600), range);
  const moved = windowFor(uniform, range, 55_000 - 2_000, 600);
  assert.notEqual(moved, range);
  assert.ok(moved.start < range.start && moved.end < range.end, "scrolling up mounts older items and unmounts newer ones");
});

test("the tail window ends at the last item and fills the requested extent", () => {
  assert.deepEqual(tailWindow(uniform, 1500), { start: 986, end: 1000 });
  assert.deepEqual(tailWindow(itemOffsets([100, 100], 10), 5000), { start: 0, end: 2 });
  assert.deepEqual(tailWindow(itemOffsets([], 10), 5000), { start: 0, end: 0 });
});

test("at the ends a spacer is zero", () => {
  assert.deepEqual(spacers(uniform, { start: 0, end: 1000 }, 10), { above: 0, below: 0 });
});

test("the window is never empty while there are items", () => {
  const short = itemOffsets([100], 10);
  assert.deepEqual(windowFor(short, { start: -1, end: -1 }, 5000, 600), { start: 0, end: 1 });
});

test("near-bottom detection has slack", () => {
  assert.equal(isNearBottom(1000, 1500, 480), true);
  assert.equal(isNearBottom(900, 1500, 480), false);
});
