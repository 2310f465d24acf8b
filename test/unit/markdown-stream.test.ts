/* eslint-disable no-control-regex -- colours and control characters are checked as their escape codes */
// The terminal's markdown stream: complete blocks render as they arrive, a code fence is held
// until it closes (a blank line inside it does not cut it), and the end renders the rest; the
// output is rendered markdown, never the raw syntax.
import assert from "node:assert/strict";
import { test } from "node:test";
import { stripVTControlCharacters } from "node:util";
import { markdownStream } from "../../acp-server/cli/markdown-stream";

const plain = (text: string) => stripVTControlCharacters(text);

test("blocks render when complete; the rest at the end", () => {
  const stream = markdownStream({ width: 60, color: false });
  const first = plain(stream.push("# Plan\n\nFirst **bol"));
  assert.match(first, /Plan/, "the heading's block is complete");
  assert.doesNotMatch(first, /First/, "the paragraph is not");
  assert.equal(stream.push("d** step"), "");
  const rest = plain(stream.end());
  assert.match(rest, /First bold step/);
});

test("a heading, bold, a list and a table come out rendered, not as raw markdown", () => {
  const stream = markdownStream({ width: 60, color: false });
  let out = "";
  for (const piece of ["# Pl", "an\n\nSome **bold** words.\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"]) out += stream.push(piece);
  out += stream.end();
  const text = plain(out);
  assert.match(text, /Plan/);
  assert.doesNotMatch(text, /^# /m, "the heading's # is gone");
  assert.doesNotMatch(text, /\*\*bold\*\*/, "bold is rendered");
  assert.match(text, /bold words/);
  assert.match(text, /[│|] *1 *[│|] *2 *[│|]/, "the table has cells");
});

test("a code fence is held until it closes, even across a blank line", () => {
  const stream = markdownStream({ width: 60, color: false });
  assert.equal(stream.push("```ts\nconst a = 1;\n\nconst b = 2;\n"), "", "an open fence is not cut at its blank line");
  const out = plain(stream.push("```\n\nAfter.\n\n"));
  assert.match(out, /const a = 1;[\s\S]*const b = 2;/);
  assert.match(out, /After\./);
  assert.doesNotMatch(out, /```/);
  assert.equal(stream.end(), "");
});

test("a list item's inline markdown is rendered (the agent's /help list: no backticks; codespans coloured when chalk colours)", () => {
  const stream = markdownStream({ width: 80, color: true });
  const out = stream.push("- `/help`: List **the** commands\n- `/model <id>`: Show the model\n\n") + stream.end();
  assert.doesNotMatch(plain(out), /`|\*\*/, plain(out));
  assert.match(plain(out), /\/help: List the commands/);
});

test("with colour on, the heading, bold and a code block are styled; with it off, no escape at all", () => {
  const source = "# Plan\n\nSome **bold** words.\n\n```js\nconst answer = 42;\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n";
  const coloured = markdownStream({ width: 60, color: true });
  const on = coloured.push(source) + coloured.end();
  assert.match(on, /\x1b\[1m[^\n]*Plan/, "the heading is bold");
  assert.match(on, /\x1b\[1mbold\x1b\[22m/, "bold is bold");
  const codeLine = on.split("\n").find((line) => line.includes("answer"))!;
  assert.ok((codeLine.match(/\x1b\[[0-9;]*m/g) ?? []).length >= 4, `the keyword and the number have colours: ${JSON.stringify(codeLine)}`);
  const uncoloured = markdownStream({ width: 60, color: false });
  const off = uncoloured.push(source) + uncoloured.end();
  assert.equal(off, plain(off), "no escape codes without colour, the table's included");
  assert.match(off, /^ {2}const answer = 42;$/m, "the code block is indented, as written");
});

test("control characters in a code block never reach the terminal", () => {
  const stream = markdownStream({ width: 60, color: true });
  const out = stream.push("```\nrm -rf x \x1b]0;owned\x07\x1b[2J done\n```\n") + stream.end();
  assert.doesNotMatch(out, /\x1b\]|\x07|\x1b\[2J/, JSON.stringify(out));
  assert.match(plain(out), /rm -rf x \]0;owned\[2J done/, "the rest of the text stays");
});
