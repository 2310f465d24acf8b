// The interactive `hermes chat` as the user sees it: a real terminal (tmux), read with
// capture-pane after every escape has been applied, against the scripted model over HTTP. What is
// checked is layout: a line typed during a turn sits under the reply as queued, then is answered on
// screen; an approval has no status line in it and takes the user's key. Each test leaves the
// chat as a user does (/exit, Ctrl-D, Ctrl-C at the prompt) and checks that the process ends.
import assert from "node:assert/strict";
/* eslint-disable no-control-regex -- colours are checked as the escape codes tmux reports */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { after, before, test } from "node:test";
import { stringify as toYaml } from "yaml";
import { HERMES_BIN, makeTempDir, scriptedConfig } from "../support/acp-harness";
import { startScriptedModel, type ScriptedModel, type ScriptedReply } from "../support/scripted-model";
import { hasTmux, startInTmux } from "../support/tmux";

let model: ScriptedModel;
let home: string;
let project: string;
let env: NodeJS.ProcessEnv;
before(async () => {
  assert.ok(existsSync(HERMES_BIN), "dist/hermes.js is missing: run `npm run build` first");
  assert.ok(hasTmux(), "tmux is missing: apt-get install tmux (test/e2e/setup-tools.sh does)");
  model = await startScriptedModel();
  home = await makeTempDir("hermes-screen-home-");
  project = await makeTempDir("hermes-screen-project-");
  writeFileSync(path.join(home, "config.yaml"), toYaml(scriptedConfig(model.url)));
  env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith("HERMES_") && !key.endsWith("_API_KEY") && !key.startsWith("NODE_TEST") && key !== "NO_COLOR" && key !== "FORCE_COLOR") env[key] = value;
  }
  env.HERMES_HOME = home;
  env.TERM = "xterm-256color";
  // As on a CI machine: a CI variable must not take colour from a terminal (chalk's own guess would).
  env.CI = "true";
});
after(async () => {
  await model.close();
});

/** A reply held back until the test releases it (a model still thinking). */
function heldReply(): { reply: ScriptedReply; release: (reply: ScriptedReply) => void } {
  let release!: (reply: ScriptedReply) => void;
  const answer = new Promise<ScriptedReply>((resolve) => (release = resolve));
  return { reply: { handler: () => answer }, release };
}

const AT_PROMPT = /\n› \s*$/;

test("a line typed during a turn shows as queued under the reply, then runs and its answer is on screen", async (t) => {
  const pane = startInTmux([process.execPath, HERMES_BIN, "chat", "--cwd", project], { env });
  t.after(() => pane.kill());
  await pane.waitFor(AT_PROMPT);
  const first = heldReply();
  t.after(() => first.release({ text: "(released)" }));
  model.enqueue(first.reply, { text: "SECOND-ANSWER" });
  pane.type("first question");
  pane.press("Enter");
  // The turn is running (its spinner is up) before the next line is typed.
  await pane.waitFor(/› first question\n\S+ working · \d+ s/);
  pane.type("second question");
  pane.press("Enter");
  await pane.waitFor(/queued: second question/);
  first.release({ text: "FIRST-ANSWER", usage: { prompt_tokens: 1234, completion_tokens: 56 } });
  const screen = await pane.waitFor(/SECOND-ANSWER[\s\S]*\n› \s*$/);
  // The typed text never lands inside the reply, and the order on screen is the order of events.
  assert.match(screen, /› first question\n[\s\S]*queued: second question\n[\s\S]*FIRST-ANSWER\n[\s\S]*› second question\n[\s\S]*SECOND-ANSWER/, screen);
  assert.doesNotMatch(screen, /FIRST-ANSWER\S|\Ssecond question/, "nothing typed is mixed into a line of the reply");
  assert.match(JSON.stringify(model.requests.at(-1)!.body.messages), /second question/);
  assert.match(screen, /FIRST-ANSWER\n+\d+(\.\d)? s · 1,234 in · 56 out\n/, "a usage line after the turn");
  pane.type("/exit");
  pane.press("Enter");
  assert.equal(await pane.exited(), 0, pane.screen());
});

