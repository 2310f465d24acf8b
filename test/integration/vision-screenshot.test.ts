// The built bundle on stdio, a real Chromium, a text-only main model and a vision model, each a
// scripted server on the Chat Completions wire format: the model takes a screenshot of a page on
// 127.0.0.1, which reaches it as the vision model's description (never as an image part), then
// asks vision_analyze about the latest screenshot and gets the vision model's answer as the result.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { scriptedConfig, makeTempDir, startHermes } from "../support/acp-harness";
import type { RecordedRequest } from "../support/scripted-http";
import { startScriptedModel, useScriptedModel, type ScriptedModel } from "../support/scripted-model";
import { startServer, type TestServer } from "../support/web-servers";

const scripted = useScriptedModel();
let site: TestServer;
let vision: ScriptedModel;

before(async () => {
  site = await startServer({ "/": (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end("<h1>Dev app</h1><button>Save</button>") });
  // The vision model answers by what it is asked: the describer's question, or vision_analyze's.
  const answer = (request: RecordedRequest) => ({ text: /Describe this image/.test(JSON.stringify(request.body.messages)) ? "A page titled Dev app with a Save button." : "The button says Save." });
  vision = await startScriptedModel({ fallback: { handler: answer } });
});

after(async () => {
  await Promise.all([site.close(), vision.close()]);
});

function toolResult(request: RecordedRequest, id: string): string {
  const message = request.body.messages.find((m: { role: string; tool_call_id?: string }) => m.role === "tool" && m.tool_call_id === id) as { content: string } | undefined;
  assert.ok(message, `no result for ${id}`);
  return message.content;
}

test("a text-only model gets the screenshot described; vision_analyze {screenshot: true} asks the vision model about it", async () => {
  const model = scripted();
  model.enqueue(
    { toolCalls: [{ id: "n1", name: "browser_navigate", arguments: { url: site.origin } }] },
    { toolCalls: [{ id: "p1", name: "browser_screenshot", arguments: {} }] },
    { toolCalls: [{ id: "v1", name: "vision_analyze", arguments: { screenshot: true, question: "What does the button say?" } }] },
    { text: "It says Save." },
  );
  const config = scriptedConfig(model.url, {
    model: { ...(scriptedConfig(model.url).model as object), vision: false },
    auxiliary_vision: { provider: "custom", name: "gpt-4o", base_url: vision.url, api_key: "sk-test", api_mode: "chat_completions" },
    tools: { enabled: ["browser"] },
  });
  const hermes = await startHermes({ config, permission: "allow" });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(await makeTempDir("hermes-vision-"));
    const first = model.requests.length;
    assert.equal((await hermes.prompt(sessionId, "Check the dev app")).stopReason, "end_turn");
    const requests = model.requests.slice(first);
    for (const request of requests) assert.doesNotMatch(JSON.stringify(request.body.messages), /image_url|data:image/, "no image reaches the text-only model");
    assert.match(JSON.stringify(requests[2]!.body.messages), /the vision model described it: A page titled Dev app with a Save button\./);
    assert.match(toolResult(requests[3]!, "v1"), /The latest screenshot: The button says Save\./);
    // Both vision requests carried the screenshot as an image part.
    assert.equal(vision.requests.length, 2);
    for (const request of vision.requests) assert.match(JSON.stringify(request.body.messages), /"type":"image_url","image_url":\{"url":"data:image\/png;base64,iVBOR/);
  } finally {
    await hermes.close();
  }
});
