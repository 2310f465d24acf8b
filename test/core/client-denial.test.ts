// An editor that refuses fs/read_text_file with the generic "Internal error" and its reason in
// `data`: the model is told the reason, not the label.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import * as acp from "@agentclientprotocol/sdk/unstable";
import { makeTempDir, scriptedConfig, startAgent } from "../support/in-process-agent";
import { useScriptedModel } from "../support/scripted-model";

const scripted = useScriptedModel();

test("an editor's refusal of fs/read_text_file reaches the model in the editor's words", async (t) => {
  const model = scripted();
  const project = await makeTempDir();
  writeFileSync(path.join(project, "private.txt"), "not for the agent\n");
  const hermes = await startAgent({
    config: scriptedConfig(model.url),
    serveFs: true,
    readError: (file) => (file.endsWith("private.txt") ? acp.RequestError.internalError({ reason: "The user denied access to private.txt" }) : undefined),
  });
  t.after(() => hermes.close());
  await hermes.initialize();
  const { sessionId } = await hermes.newSession(project);
  model.enqueue({ toolCalls: [{ id: "r1", name: "read_file", arguments: { path: "private.txt" } }] }, { text: "understood" });
  await hermes.prompt(sessionId, "read private.txt");
  const toolMessage = model.requests.at(-1)!.body.messages.find((m: any) => m.role === "tool" && m.tool_call_id === "r1");
  assert.match(String(toolMessage?.content), /The user denied access to private\.txt/);
  assert.doesNotMatch(String(toolMessage?.content), /Internal error/);
  assert.doesNotMatch(String(toolMessage?.content), /not for the agent/);
});
