// Images larger than the model's API takes are sent as a smaller copy made in Chromium: longest
// side 2048 px on Chat Completions and Responses, 1568 px on Anthropic Messages, and a PNG over
// the byte cap becomes a JPEG. The tool card keeps the original. Without a Chromium the image is
// replaced by a note and the call still goes out (no HTTP 400 for the whole turn).
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { imagePixelSize } from "../../acp-server/tools/image-size";
import { pngOfSize } from "../support/png-file";
import { startScriptedAnthropic } from "../support/scripted-anthropic";
import { startScriptedResponses } from "../support/scripted-responses";
import { useScriptedModel } from "../support/scripted-model";
import { makeTempDir, scriptedConfig, sessionUpdates, startAgent } from "../support/in-process-agent";

const scripted = useScriptedModel();

function sizeOf(mimeType: string, base64: string): string {
  const size = imagePixelSize(Buffer.from(base64, "base64"), mimeType);
  return size ? `${size.width}x${size.height}` : "unreadable";
}

/** A project with a 3000×2000 PNG in it. */
async function projectWithBigImage(): Promise<string> {
  const project = await makeTempDir();
  await writeFile(path.join(project, "big.png"), pngOfSize(3000, 2000));
  return project;
}

test("Chat Completions: read_file's 3000×2000 PNG reaches the model at 2048 px, the card keeps the original; a pasted one too", async () => {
  const model = scripted();
  const project = await projectWithBigImage();
  const first = model.requests.length;
  model.enqueue({ toolCalls: [{ id: "r", name: "read_file", arguments: { path: "big.png" } }] }, { text: "seen" }, { text: "seen too" });
  const hermes = await startAgent({ config: scriptedConfig(model.url), permission: "allow" });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    assert.equal((await hermes.prompt(sessionId, "look at big.png")).stopReason, "end_turn");
    const turn = model.requests[first + 1]!.body.messages.at(-1) as { content: { type: string; image_url?: { url: string } }[] };
    const url = turn.content.find((part) => part.type === "image_url")!.image_url!.url;
    const [, mimeType, data] = /^data:([^;]+);base64,(.*)$/.exec(url)!;
    assert.equal(sizeOf(mimeType!, data!), "2048x1365");
    const card = sessionUpdates(hermes, sessionId).flatMap((u) => (u.sessionUpdate === "tool_call_update" && u.toolCallId === "r" ? (u.content ?? []) : []));
    const shown = card.find((c) => c.type === "content" && c.content.type === "image");
    assert.ok(shown?.type === "content" && shown.content.type === "image" && sizeOf(shown.content.mimeType, shown.content.data) === "3000x2000", "the card shows the original");

    await hermes.prompt(sessionId, [{ type: "text", text: "and this" }, { type: "image", mimeType: "image/png", data: pngOfSize(2400, 600).toString("base64") }]);
    const pasted = (model.requests.at(-1)!.body.messages.at(-1) as { content: { type: string; image_url?: { url: string } }[] }).content.find((part) => part.type === "image_url")!.image_url!.url;
    const [, pastedType, pastedData] = /^data:([^;]+);base64,(.*)$/.exec(pasted)!;
    assert.equal(sizeOf(pastedType!, pastedData!), "2048x512");
  } finally {
    await hermes.close();
  }
});

