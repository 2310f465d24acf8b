// `hermes chat` in a real pseudo-terminal: /undo shows the restore's diff and a numbered menu of
// its choices, and the chosen one restores the file.
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { stringify as toYaml } from "yaml";
import { HERMES_BIN, makeTempDir, scriptedConfig } from "../support/acp-harness";
import { spawnInPty } from "../support/pty";
import { useScriptedModel } from "../support/scripted-model";

const scripted = useScriptedModel();
const PROMPT = /\n› $/;

test("hermes chat: /undo shows the diff, then 1) Restore 2) Cancel; 1 restores the file", async (t) => {
  assert.ok(existsSync(HERMES_BIN), "dist/hermes.js is missing: run `npm run build` first");
  const model = scripted();
  const home = await makeTempDir("hermes-chat-undo-home-");
  const project = await makeTempDir("hermes-chat-undo-project-");
  writeFileSync(path.join(home, "config.yaml"), toYaml(scriptedConfig(model.url)));
  writeFileSync(path.join(project, "notes.txt"), "alpha\n");
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith("HERMES_") && !key.endsWith("_API_KEY") && !key.startsWith("NODE_TEST")) env[key] = value;
  }
  env.HERMES_HOME = home;
  const pty = spawnInPty([process.execPath, HERMES_BIN, "chat", "--cwd", project], { env });
  t.after(() => pty.kill());
  await pty.waitFor(PROMPT);
  model.enqueue({ toolCalls: [{ id: "p1", name: "patch", arguments: { path: "notes.txt", old_string: "alpha", new_string: "ALPHA" } }] }, { text: "EDITED" });
  let mark = pty.output().length;
  pty.write("shout\r");
  await pty.waitFor(/Allow\?.*\[n\]: $/, { from: mark });
  pty.write("y\r");
  await pty.waitFor(/EDITED[\s\S]*\n› $/, { from: mark });
  assert.equal(readFileSync(path.join(project, "notes.txt"), "utf8"), "ALPHA\n");

  mark = pty.output().length;
  pty.write("/undo\r");
  await pty.waitFor(/Choose 1-2 \[2\]: $/, { from: mark });
  const shown = pty.output().slice(mark);
  assert.match(shown, /- ALPHA\n\+ alpha/, shown);
  assert.match(shown, / {2}1\) Restore\n {2}2\) Cancel/);
  pty.write("1\r");
  await pty.waitFor(/Restored 1 file to before turn 1[\s\S]*\n› $/, { from: mark });
  assert.equal(readFileSync(path.join(project, "notes.txt"), "utf8"), "alpha\n");
  pty.write("/exit\r");
  assert.equal(await pty.exited, 0, pty.output());
});
