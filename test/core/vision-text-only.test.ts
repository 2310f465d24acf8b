// A main model without vision never gets an image (the provider would answer HTTP 400 and end
// the turn): read_file's image and a pasted one reach it as a note naming vision_analyze, or, with
// an auxiliary vision model configured, as that model's description (asked over its own API).
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { startScriptedAnthropic } from "../support/scripted-anthropic";
import { useScriptedModel } from "../support/scripted-model";
import { makeTempDir, scriptedConfig, startAgent } from "../support/in-process-agent";

const scripted = useScriptedModel();
/** A real 1×1 PNG. */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

function textOnlyModel(url: string) {
  return { ...(scriptedConfig(url).model as object), vision: false };
}

test("a text-only main model gets a note for read_file's image and a pasted one, never an image part", async () => {
  const model = scripted();
  const project = await makeTempDir();
  await writeFile(path.join(project, "shot.png"), PNG);
  const first = model.requests.length;
  model.enqueue({ toolCalls: [{ id: "r", name: "read_file", arguments: { path: "shot.png" } }] }, { text: "noted" }, { text: "also noted" });
  const hermes = await startAgent({ config: scriptedConfig(model.url, { model: textOnlyModel(model.url) }), permission: "allow" });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    assert.equal((await hermes.prompt(sessionId, "look at shot.png")).stopReason, "end_turn");
    const afterRead = JSON.stringify(model.requests[first + 1].body.messages);
    assert.doesNotMatch(afterRead, /image_url|data:image/, "no image part reaches a text-only model");
    assert.match(afterRead, /this model cannot see images[^"]*vision_analyze/);

    await hermes.prompt(sessionId, [{ type: "text", text: "and this one?" }, { type: "image", mimeType: "image/png", data: PNG.toString("base64") }]);
    const pasted = JSON.stringify(model.requests.at(-1)!.body.messages);
    assert.doesNotMatch(pasted, /image_url|data:image/);
    assert.match(pasted, /The user attached an image \(image\/png[^"]*not shown/);
  } finally {
    await hermes.close();
  }
});

test("with auxiliary_vision configured, a text-only main model gets the vision model's description, asked once per image", async () => {
  const model = scripted();
  const vision = await startScriptedAnthropic();
  const project = await makeTempDir();
  await writeFile(path.join(project, "shot.png"), PNG);
  const first = model.requests.length;
  // A key legible in the image is redacted from the description like any tool output.
  vision.enqueue({ text: "A single red pixel on white. A note reads AKIAIOSFODNN7EXAMPLE." });
  model.enqueue({ toolCalls: [{ id: "r", name: "read_file", arguments: { path: "shot.png" } }] }, { toolCalls: [{ id: "t", name: "todo", arguments: { todos: [] } }] }, { text: "done" });
  const config = scriptedConfig(model.url, {
    model: textOnlyModel(model.url),
    auxiliary_vision: { provider: "anthropic", name: "claude-sonnet-4-5", base_url: vision.url, api_key: "sk-ant-test" },
  });
  const hermes = await startAgent({ config, permission: "allow" });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    assert.equal((await hermes.prompt(sessionId, "look at shot.png")).stopReason, "end_turn");
    // The vision model got the image as an Anthropic image block.
    assert.equal(vision.requests.length, 1, "described once, though the history went out twice more");
    const asked = JSON.stringify(vision.requests[0]!.body.messages);
    assert.match(asked, /"type":"image","source":\{"type":"base64","media_type":"image\/png","data":"iVBOR/);
    // The main model got its words instead of the image, in the later call too.
    for (const request of model.requests.slice(first + 1)) {
      const sent = JSON.stringify(request.body.messages);
      assert.doesNotMatch(sent, /image_url|data:image/);
      assert.match(sent, /the vision model described it: A single red pixel on white\./);
      assert.doesNotMatch(sent, /IOSFODNN7EXAMPLE/, "the key in the description is redacted");
    }
  } finally {
    await hermes.close();
    await vision.close();
  }
});
