// `hermes chat` answers the agent's questions (the clarify tool, as elicitation/create) at the
// prompt, in a real pseudo-terminal against the built bundle and the scripted model: a numbered
// menu of the choices with their descriptions, a line for free text, an empty answer declines.
import assert from "node:assert/strict";
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { after, before, test } from "node:test";
import { stringify as toYaml } from "yaml";
import { HERMES_BIN, makeTempDir, scriptedConfig } from "../support/acp-harness";
import { spawnInPty } from "../support/pty";
import { startScriptedModel, type ScriptedModel } from "../support/scripted-model";

let model: ScriptedModel;
let env: NodeJS.ProcessEnv;
let project: string;
before(async () => {
  assert.ok(existsSync(HERMES_BIN), "dist/hermes.js is missing: run `npm run build` first");
  model = await startScriptedModel();
  const home = await makeTempDir("hermes-clarify-home-");
  project = await makeTempDir("hermes-clarify-project-");
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
const toolResult = (id: string) => JSON.parse(model.requests.at(-1)!.body.messages.find((m: any) => m.role === "tool" && m.tool_call_id === id).content);

test("the chat asks clarify's question at the prompt: a choice by number, free text, and an empty answer declines", async (t) => {
  const pty = spawnInPty([process.execPath, HERMES_BIN, "chat", "--cwd", project], { env });
  t.after(() => pty.kill());
  await pty.waitFor(PROMPT);
  const choices = [{ label: "Keep it", description: "leave the file as it is" }, { label: "Rewrite it" }];
  model.enqueue({ toolCalls: [{ id: "q1", name: "clarify", arguments: { question: "What about old.txt?", choices } }] }, { text: "PICKED" });
  let mark = pty.output().length;
  pty.write("tidy up\r");
  await pty.waitFor(/Answer: choose 1-2 \(empty: skip\)[^\n]*: $/, { from: mark });
  const shown = pty.output().slice(mark);
  assert.match(shown, /\? What about old\.txt\?/);
  assert.match(shown, / {2}1\) Keep it — leave the file as it is\n {2}2\) Rewrite it/);
  pty.write("2\r");
  await pty.waitFor(/PICKED[\s\S]*\n› $/, { from: mark });
  assert.deepEqual(toolResult("q1"), { answered: true, answer: "Rewrite it" });

  model.enqueue({ toolCalls: [{ id: "q2", name: "clarify", arguments: { question: "Name for the new file?" } }] }, { text: "NAMED" });
  mark = pty.output().length;
  pty.write("go on\r");
  await pty.waitFor(/Answer \(empty: skip\)[^\n]*: $/, { from: mark });
  pty.write("notes.md\r");
  await pty.waitFor(/NAMED[\s\S]*\n› $/, { from: mark });
  assert.deepEqual(toolResult("q2"), { answered: true, answer: "notes.md" });

  model.enqueue({ toolCalls: [{ id: "q3", name: "clarify", arguments: { question: "Anything else?" } }] }, { text: "SKIPPED" });
  mark = pty.output().length;
  pty.write("last\r");
  await pty.waitFor(/Answer \(empty: skip\)[^\n]*: $/, { from: mark });
  pty.write("\r");
  await pty.waitFor(/SKIPPED[\s\S]*\n› $/, { from: mark });
  assert.match(toolResult("q3").note, /declined/);

  pty.write("/exit\r");
  assert.equal(await pty.exited, 0, pty.output());
});
