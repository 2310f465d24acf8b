import assert from "node:assert/strict";
import { test } from "node:test";
import { applyHunks, computeHunks } from "../../extension/diff-hunks";

const lines = (n: number, change: Record<number, string> = {}, eol = "\n") =>
  Array.from({ length: n }, (_, i) => (change[i + 1] ?? `line ${i + 1}`) + eol).join("");

test("two separated changes give two hunks; accepting one writes only that one", () => {
  const oldText = lines(20);
  const newText = lines(20, { 2: "CHANGED 2", 18: "CHANGED 18" });
  const hunks = computeHunks(oldText, newText);
  assert.equal(hunks.length, 2);
  assert.deepEqual(hunks[0].lines.filter((l) => l.op !== " "), [{ op: "-", text: "line 2" }, { op: "+", text: "CHANGED 2" }]);
  assert.equal(applyHunks(oldText, newText, hunks, [0]), lines(20, { 2: "CHANGED 2" }));
  assert.equal(applyHunks(oldText, newText, hunks, [1]), lines(20, { 18: "CHANGED 18" }));
});

test("all hunks give the new text, none gives the old text", () => {
  const oldText = lines(30);
  const newText = lines(30, { 1: "a", 15: "b", 30: "c" }).replace("line 20\n", "");
  const hunks = computeHunks(oldText, newText);
  // Changes at 15 and 20 are within twice the context of each other: one hunk.
  assert.equal(hunks.length, 3);
  assert.equal(applyHunks(oldText, newText, hunks, [0, 1, 2]), newText);
  assert.equal(applyHunks(oldText, newText, hunks, []), oldText);
  // Any subset is consistent with applying the hunks one by one.
  assert.equal(applyHunks(oldText, newText, hunks, [1]), lines(30, { 15: "b" }).replace("line 20\n", ""));
});

test("equal texts have no hunks", () => {
  assert.deepEqual(computeHunks("a\nb\n", "a\nb\n"), []);
});

test("a new file is one hunk of additions", () => {
  const hunks = computeHunks("", "one\ntwo\n");
  assert.equal(hunks.length, 1);
  assert.deepEqual(hunks[0].lines, [{ op: "+", text: "one" }, { op: "+", text: "two" }]);
  assert.equal(applyHunks("", "one\ntwo\n", hunks, [0]), "one\ntwo\n");
  assert.equal(applyHunks("", "one\ntwo\n", hunks, []), "");
});

test("no trailing newline on either side", () => {
  const oldText = lines(12) + "last";
  const newText = lines(12, { 1: "first!" }) + "last!";
  const hunks = computeHunks(oldText, newText);
  assert.equal(hunks.length, 2);
  assert.ok(hunks.every((h) => h.lines.every((l) => !l.text.startsWith("\\"))), "no-newline markers are not lines");
  assert.equal(applyHunks(oldText, newText, hunks, [1]), lines(12) + "last!");
  assert.equal(applyHunks(oldText, newText, hunks, [0]), lines(12, { 1: "first!" }) + "last");
  // Adding the final newline is a change of the last line.
  const added = computeHunks("a\nb", "a\nb\n");
  assert.equal(added.length, 1);
  assert.equal(applyHunks("a\nb", "a\nb\n", added, [0]), "a\nb\n");
});

test("CRLF line endings survive a partial apply", () => {
  const oldText = lines(20, {}, "\r\n");
  const newText = lines(20, { 3: "three", 17: "seventeen" }, "\r\n");
  const hunks = computeHunks(oldText, newText);
  assert.equal(hunks.length, 2);
  assert.ok(hunks[0].lines.every((l) => !l.text.endsWith("\r")), "shown lines have no CR");
  assert.equal(applyHunks(oldText, newText, hunks, [1]), lines(20, { 17: "seventeen" }, "\r\n"));
});

test("pure insertions and deletions at the edges", () => {
  const oldText = lines(10);
  const newText = "header\n" + lines(10).replace("line 10\n", "");
  const hunks = computeHunks(oldText, newText);
  assert.equal(hunks.length, 2);
  assert.equal(applyHunks(oldText, newText, hunks, [0]), "header\n" + lines(10));
  assert.equal(applyHunks(oldText, newText, hunks, [1]), lines(10).replace("line 10\n", ""));
});
