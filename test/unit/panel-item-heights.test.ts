import assert from "node:assert/strict";
import { test } from "node:test";
import { ItemHeights } from "../../webview-ui/lib/item-heights";
import { itemOffsets } from "../../webview-ui/lib/windowing";

const items = (n: number, prefix = "i") => Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i}` }));

test("offsets match the prefix sums of measured heights, the estimate standing in for unmeasured items", () => {
  const heights = new ItemHeights(10, 72);
  heights.sync(items(3));
  heights.set("i0", 50);
  heights.set("i2", 30);
  assert.deepEqual([...heights.offsets()], [0, 60, 142, 182]);
  assert.deepEqual([...heights.offsets()], [...itemOffsets([50, undefined, 30], 10, 72)]);
});

test("appended items extend the offsets; a changed height updates everything after it", () => {
  const heights = new ItemHeights(0, 100);
  const list = items(200);
  heights.sync(list.slice(0, 150));
  assert.equal(heights.offsets()[150], 15_000);
  heights.sync(list); // an append: 50 more
  assert.equal(heights.length, 200);
  assert.equal(heights.offsets()[200], 20_000);
  assert.equal(heights.set("i10", 40), true);
  assert.equal(heights.set("i10", 40), false, "the same height again is no change");
  const offsets = heights.offsets();
  assert.equal(offsets[10], 1_000);
  assert.equal(offsets[11], 1_040);
  assert.equal(offsets[200], 19_940);
  assert.equal(heights.get("i10"), 40);
  assert.equal(heights.get("i11"), undefined, "never measured");
});

test("a list that is not an append (another session, items replaced) is rebuilt, keeping the heights of ids it still has", () => {
  const heights = new ItemHeights(0, 100);
  heights.sync(items(5));
  heights.set("i3", 10);
  heights.sync([{ id: "i3" }, { id: "x" }]);
  assert.deepEqual([...heights.offsets()], [0, 10, 110]);
  assert.equal(heights.set("i0", 5), false, "an id no longer listed is ignored");
  heights.clear();
  heights.sync(items(2, "y"));
  assert.deepEqual([...heights.offsets()], [0, 100, 200]);
});

test("a gap change recomputes every offset", () => {
  const heights = new ItemHeights(0, 100);
  heights.sync(items(3));
  assert.equal(heights.offsets()[3], 300);
  heights.setGap(12);
  assert.equal(heights.offsets()[3], 336);
});
