// The interactive `hermes chat` in a real pseudo-terminal (util-linux `script`), against the
// scripted model over HTTP: multi-turn, an approval that shows the diff and is refused, --continue,
// the waiting line for a model that never answers, Ctrl-C cancelling a turn, Ctrl-D quitting.
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { after, before, test } from "node:test";
import { stringify as toYaml } from "yaml";
import { HERMES_BIN, makeTempDir, scriptedConfig } from "../support/acp-harness";
import { spawnInPty } from "../support/pty";
import { startScriptedModel, type ScriptedModel } from "../support/scripted-model";

let model: ScriptedModel;
let home: string;
let project: string;
let env: NodeJS.ProcessEnv;
before(async () => {
  assert.ok(existsSync(HERMES_BIN), "dist/hermes.js is missing: run `npm run build` first");
  model = await startScriptedModel();
  home = await makeTempDir("hermes-repl-home-");
  project = await makeTempDir("hermes-repl-project-");
  writeFileSync(path.join(home, "config.yaml"), toYaml(scriptedConfig(model.url)));
  env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith("HERMES_") && !key.endsWith("_API_KEY") && !key.startsWith("NODE_TEST")) env[key] = value;
  }
  env.HERMES_HOME = home;
});
after(async () => {
  await model.close();
});

const PROMPT = /\n› $/;

