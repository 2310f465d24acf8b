/* eslint-disable no-control-regex -- these tests check terminal escape codes */
// The terminal chat's small renderers: colour that follows NO_COLOR / FORCE_COLOR / the TTY, the
// coloured diff, the usage line after a turn, and the status line that keeps out of a question.
import assert from "node:assert/strict";
import { PassThrough, Writable } from "node:stream";
import { test } from "node:test";
import { sessionChoice } from "../../acp-server/cli/chat-approval";
import { chatRenderer, renderDiff } from "../../acp-server/cli/chat-render";
import { colourWanted, palette } from "../../acp-server/cli/terminal-colour";
import { terminalQuestions } from "../../acp-server/cli/terminal-questions";
import { turnSummary } from "../../acp-server/cli/turn-summary";

test("colour: NO_COLOR wins, FORCE_COLOR forces, else only a terminal", () => {
  assert.equal(colourWanted({ isTTY: true }, {}), true);
  assert.equal(colourWanted({ isTTY: false }, {}), false);
  assert.equal(colourWanted({ isTTY: true }, { NO_COLOR: "1" }), false);
  assert.equal(colourWanted({ isTTY: false }, { FORCE_COLOR: "1" }), true);
  assert.equal(colourWanted({ isTTY: true }, { FORCE_COLOR: "0" }), true, "FORCE_COLOR=0 forces nothing; the TTY decides");
  assert.equal(colourWanted({ isTTY: false }, { FORCE_COLOR: "0" }), false);
  assert.equal(colourWanted({ isTTY: false }, { NO_COLOR: "1", FORCE_COLOR: "1" }), false);
});