test("an approval opened after a long wait has no status line in it, and the key answers it", async (t) => {
  writeFileSync(path.join(project, "notes.txt"), "alpha\nbeta\ngamma\n");
  const pane = startInTmux([process.execPath, HERMES_BIN, "chat", "--cwd", project], { env });
  t.after(() => pane.kill());
  await pane.waitFor(AT_PROMPT);
  const slow = heldReply();
  t.after(() => slow.release({ text: "(released)" }));
  model.enqueue(slow.reply, { text: "PATCHED" });
  pane.type("capitalize beta");
  pane.press("Enter");
  await pane.waitFor(/waiting for the model/);
  slow.release({ toolCalls: [{ id: "p1", name: "patch", arguments: { path: "notes.txt", old_string: "beta", new_string: "BETA" } }] });
  const asking = await pane.waitFor(/Allow\? y = yes once[^\n]*\[n\]: \s*$/);
  assert.doesNotMatch(asking.slice(asking.lastIndexOf("› capitalize beta")), /waiting for the model|working ·/, asking);
  const coloured = pane.screen({ colours: true });
  assert.match(coloured, /\x1b\[31m- beta\n/, "a removed line in red");
  assert.match(coloured, /\x1b\[32m\+ BETA\n/, "an added line in green");
  pane.type("y");
  pane.press("Enter");
  await pane.waitFor(/PATCHED[\s\S]*\n› \s*$/);
  assert.equal(readFileSync(path.join(project, "notes.txt"), "utf8"), "alpha\nBETA\ngamma\n");
  pane.press("C-d");
  assert.equal(await pane.exited(), 0, pane.screen());
});

test("--continue shows where the chat was: the last exchanges, compactly; /history shows more", async (t) => {
  const pane = startInTmux([process.execPath, HERMES_BIN, "chat", "--continue", "--cwd", project], { env });
  t.after(() => pane.kill());
  const screen = await pane.waitFor(/Resumed session [\s\S]*\n› \s*$/);
  // The last session here is the approval test's: its prompt and the reply after the edit.
  assert.match(screen, /Resumed session [0-9a-f-]+\.\n› capitalize beta\n[\s\S]*PATCHED\n/, screen);
  pane.type("/history");
  pane.press("Enter");
  await pane.waitFor(/› \/history\n› capitalize beta\n[\s\S]*PATCHED\n[\s\S]*\n› \s*$/);
  pane.press("C-c");
  assert.equal(await pane.exited(), 0, pane.screen());
});

test("Ctrl-C during a turn cancels it and the chat goes on", async (t) => {
  const pane = startInTmux([process.execPath, HERMES_BIN, "chat", "--cwd", project], { env });
  t.after(() => pane.kill());
  await pane.waitFor(AT_PROMPT);
  const held = heldReply();
  t.after(() => held.release({ text: "(released)" }));
  model.enqueue(held.reply);
  pane.type("a long one");
  pane.press("Enter");
  await pane.waitFor(/› a long one\n\S+ working · \d+ s/);
  pane.press("C-c");
  const screen = await pane.waitFor(/\(cancelling\)[\s\S]*\n› \s*$/);
  assert.doesNotMatch(screen.slice(screen.indexOf("(cancelling)")), /working ·/, "the spinner is gone with the turn");
  // A second Ctrl-C, at the prompt, quits.
  pane.press("C-c");
  assert.equal(await pane.exited(), 0, pane.screen());
});

test("Ctrl-S sends the queued line to the running turn as /steer; Ctrl-O shows the last tool step in full", async (t) => {
  writeFileSync(path.join(project, "steer.txt"), "alpha\nbeta\ngamma\n");
  const pane = startInTmux([process.execPath, HERMES_BIN, "chat", "--cwd", project], { env });
  t.after(() => pane.kill());
  await pane.waitFor(AT_PROMPT);
  const held = heldReply();
  t.after(() => held.release({ text: "(released)" }));
  model.enqueue(held.reply, { text: "STEERED-ANSWER" });
  pane.type("look at the notes");
  pane.press("Enter");
  await pane.waitFor(/› look at the notes\n\S+ working · \d+ s/);
  pane.type("use the second line");
  pane.press("Enter");
  await pane.waitFor(/queued: use the second line/);
  pane.press("C-s");
  await pane.waitFor(/↪ steer: use the second line\n/);
  // The steer is taken at the next step: the model's next call (after its tool call) carries it.
  held.release({ toolCalls: [{ id: "r1", name: "read_file", arguments: { path: "steer.txt" } }] });
  const screen = await pane.waitFor(/STEERED-ANSWER[\s\S]*\n› \s*$/);
  assert.match(JSON.stringify(model.requests.at(-1)!.body.messages), /use the second line/);
  // Sent once, as guidance: the queue is empty, so no prompt of its own follows the turn.
  assert.doesNotMatch(screen, /› use the second line/, screen);
  pane.press("C-o");
  const expanded = await pane.waitFor(/STEERED-ANSWER[\s\S]*\n✓ [^\n]*steer\.txt[^\n]*\n[^\n]*alpha[\s\S]*gamma[\s\S]*\n› \s*$/);
  assert.doesNotMatch(expanded.slice(expanded.lastIndexOf("STEERED-ANSWER")), /No tool steps/, expanded);
  pane.type("/exit");
  pane.press("Enter");
  assert.equal(await pane.exited(), 0, pane.screen());
});

test("a markdown reply is rendered on screen: heading, bold, a highlighted code block, a table", async (t) => {
  const pane = startInTmux([process.execPath, HERMES_BIN, "chat", "--cwd", project], { env });
  t.after(() => pane.kill());
  await pane.waitFor(AT_PROMPT);
  model.enqueue({ text: "# Plan\n\nSome **bold** words.\n\n```js\nconst answer = 42;\n```\n\n| name | size |\n|---|---|\n| a.ts | 12 |\n\nEND-OF-REPLY" });
  pane.type("show me markdown");
  pane.press("Enter");
  const screen = await pane.waitFor(/END-OF-REPLY[\s\S]*\n› \s*$/);
  const reply = screen.slice(screen.indexOf("› show me markdown"));
  assert.doesNotMatch(reply, /^# Plan|\*\*bold\*\*|```|\|---/m, "no raw markdown syntax on screen");
  assert.match(reply, /│ name\s+│ size\s+│/, "the table has borders");
  const coloured = pane.screen({ colours: true });
  assert.match(coloured, /\x1b\[[0-9;]*1[0-9;]*m[^\n]*Plan/, "the heading is styled (bold)");
  assert.match(coloured, /\x1b\[[0-9;]*1m[^\n]*bold(\x1b\[[0-9;]*m)+ words/, "bold is bold");
  // Highlighted: the keyword and the number in colours of their own, not the plain text colour.
  const codeLine = coloured.split("\n").find((line) => line.includes("answer"))!;
  assert.ok((codeLine.match(/\x1b\[[0-9;]*m/g) ?? []).length >= 3, `the code line is highlighted: ${JSON.stringify(codeLine)}`);
  pane.type("/exit");
  pane.press("Enter");
  assert.equal(await pane.exited(), 0, pane.screen());
});

test("a command's output that sets the terminal's title or writes its clipboard does neither: the text shows, the codes do not run", async (t) => {
  const pane = startInTmux([process.execPath, HERMES_BIN, "chat", "--cwd", project], { env });
  t.after(() => pane.kill());
  await pane.waitFor(AT_PROMPT);
  const titleBefore = pane.title();
  const command = String.raw`printf 'shown-before]2;PWNED-TITLE]52;c;cHduZWQ=shown-after
'`;
  model.enqueue({ toolCalls: [{ id: "p1", name: "terminal", arguments: { command } }] }, { text: "PRINTED" });
  pane.type("print it");
  pane.press("Enter");
  const screen = await pane.waitFor(/PRINTED[\s\S]*\n› \s*$/);
  assert.match(screen, /shown-beforeshown-after/, screen);
  assert.notEqual(pane.title(), "PWNED-TITLE", "the title was not set by the command's output");
  assert.equal(pane.title(), titleBefore);
  pane.type("/exit");
  pane.press("Enter");
  assert.equal(await pane.exited(), 0, pane.screen());
});

test("a command's approval shows the command once, with why, and no status line", async (t) => {
  const pane = startInTmux([process.execPath, HERMES_BIN, "chat", "--cwd", project], { env });
  t.after(() => pane.kill());
  await pane.waitFor(AT_PROMPT);
  model.enqueue({ toolCalls: [{ id: "c1", name: "terminal", arguments: { command: "rm -rf build" } }] }, { text: "LEFT-ALONE" });
  pane.type("clean up");
  pane.press("Enter");
  const asking = await pane.waitFor(/Allow\? y = yes once[^\n]*\[n\]: \s*$/);
  const card = asking.slice(asking.lastIndexOf("› clean up"));
  assert.equal(card.split("rm -rf build").length - 1, 1, card);
  assert.match(card, /\n\? \$ rm -rf build\nNeeds approval: recursive delete[^\n]*\nAllow\? y = yes once, s = allow this command for this session, n = no/, card);
  assert.doesNotMatch(card, /waiting for the model|working ·/, card);
  pane.type("n");
  pane.press("Enter");
  await pane.waitFor(/LEFT-ALONE[\s\S]*\n› \s*$/);
  pane.press("C-d");
  assert.equal(await pane.exited(), 0, pane.screen());
});
