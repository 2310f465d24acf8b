import assert from "node:assert/strict";
import { test } from "node:test";
import { renderDiff } from "../../acp-server/cli/chat-render";

const numbered = (n: number, change: Record<number, string> = {}) => Array.from({ length: n }, (_, i) => `${change[i + 1] ?? `line ${i + 1}`}\n`).join("");

test("an approval's diff shows the changed lines with three lines of context", () => {
  assert.equal(
    renderDiff("src/a.ts", numbered(10), numbered(10, { 5: "five" })),
    ["--- src/a.ts", "+++ src/a.ts", "@@ line 5 @@", "  line 2", "  line 3", "  line 4", "- line 5", "+ five", "  line 6", "  line 7", "  line 8", ""].join("\n"),
  );
});

test("a new file is all additions", () => {
  assert.equal(renderDiff("n.txt", null, "a\nb\n"), ["--- (new file)", "+++ n.txt", "@@ line 1 @@", "+ a", "+ b", ""].join("\n"));
});

test("changes far apart in a large file are separate short hunks, not the whole middle", () => {
  const out = renderDiff("big.txt", numbered(20_000), numbered(20_000, { 100: "hundred", 19_000: "nineteen thousand" }));
  const lines = out.trimEnd().split("\n");
  assert.deepEqual(lines.filter((l) => l.startsWith("@@")), ["@@ line 100 @@", "@@ line 19000 @@"]);
  assert.deepEqual(lines.filter((l) => /^[-+] /.test(l)), ["- line 100", "+ hundred", "- line 19000", "+ nineteen thousand"]);
});

test("a pure insertion is headed by the first inserted line", () => {
  const out = renderDiff("f", "a\nb\nc\n", "a\nb\nnew\nc\n");
  assert.equal(out, ["--- f", "+++ f", "@@ line 3 @@", "  a", "  b", "+ new", "  c", ""].join("\n"));
});
