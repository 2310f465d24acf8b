// vision_analyze asks the vision model (auxiliary_vision) about an image over that model's own API
// (Chat Completions, Responses, Anthropic Messages): its request carries the image, its answer is
// the tool result. The image comes from a workspace file, an image URL (through web_fetch's
// network guard: a loopback site is refused unless web.allow_private lists it) or the latest
// browser screenshot; with no model that sees, the tool says how to configure one.
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { after, before, test } from "node:test";
import { startScriptedAnthropic, type ScriptedAnthropic } from "../support/scripted-anthropic";
import { startScriptedResponses, type ScriptedResponses } from "../support/scripted-responses";
import { startScriptedModel, useScriptedModel, type ScriptedModel } from "../support/scripted-model";
import { startServer, type TestServer } from "../support/web-servers";
import { imagePixelSize } from "../../acp-server/tools/image-size";
import { pngOfSize } from "../support/png-file";
import { makeTempDir, scriptedConfig, startAgent } from "../support/in-process-agent";

const scripted = useScriptedModel();
/** A real 1×1 PNG. */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");
const B64 = PNG.toString("base64");

let anthropic: ScriptedAnthropic;
let responses: ScriptedResponses;
let chat: ScriptedModel;
let site: TestServer;
before(async () => {
  [anthropic, responses, chat] = await Promise.all([startScriptedAnthropic(), startScriptedResponses(), startScriptedModel()]);
  site = await startServer({
    "/logo.png": (_request, response) => response.writeHead(200, { "content-type": "image/png" }).end(PNG),
    "/page.html": (_request, response) => response.writeHead(200, { "content-type": "text/html" }).end("<p>not an image</p>"),
  });
});
after(async () => {
  await Promise.all([anthropic.close(), responses.close(), chat.close(), site.close()]);
});

/** Runs one prompt in which the main model calls vision_analyze with `args`; returns the tool result the main model got. */
async function analyze(args: Record<string, unknown>, extra: Record<string, unknown>): Promise<string> {
  const model = scripted();
  const project = await makeTempDir();
  await writeFile(path.join(project, "shot.png"), PNG);
  await writeFile(path.join(project, "big.png"), pngOfSize(3000, 2000));
  const first = model.requests.length;
  model.enqueue({ toolCalls: [{ id: "v", name: "vision_analyze", arguments: args }] }, { text: "thanks" });
  const config = scriptedConfig(model.url, { model: { ...(scriptedConfig(model.url).model as object), vision: false }, ...extra });
  const hermes = await startAgent({ config, permission: "allow" });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    assert.equal((await hermes.prompt(sessionId, "what is in shot.png?")).stopReason, "end_turn");
    const result = model.requests[first + 1]!.body.messages.find((m: any) => m.role === "tool" && m.tool_call_id === "v");
    return String(result.content);
  } finally {
    await hermes.close();
  }
}

test("vision_analyze over Anthropic Messages: the image block goes to the vision model, its answer comes back", async () => {
  const first = anthropic.requests.length;
  anthropic.enqueue({ text: "A red dot." });
  const result = await analyze({ path: "shot.png", question: "What colour is the dot?" }, { auxiliary_vision: { provider: "anthropic", name: "claude-haiku-4-5", base_url: anthropic.url, api_key: "sk-ant-test" } });
  assert.match(result, /shot\.png: A red dot\./);
  const user = JSON.stringify(anthropic.requests[first]!.body.messages);
  assert.match(user, new RegExp(`"type":"image","source":\\{"type":"base64","media_type":"image/png","data":"${B64.slice(0, 40).replace(/[+/]/g, "\\$&")}`));
  assert.match(user, /What colour is the dot\?/);
});

test("vision_analyze sends the vision model a copy fitted to its API (1568 px on Anthropic)", async () => {
  const first = anthropic.requests.length;
  anthropic.enqueue({ text: "A grey field." });
  const result = await analyze({ path: "big.png", question: "What is it?" }, { auxiliary_vision: { provider: "anthropic", name: "claude-haiku-4-5", base_url: anthropic.url, api_key: "sk-ant-test" } });
  assert.match(result, /A grey field\./);
  const [, mimeType, data] = /"media_type":"([^"]+)","data":"([^"]+)"/.exec(JSON.stringify(anthropic.requests[first]!.body.messages))!;
  const size = imagePixelSize(Buffer.from(data!, "base64"), mimeType!);
  assert.deepEqual(size, { width: 1568, height: 1045 });
});

test("vision_analyze over Chat Completions and Responses: the image part in each API's form", async () => {
  let first = chat.requests.length;
  chat.enqueue({ text: "Chat sees a dot." });
  let result = await analyze({ path: "shot.png", question: "What is it?" }, { auxiliary_vision: { provider: "custom", name: "gpt-4o", base_url: chat.url, api_key: "sk-test", api_mode: "chat_completions" } });
  assert.match(result, /Chat sees a dot\./);
  assert.match(JSON.stringify(chat.requests[first]!.body.messages), new RegExp(`"type":"image_url","image_url":\\{"url":"data:image/png;base64,${B64.slice(0, 40).replace(/[+/]/g, "\\$&")}`));

  first = responses.requests.length;
  responses.enqueue({ text: "Responses sees a dot." });
  result = await analyze({ path: "shot.png", question: "What is it?" }, { auxiliary_vision: { provider: "openai", name: "gpt-5", base_url: responses.url, api_key: "sk-test", api_mode: "codex_responses" } });
  assert.match(result, /Responses sees a dot\./);
  assert.match(JSON.stringify(responses.requests[first]!.body.input), /"type":"input_image"[^}]*"image_url":"data:image\/png;base64,iVBOR/);
});

test("vision_analyze on a URL goes through web_fetch's network guard; refusals and wrong types are clear", async () => {
  const vision = { auxiliary_vision: { provider: "anthropic", name: "claude-haiku-4-5", base_url: anthropic.url, api_key: "sk-ant-test" } };
  const first = anthropic.requests.length;
  const refused = await analyze({ url: `${site.origin}/logo.png`, question: "What is it?" }, vision);
  assert.match(refused, /private|loopback|allow_private/i, refused);
  assert.equal(anthropic.requests.length, first, "nothing asked of the vision model");

  anthropic.enqueue({ text: "A logo." });
  const allowed = { ...vision, web: { allow_private: ["127.0.0.1"] } };
  assert.match(await analyze({ url: `${site.origin}/logo.png`, question: "What is it?" }, allowed), /logo\.png: A logo\./);
  assert.match(await analyze({ url: `${site.origin}/page.html`, question: "What is it?" }, allowed), /not a PNG, JPEG, GIF or WebP image \(its type is text\/html\)/);
});

test("vision_analyze without a model that sees says how to configure one; no screenshot yet is said plainly", async () => {
  assert.match(await analyze({ path: "shot.png", question: "What is it?" }, {}), /No model that can see images is configured: set auxiliary_vision/);
  const vision = { auxiliary_vision: { provider: "anthropic", name: "claude-haiku-4-5", base_url: anthropic.url, api_key: "sk-ant-test" } };
  assert.match(await analyze({ screenshot: true, question: "What is it?" }, vision), /no browser screenshot yet/);
  assert.match(await analyze({ path: "shot.png", screenshot: true, question: "?" }, vision), /exactly one of path, url or screenshot/);
});