test("Anthropic Messages: 1568 px; a PNG still over 5 MB is sent as a JPEG under it", async () => {
  const anthropic = await startScriptedAnthropic();
  const project = await projectWithBigImage();
  anthropic.enqueue({ toolCalls: [{ name: "read_file", input: { path: "big.png" } }] }, { text: "seen" }, { text: "noisy" });
  const hermes = await startAgent({ config: { model: { provider: "anthropic", name: "claude-sonnet-4-5", base_url: anthropic.url, api_key: "sk-ant-test" }, sessions: { auto_title: false } }, permission: "allow" });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    assert.equal((await hermes.prompt(sessionId, "look at big.png")).stopReason, "end_turn");
    const toolResult = JSON.stringify(anthropic.requests[1]!.body.messages.at(-1));
    const [, mimeType, data] = /"type":"image","source":\{"type":"base64","media_type":"([^"]+)","data":"([^"]+)"/.exec(toolResult)!;
    assert.equal(sizeOf(mimeType!, data!), "1568x1045");

    // Noise does not compress: a 1400×1400 PNG is over 5 MB though within 1568 px.
    const noisy = pngOfSize(1400, 1400, "noise");
    assert.ok(noisy.length > 5 * 1024 * 1024);
    await hermes.prompt(sessionId, [{ type: "text", text: "and this" }, { type: "image", mimeType: "image/png", data: noisy.toString("base64") }]);
    const user = JSON.stringify(anthropic.requests.at(-1)!.body.messages.at(-1));
    const [, noisyType, noisyData] = /"type":"image","source":\{"type":"base64","media_type":"([^"]+)","data":"([^"]+)"/.exec(user)!;
    assert.equal(noisyType, "image/jpeg");
    assert.ok(Buffer.from(noisyData!, "base64").length <= 5 * 1024 * 1024);
    assert.equal(sizeOf(noisyType!, noisyData!), "1400x1400");
  } finally {
    await hermes.close();
    await anthropic.close();
  }
});

test("Responses: 2048 px", async () => {
  const responses = await startScriptedResponses();
  const project = await projectWithBigImage();
  responses.enqueue({ toolCalls: [{ name: "read_file", arguments: { path: "big.png" } }] }, { text: "seen" });
  const hermes = await startAgent({ config: { model: { provider: "openai", name: "gpt-5", base_url: responses.url, api_key: "sk-test", api_mode: "codex_responses" }, sessions: { auto_title: false } }, permission: "allow" });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    assert.equal((await hermes.prompt(sessionId, "look at big.png")).stopReason, "end_turn");
    const [, mimeType, data] = /"image_url":"data:([^;]+);base64,([^"]+)"/.exec(JSON.stringify(responses.requests[1]!.body.input))!;
    assert.equal(sizeOf(mimeType!, data!), "2048x1365");
  } finally {
    await hermes.close();
    await responses.close();
  }
});

/** A 1×1 GIF that loops over two frames (NETSCAPE2.0 extension), written byte by byte. */
const ANIMATED_GIF = Buffer.concat([
  Buffer.from("GIF89a", "latin1"),
  Buffer.from([1, 0, 1, 0, 0x80, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff]), // 1×1, a 2-colour table
  Buffer.from([0x21, 0xff, 0x0b]),
  Buffer.from("NETSCAPE2.0", "latin1"),
  Buffer.from([3, 1, 0, 0, 0]),
  ...[0, 1].map(() => Buffer.from([0x21, 0xf9, 4, 0, 10, 0, 0, 0, 0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 1, 0])),
  Buffer.from([0x3b]),
]);

test("an animated GIF goes to the model as its first frame, a still PNG", async () => {
  const model = scripted();
  const project = await makeTempDir();
  await writeFile(path.join(project, "spinner.gif"), ANIMATED_GIF);
  const first = model.requests.length;
  model.enqueue({ toolCalls: [{ id: "r", name: "read_file", arguments: { path: "spinner.gif" } }] }, { text: "ok" });
  const hermes = await startAgent({ config: scriptedConfig(model.url), permission: "allow" });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    assert.equal((await hermes.prompt(sessionId, "look at spinner.gif")).stopReason, "end_turn");
    const [, mimeType, data] = /"url":"data:([^;]+);base64,([^"]+)"/.exec(JSON.stringify(model.requests[first + 1]!.body.messages))!;
    assert.equal(mimeType, "image/png");
    assert.equal(sizeOf(mimeType!, data!), "1x1");
  } finally {
    await hermes.close();
  }
});

test("without a Chromium to scale with, an oversized image becomes a note and the call still goes out", async () => {
  const model = scripted();
  const project = await projectWithBigImage();
  const first = model.requests.length;
  model.enqueue({ toolCalls: [{ id: "r", name: "read_file", arguments: { path: "big.png" } }] }, { text: "ok" });
  const hermes = await startAgent({ config: scriptedConfig(model.url, { browser: { executable: path.join(project, "no-such-chromium") } }), permission: "allow" });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    assert.equal((await hermes.prompt(sessionId, "look at big.png")).stopReason, "end_turn");
    const sent = JSON.stringify(model.requests[first + 1]!.body.messages);
    assert.doesNotMatch(sent, /data:image/);
    assert.match(sent, /3000×2000 px[^"]*not shown[^"]*could not be scaled down: no Chromium/);
  } finally {
    await hermes.close();
  }
});