test("a coloured diff: removals red, additions green, the hunk head cyan, context plain", () => {
  const out = renderDiff("f", "a\nb\n", "a\nB\n", palette(true));
  assert.match(out, /\x1b\[31m- b\x1b\[39m/);
  assert.match(out, /\x1b\[32m\+ B\x1b\[39m/);
  assert.match(out, /\x1b\[36m@@ line 2 @@\x1b\[39m/);
  assert.match(out, /\n {2}a\n/);
  assert.doesNotMatch(renderDiff("f", "a\nb\n", "a\nB\n", palette(false)), /\x1b/, "no colour: no escapes");
});

test("the usage line: time, tokens, cached input, and the cost only when known", () => {
  assert.equal(turnSummary({ seconds: 2.345, usage: { inputTokens: 12345, outputTokens: 67, cachedReadTokens: 10000, totalTokens: 12412 } }), "2.3 s · 12,345 in · 67 out · 10,000 cached");
  assert.equal(turnSummary({ seconds: 42.4, usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 }, costUsd: 0.01234 }), "42 s · 1 in · 2 out · $0.0123");
  assert.equal(turnSummary({ seconds: 1, costUsd: 0 }), "1.0 s", "an unpriced model shows no $0");
});

class Tty extends Writable {
  isTTY = true;
  columns = 60;
  text = "";
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

test("no status line is drawn while a question is open; one is, one row wide, when none is", async () => {
  const stderr = new Tty();
  const stdout = new Tty();
  let asking = true;
  const renderer = chatRenderer({ stdout, stderr });
  const stop = renderer.waiting(600, () => asking);
  await new Promise((resolve) => setTimeout(resolve, 700));
  assert.equal(stderr.text, "", "nothing while the question waits for its key");
  asking = false;
  const drawn = new Promise<void>((resolve) => {
    const check = setInterval(() => stderr.text.includes("working") && (clearInterval(check), resolve()), 20);
  });
  await drawn;
  stop();
  // Every drawn status fits one row of the 60-column terminal, and the last write wipes it.
  for (const row of stderr.text.split("\r\x1b[2K").filter(Boolean)) assert.ok(row.replace(/\x1b\[[0-9;]*m/g, "").length < 60, row);
  assert.ok(stderr.text.endsWith("\r\x1b[2K"));
});

test("a line typed on a terminal during a turn is queued (not echoed) and is the next prompt's line", async () => {
  const input = new PassThrough() as PassThrough & { isTTY?: boolean; setRawMode?: () => void };
  input.isTTY = true;
  input.setRawMode = () => {};
  const output = new Tty();
  const questions = terminalQuestions(input, output);
  const queued: string[] = [];
  questions.setBusy(true, (line) => queued.push(line));
  const before = output.text.length;
  input.write("next one\r");
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(queued, ["next one"]);
  assert.doesNotMatch(output.text.slice(before), /next one/, "not echoed into the reply");
  questions.setBusy(false);
  assert.equal(await questions.line("› "), "next one");
  assert.match(output.text, /› next one\n/, "shown at the prompt as typed");
  questions.close();
});

test("a recap: the last exchanges, the user's line whole on one row, replies cut to three lines, all within the width", async () => {
  const { recapText } = await import("../../acp-server/cli/chat-recap");
  const m = (seq: number, role: string, text: string) => ({ seq, role, text, at: 0 });
  const messages = [m(1, "user", "first"), m(2, "assistant", "one"), m(3, "user", "second\nquestion"), m(4, "tool", "raw output"), m(5, "assistant", "a\nb\nc\nd\ne"), m(6, "user", "third " + "x".repeat(100)), m(7, "assistant", "done")];
  const out = recapText(messages, 2, 40, 10);
  assert.equal(out, ["  … 12 earlier messages (/history shows more)", "› second question", "  a", "  b", "  c", "  … (2 more lines)", `› third ${"x".repeat(31)}…`, "  done", ""].join("\n"));
  assert.equal(recapText([], 3, 80), "", "a new session shows nothing");
});

test("a command's output: no literal fences, the exit code said once, nothing indented after it", () => {
  const stdout = new Tty();
  const stderr = new Tty();
  stderr.isTTY = false;
  const renderer = chatRenderer({ stdout, stderr });
  renderer.update({ sessionUpdate: "tool_call", toolCallId: "t1", title: "$ ls nope", kind: "execute" });
  renderer.update({
    sessionUpdate: "tool_call_update",
    toolCallId: "t1",
    status: "completed",
    content: [{ type: "content", content: { type: "text", text: "```\nls: cannot access 'nope'\n```\nexit code 2" } }],
    rawOutput: { exit_code: 2 },
  });
  renderer.update({ sessionUpdate: "tool_call", toolCallId: "t2", title: "$ true", kind: "execute" });
  assert.equal(stderr.text, "▸ $ ls nope\n    ls: cannot access 'nope'\n    exit code 2\n▸ $ true\n");
});

test("a refusal already said by the approval is not said again when the tool's failure arrives", () => {
  const stderr = new Tty();
  stderr.isTTY = false;
  const renderer = chatRenderer({ stdout: new Tty(), stderr });
  renderer.update({ sessionUpdate: "tool_call", toolCallId: "t1", title: "$ rm -rf x", kind: "execute" });
  renderer.refused("t1");
  renderer.update({ sessionUpdate: "tool_call_update", toolCallId: "t1", status: "failed", content: [{ type: "content", content: { type: "text", text: "refused" } }] });
  assert.equal(stderr.text, "▸ $ rm -rf x\n");
});

test("an approval's text does not repeat the command its title quotes, and shows no fences", async () => {
  const { withoutRepeatedCommand } = await import("../../acp-server/cli/chat-approval");
  assert.equal(withoutRepeatedCommand("```sh\nrm -rf build\n```\nNeeds approval: deletes files.", "$ rm -rf build"), "Needs approval: deletes files.");
  assert.equal(withoutRepeatedCommand("```sh\nmake deploy\n```\nNeeds approval: x.", "Run a script"), "make deploy\nNeeds approval: x.");
});

test("on a terminal a finished step is marked in place: ✓ or ✗ instead of its ▸, one line each", () => {
  const stderr = new Tty();
  const renderer = chatRenderer({ stdout: new Tty(), stderr });
  renderer.update({ sessionUpdate: "tool_call", toolCallId: "r1", title: "read a.txt", kind: "read" });
  renderer.update({ sessionUpdate: "tool_call_update", toolCallId: "r1", status: "completed" });
  renderer.update({ sessionUpdate: "tool_call", toolCallId: "r2", title: "read b.txt", kind: "read" });
  renderer.update({ sessionUpdate: "tool_call_update", toolCallId: "r2", status: "failed", content: [{ type: "content", content: { type: "text", text: "no such file" } }] });
  const plain = stderr.text.replace(/\x1b\[[0-9;]*m/g, "");
  assert.equal(plain, "▸ read a.txt\n\x1b[1A\r\x1b[2K✓ read a.txt\n▸ read b.txt\n\x1b[1A\r\x1b[2K✗ read b.txt failed\n    no such file\n");
});

test("on a terminal a step whose ▸ line is no longer the last (an approval was asked under it) ends on a ✓ line of its own", () => {
  const stderr = new Tty();
  const renderer = chatRenderer({ stdout: new Tty(), stderr });
  renderer.update({ sessionUpdate: "tool_call", toolCallId: "w1", title: "write a.txt", kind: "edit" });
  renderer.finishLine();
  stderr.write("? write a.txt\nAllow? y = yes once, n = no y\n");
  renderer.update({ sessionUpdate: "tool_call", toolCallId: "r1", title: "read b.txt", kind: "read" });
  renderer.update({ sessionUpdate: "tool_call_update", toolCallId: "w1", status: "completed" });
  renderer.update({ sessionUpdate: "tool_call_update", toolCallId: "r1", status: "completed" });
  const plain = stderr.text.replace(/\x1b\[[0-9;]*m/g, "");
  assert.equal(plain, "▸ write a.txt\n? write a.txt\nAllow? y = yes once, n = no y\n▸ read b.txt\n✓ write a.txt\n✓ read b.txt\n");
});

test("on a terminal a command's long output lines are cut to one row each; /expand keeps them whole; off a terminal nothing is cut", (t) => {
  const long = `${"x".repeat(200)}\n\x1b[31m${"e".repeat(100)}\x1b[0m\nshort\n`;
  for (const tty of [true, false]) {
    const stderr = new Tty();
    stderr.isTTY = tty;
    const renderer = chatRenderer({ stdout: new Tty(), stderr });
    renderer.update({ sessionUpdate: "tool_call", toolCallId: "t1", title: "$ build", kind: "execute" });
    renderer.update({ sessionUpdate: "tool_call_update", toolCallId: "t1", status: "completed", content: [{ type: "content", content: { type: "text", text: long } }] });
    const rows = stderr.text.replace(/\x1b\[[0-9;]*[A-Za-z]|\r/g, "").split("\n").filter((row) => row.startsWith("    "));
    if (tty) {
      assert.deepEqual(rows, [`    ${"x".repeat(55)}…`, `    ${"e".repeat(55)}…`, "    short"], "each within the 60 columns");
      assert.match(renderer.expanded?.() ?? "", new RegExp(`x{200}`), "whole in /expand");
    } else assert.ok(rows.some((row) => row.includes("x".repeat(200))), "a script reads the whole line");
  }
  // A pty that does not say its width (columns 0), without $COLUMNS, is taken as 80 wide.
  const columns = process.env.COLUMNS;
  delete process.env.COLUMNS;
  t.after(() => {
    if (columns !== undefined) process.env.COLUMNS = columns;
  });
  const unsized = new Tty();
  unsized.columns = 0;
  const renderer = chatRenderer({ stdout: new Tty(), stderr: unsized });
  renderer.update({ sessionUpdate: "tool_call", toolCallId: "t2", title: "$ build", kind: "execute" });
  renderer.update({ sessionUpdate: "tool_call_update", toolCallId: "t2", status: "completed", content: [{ type: "content", content: { type: "text", text: long } }] });
  assert.ok(unsized.text.replace(/\x1b\[[0-9;]*[A-Za-z]|\r/g, "").includes(`    ${"x".repeat(75)}…\n`));
});

test("/expand: the last turn's steps with their whole output, where the screen showed the last lines", () => {
  const stderr = new Tty();
  stderr.isTTY = false;
  const renderer = chatRenderer({ stdout: new Tty(), stderr });
  const stop = renderer.waiting(600);
  const output = Array.from({ length: 30 }, (_, i) => `line${i + 1}`).join("\n");
  renderer.update({ sessionUpdate: "tool_call", toolCallId: "c1", title: "$ seq 30", kind: "execute" });
  renderer.update({ sessionUpdate: "tool_call_update", toolCallId: "c1", status: "completed", content: [{ type: "content", content: { type: "text", text: output } }] });
  stop();
  assert.doesNotMatch(stderr.text, /line1\n/, "the screen has the last lines");
  const expanded = renderer.expanded!();
  assert.match(expanded, /^✓ \$ seq 30\n {4}line1\n {4}line2\n[\s\S]* {4}line30\n$/);
  renderer.waiting(600)();
  assert.equal(renderer.expanded!(), "No tool steps in the last turn.\n", "a new turn starts a new list");
});

test("a finished step's line says what it amounted to; a failed command's exit code is said once, on its line", () => {
  const stderr = new Tty();
  const renderer = chatRenderer({ stdout: new Tty(), stderr });
  renderer.update({ sessionUpdate: "tool_call", toolCallId: "r1", title: "read a.ts", kind: "read" });
  renderer.update({ sessionUpdate: "tool_call_update", toolCallId: "r1", status: "completed", rawOutput: { total_lines: 120, lines_returned: 120 }, content: [{ type: "content", content: { type: "text", text: "x" } }] });
  renderer.update({ sessionUpdate: "tool_call", toolCallId: "t1", title: "$ npm test", kind: "execute" });
  renderer.update({ sessionUpdate: "tool_call_update", toolCallId: "t1", status: "failed", rawOutput: { exit_code: 1 }, content: [{ type: "content", content: { type: "text", text: "1 failing" } }] });
  const plain = stderr.text.replace(/\x1b\[[0-9;]*m/g, "");
  assert.equal(plain, "▸ read a.ts\n\x1b[1A\r\x1b[2K✓ read a.ts (120 lines)\n▸ $ npm test\n\x1b[1A\r\x1b[2K✗ $ npm test failed — exit 1\n    1 failing\n");
});

test("a command's approval says the command once: the question takes the step's ▸ line, the choice does not quote it again", () => {
  const stderr = new Tty();
  const renderer = chatRenderer({ stdout: new Tty(), stderr });
  renderer.update({ sessionUpdate: "tool_call", toolCallId: "t1", title: "$ rm -rf build", kind: "execute" });
  assert.equal(renderer.question?.("t1", "? $ rm -rf build"), true);
  assert.equal(stderr.text.replace(/\x1b\[[0-9;]*m/g, ""), "▸ $ rm -rf build\n\x1b[1A\r\x1b[2K? $ rm -rf build\n");
  assert.equal(renderer.question?.("t1", "? again"), false, "only the last line written can be taken");
  assert.equal(sessionChoice("Allow `rm -rf build` and `git push --force origin main` for this session", "$ rm -rf build && git push --force origin main"), "allow these commands for this session");
  assert.equal(sessionChoice("Allow `npm test` for this session", "$ npm test"), "allow this command for this session");
  assert.equal(sessionChoice("Allow edits to `notes.txt` for this session", "Edit notes.txt"), "allow edits to `notes.txt` for this session", "a file is not a command");
  assert.equal(sessionChoice("Allow `make` for this session", "$ npm test"), "allow `make` for this session", "what the title does not show is said");
});
