import assert from "node:assert/strict";
import { test } from "node:test";
import { diffHunks, diffLines, hunkHeader } from "../../common/line-diff";

const ops = (a: string, b: string, exactEol = false) => diffLines(a, b, { exactEol }).map((l) => `${l.op}${l.text}`);
const numbered = (n: number, change: Record<number, string> = {}, eol = "\n") =>
  Array.from({ length: n }, (_, i) => (change[i + 1] ?? `line ${i + 1}`) + eol).join("");

test("a 20,000-line file with three changed lines gives three small hunks", () => {
  const oldText = numbered(20_000);
  const newText = numbered(20_000, { 10: "ten", 10_000: "ten thousand", 19_990: "near the end" });
  const hunks = diffHunks(oldText, newText, { context: 3 });
  assert.deepEqual(hunks.map(hunkHeader), ["@@ -7,7 +7,7 @@", "@@ -9997,7 +9997,7 @@", "@@ -19987,7 +19987,7 @@"]);
  assert.deepEqual(hunks[1].lines.filter((l) => l.op !== " "), [{ op: "-", text: "line 10000" }, { op: "+", text: "ten thousand" }]);
  const all = diffLines(oldText, newText);
  assert.equal(all.filter((l) => l.op === "-").length, 3);
  assert.equal(all.filter((l) => l.op === "+").length, 3);
});

test("a large file with lines inserted and deleted far apart stays a small diff", () => {
  const old = Array.from({ length: 20_000 }, (_, i) => `row ${i}`);
  const changed = old.slice();
  changed.splice(15_000, 1);
  changed.splice(5_000, 0, "inserted a", "inserted b");
  const lines = diffLines(old.join("\n"), changed.join("\n"));
  assert.deepEqual(lines.filter((l) => l.op !== " ").map((l) => `${l.op}${l.text}`), ["+inserted a", "+inserted b", "-row 15000"]);
  assert.equal(diffHunks(old.join("\n"), changed.join("\n")).length, 2);
});

test("two large texts with nothing in common are removed-then-added, quickly", () => {
  const a = Array.from({ length: 20_000 }, (_, i) => `old ${i}`).join("\n");
  const b = Array.from({ length: 20_000 }, (_, i) => `new ${i}`).join("\n");
  const started = performance.now();
  const lines = diffLines(a, b);
  assert.ok(performance.now() - started < 5_000, "gives up on the search instead of running for long");
  assert.equal(lines.length, 40_000);
  assert.ok(lines.slice(0, 20_000).every((l) => l.op === "-"));
  assert.ok(lines.slice(20_000).every((l) => l.op === "+"));
});

test("empty texts", () => {
  assert.deepEqual(ops("", ""), []);
  assert.deepEqual(diffHunks("", ""), []);
  assert.deepEqual(ops("", "x\n"), ["+x"]);
  assert.deepEqual(diffHunks("", "a\nb\n").map(hunkHeader), ["@@ -0,0 +1,2 @@"]);
  assert.deepEqual(diffHunks("a\nb\n", "").map(hunkHeader), ["@@ -1,2 +0,0 @@"]);
});

test("a missing final newline is no change for a reader, a change when exact", () => {
  assert.deepEqual(ops("a\nb", "a\nb\n"), [" a", " b"]);
  assert.deepEqual(ops("a\nb", "a\nb\n", true), [" a", "-b", "+b"]);
  assert.deepEqual(ops("a\nb\nc\nd", "a\nc\nd\ne"), [" a", "-b", " c", " d", "+e"]);
  assert.deepEqual(ops("a\nb\nc\nd", "a\nc\nd\ne", true), [" a", "-b", " c", "-d", "+d", "+e"]);
});

test("CRLF lines are shown without their \\r and compared with it", () => {
  assert.deepEqual(ops("a\r\nb\r\n", "a\r\nB\r\n"), [" a", "-b", "+B"]);
  assert.deepEqual(ops("a\r\nb\r\n", "a\r\nB\r\n", true), [" a", "-b", "+B"]);
  // A line-ending change is a change of every line it touches.
  assert.deepEqual(ops("a\r\nb\r\n", "a\nb\n"), ["-a", "-b", "+a", "+b"]);
});

test("changes at most twice the context apart share a hunk", () => {
  const oldText = numbered(30);
  assert.equal(diffHunks(oldText, numbered(30, { 5: "x", 12: "y" }), { context: 3 }).length, 1);
  assert.equal(diffHunks(oldText, numbered(30, { 5: "x", 13: "y" }), { context: 3 }).length, 2);
});
