import assert from "node:assert/strict";
import { test } from "node:test";
import { diffLines, hunkHeader, toHunks } from "../../common/line-diff";

const ops = (a: string, b: string) => diffLines(a, b).map((l) => `${l.op}${l.text}`);

test("line diff keeps common lines and marks changes", () => {
  assert.deepEqual(ops("a\nb\nc\n", "a\nB\nc\n"), [" a", "-b", "+B", " c"]);
  assert.deepEqual(ops("", "x\ny\n"), ["+x", "+y"]);
  assert.deepEqual(ops("x\n", ""), ["-x"]);
  assert.deepEqual(ops("a\nb\nc\nd", "a\nc\nd\ne"), [" a", "-b", " c", " d", "+e"]);
});

test("a wholly changed text reads as removed-then-added", () => {
  const a = Array.from({ length: 600 }, (_, i) => `old ${i}`).join("\n");
  const b = Array.from({ length: 600 }, (_, i) => `new ${i}`).join("\n");
  const lines = diffLines(a, b);
  assert.equal(lines.length, 1200);
  assert.equal(lines[0].op, "-");
  assert.equal(lines[600].op, "+");
});

test("hunks carry context and unified-diff line numbers", () => {
  const old = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);
  const changed = old.slice();
  changed[2] = "LINE 3";
  changed[16] = "LINE 17";
  const hunks = toHunks(diffLines(old.join("\n"), changed.join("\n")), 2);
  assert.equal(hunks.length, 2);
  assert.equal(hunkHeader(hunks[0]), "@@ -1,5 +1,5 @@");
  assert.equal(hunkHeader(hunks[1]), "@@ -15,5 +15,5 @@");
  // Close changes merge into one hunk.
  changed[5] = "LINE 6";
  assert.equal(toHunks(diffLines(old.join("\n"), changed.join("\n")), 2).length, 2);
  assert.deepEqual(toHunks(diffLines("same", "same")), []);
});