test("two turns in one session; an edit's approval shows the diff and explains always; n reads as refused", async (t) => {
  writeFileSync(path.join(project, "notes.txt"), "alpha\nbeta\ngamma\n");
  const pty = spawnInPty([process.execPath, HERMES_BIN, "chat", "--cwd", project], { env });
  t.after(() => pty.kill());
  await pty.waitFor(PROMPT);
  model.enqueue(
    { toolCalls: [{ id: "p1", name: "patch", arguments: { path: "notes.txt", old_string: "beta", new_string: "BETA" } }] },
    { text: "FIRST-REPLY" },
  );
  let mark = pty.output().length;
  pty.write("capitalize beta\r");
  await pty.waitFor(/Allow\? y = yes once, s = allow edits to `notes\.txt` for this session, n = no, a = always \(saved in config\.yaml approvals\.rules, like an editor's "Always allow"\) \[n\]: $/, { from: mark });
  const shown = pty.output().slice(mark);
  assert.match(shown, /- beta\n\+ BETA/, shown);
  assert.match(shown, / {2}alpha/, "context lines around the change");
  pty.write("n\r");
  await pty.waitFor(/refused: [\s\S]*FIRST-REPLY[\s\S]*\n› $/, { from: mark });
  assert.doesNotMatch(pty.output().slice(mark), /failed/, "a refusal is not a failure");
  assert.equal(readFileSync(path.join(project, "notes.txt"), "utf8"), "alpha\nbeta\ngamma\n");

  model.enqueue({ text: "SECOND-REPLY" });
  mark = pty.output().length;
  pty.write("and now?\r");
  await pty.waitFor(/SECOND-REPLY[\s\S]*\n› $/, { from: mark });
  const history = JSON.stringify(model.requests.at(-1)!.body.messages);
  assert.match(history, /capitalize beta/, "the second turn carries the first");
  assert.match(history, /FIRST-REPLY/);

  pty.write("/exit\r");
  assert.equal(await pty.exited, 0, pty.output());
});

test("--continue resumes the last session in this folder; Ctrl-D quits", async (t) => {
  const pty = spawnInPty([process.execPath, HERMES_BIN, "chat", "--continue", "--cwd", project], { env });
  t.after(() => pty.kill());
  await pty.waitFor(/Resumed session [0-9a-f-]+\.[\s\S]*\n› $/);
  model.enqueue({ text: "THIRD-REPLY" });
  const mark = pty.output().length;
  pty.write("one more\r");
  await pty.waitFor(/THIRD-REPLY[\s\S]*\n› $/, { from: mark });
  const history = JSON.stringify(model.requests.at(-1)!.body.messages);
  assert.match(history, /capitalize beta/);
  assert.match(history, /SECOND-REPLY/);
  pty.write("/history capitalize\r");
  await pty.waitFor(/ {2}capitalize beta\n[\s\S]*\n› $/, { from: mark });
  // Ctrl-R finds the line typed in the earlier chat; Enter sends it again.
  model.enqueue({ text: "AGAIN-REPLY" });
  const searched = pty.output().length;
  pty.write("\x12beta");
  await pty.waitFor(/reverse-i-search\)`beta': capitalize beta/, { from: searched });
  pty.write("\r");
  await pty.waitFor(/AGAIN-REPLY[\s\S]*\n› $/, { from: searched });
  const resent = model.requests.at(-1)!.body.messages.filter((m: any) => m.role === "user").at(-1);
  assert.match(JSON.stringify(resent), /capitalize beta/);
  pty.write("\x04");
  assert.equal(await pty.exited, 0, pty.output());
});

test("a model that accepts the request but never answers: a waiting line naming model.timeout; Ctrl-C cancels the turn, the chat goes on", async (t) => {
  const pty = spawnInPty([process.execPath, HERMES_BIN, "chat", "--cwd", project], { env });
  t.after(() => pty.kill());
  await pty.waitFor(PROMPT);
  model.enqueue({ hang: true });
  const mark = pty.output().length;
  pty.write("are you there?\r");
  await pty.waitFor(/waiting for the model \(\d+ s without an answer; model\.timeout = \d+ s in config\.yaml/, { from: mark });
  pty.write("\x03");
  await pty.waitFor(/\(stopped: cancelled\)[\s\S]*\n› $/, { from: mark });
  model.enqueue({ text: "AFTER-CANCEL" });
  pty.write("still there?\r");
  await pty.waitFor(/AFTER-CANCEL[\s\S]*\n› $/, { from: mark });
  pty.write("/exit\r");
  assert.equal(await pty.exited, 0, pty.output());
});

test("a = always saves the rule in config.yaml as an editor's Always allow does; a failed command shows its last lines and exit code", async (t) => {
  const pty = spawnInPty([process.execPath, HERMES_BIN, "chat", "--cwd", project], { env });
  t.after(() => pty.kill());
  await pty.waitFor(PROMPT);
  model.enqueue(
    { toolCalls: [{ id: "w1", name: "write_file", arguments: { path: "fresh.txt", content: "new\n" } }] },
    { toolCalls: [{ id: "c1", name: "terminal", arguments: { command: "for i in $(seq 1 30); do echo line$i; done; exit 3" } }] },
    { text: "DONE-REPLY" },
  );
  const mark = pty.output().length;
  pty.write("make a file, then count\r");
  await pty.waitFor(/\+\+\+ .*fresh\.txt[\s\S]*\+ new[\s\S]*\[n\]: $/, { from: mark });
  pty.write("a\r");
  // The command may or may not ask, depending on how it is screened: answer yes if it does.
  await pty.waitFor(/(\[n\]: $)|(exit code 3)/, { from: mark });
  if (/\[n\]: $/.test(pty.output())) pty.write("y\r");
  await pty.waitFor(/DONE-REPLY[\s\S]*\n› $/, { from: mark });
  const shown = pty.output().slice(mark);
  assert.match(shown, /line30/);
  assert.match(shown, /earlier lines/);
  assert.doesNotMatch(shown, /line1\n/, "truncated to the last lines");
  assert.equal(shown.match(/exit code 3/g)?.length, 1, `the exit code is said once: ${shown}`);
  assert.doesNotMatch(shown, /```/, "no literal code fences");
  assert.equal(readFileSync(path.join(project, "fresh.txt"), "utf8"), "new\n");
  const config = readFileSync(path.join(home, "config.yaml"), "utf8");
  assert.match(config, /approvals:\n\s+rules:/, config);
  pty.write("/exit\r");
  assert.equal(await pty.exited, 0, pty.output());
});

test("--resume ID resumes that session; /sessions lists this folder's; an unknown id is one clear line", async (t) => {
  const listed = spawnInPty([process.execPath, HERMES_BIN, "chat", "--cwd", project], { env });
  t.after(() => listed.kill());
  await listed.waitFor(PROMPT);
  const mark = listed.output().length;
  listed.write("/sessions\r");
  await listed.waitFor(/ {2}([0-9a-f-]{36}) {2}[\s\S]*\n› $/, { from: mark });
  const id = / {2}([0-9a-f-]{36}) {2}/.exec(listed.output().slice(mark))![1];
  listed.write("/exit\r");
  assert.equal(await listed.exited, 0);

  const pty = spawnInPty([process.execPath, HERMES_BIN, "chat", "--resume", id, "--cwd", project], { env });
  t.after(() => pty.kill());
  await pty.waitFor(new RegExp(`Resumed session ${id}\\.[\\s\\S]*\\n› $`));
  pty.write("/exit\r");
  assert.equal(await pty.exited, 0, pty.output());

  const unknown = spawnInPty([process.execPath, HERMES_BIN, "chat", "--resume", "no-such-session", "--cwd", project], { env });
  t.after(() => unknown.kill());
  assert.equal(await unknown.exited, 1, unknown.output());
  assert.match(unknown.output(), /hermes: cannot start a session: /);
});

test("a session another process has open is followed; a prompt says /takeover; /takeover makes this chat its owner", async (t) => {
  const owner = spawnInPty([process.execPath, HERMES_BIN, "chat", "--cwd", project], { env });
  t.after(() => owner.kill());
  await owner.waitFor(PROMPT);
  const id = /\(session ([0-9a-f-]{36})\)/.exec(owner.output())![1]!;

  const follower = spawnInPty([process.execPath, HERMES_BIN, "chat", "--resume", id, "--cwd", project], { env });
  t.after(() => follower.kill());
  await follower.waitFor(new RegExp(`Resumed session ${id}\\.[\\s\\S]*\\n› $`));
  const asked = model.requests.length;
  let mark = follower.output().length;
  follower.write("hello from the terminal\r");
  await follower.waitFor(/another Hermes process \(pid \d+\) has this session open[\s\S]*type \/takeover[\s\S]*\n› $/, { from: mark });
  assert.equal(model.requests.length, asked, "a follower's prompt never reaches the model");

  mark = follower.output().length;
  follower.write("/takeover\r");
  await follower.waitFor(new RegExp(`Took over session ${id}\\.[\\s\\S]*\\n› $`), { from: mark });
  model.enqueue({ text: "OWNED-REPLY" });
  mark = follower.output().length;
  follower.write("hello again\r");
  await follower.waitFor(/OWNED-REPLY[\s\S]*\n› $/, { from: mark });

  // The process that lost the session refuses to write to it rather than interleave.
  mark = owner.output().length;
  owner.write("still mine?\r");
  await owner.waitFor(/hermes: [\s\S]*\n› $/, { from: mark });
  assert.doesNotMatch(owner.output().slice(mark), /OWNED-REPLY|still mine\?[\s\S]*REPLY/);
  follower.write("/exit\r");
  owner.write("/exit\r");
  assert.equal(await follower.exited, 0, follower.output());
  assert.equal(await owner.exited, 0, owner.output());
});
