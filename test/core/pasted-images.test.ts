// Images pasted into a prompt, over the real protocol with a scripted model: after session/load
// (in this process, and in another process that takes the session over) the prompt replays with
// its image block, and the model's next request still holds the image. After /compress the
// images leave the model's context as short texts that say what they were (the first exchange's
// image included, which would otherwise ride along forever), the summarizer is told about the
// ones in the summarized middle, and a load still shows the user every image.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { test } from "node:test";
import { isSummaryRequest, templateSummary } from "../support/compression-fixtures";
import { makeTempDir, sessionUpdates, startAgent } from "../support/in-process-agent";
import type { RecordedRequest } from "../support/scripted-http";
import { startScriptedModel, type ScriptedReply } from "../support/scripted-model";

// Two distinct 1×1 PNGs.
const RED = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
const BLUE = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

function config(url: string) {
  return {
    model: { provider: "custom", name: "fake-model", base_url: url, api_key: "sk-test-not-a-real-key", api_mode: "chat_completions", context_length: 200_000, vision: true },
    sessions: { auto_title: false },
    learning: { review: "off" },
  };
}

async function startModel() {
  let answers = 0;
  const handler = (request: RecordedRequest): ScriptedReply => (isSummaryRequest(request) ? { text: templateSummary(1) } : { text: `answer ${++answers}` });
  return startScriptedModel({ fallback: { handler } });
}

/** The data of every image part in a Chat Completions request. */
function requestImages(request: RecordedRequest): string[] {
  return request.body.messages.flatMap((m: { content: unknown }) =>
    Array.isArray(m.content) ? m.content.flatMap((part: { type: string; image_url?: { url: string } }) => (part.type === "image_url" && part.image_url ? [part.image_url.url] : [])) : [],
  );
}

/** The image blocks of the user's prompts among `updates`. */
function promptImages(updates: acp.SessionUpdate[]): string[] {
  return updates.flatMap((u) => (u.sessionUpdate === "user_message_chunk" && u.content.type === "image" ? [u.content.data] : []));
}

const imagePrompt = (text: string, data: string): acp.ContentBlock[] => [
  { type: "text", text },
  { type: "image", mimeType: "image/png", data },
];

test("a pasted image replays on session/load, here and in another process, and stays in the model's requests", async () => {
  const model = await startModel();
  const hermes = await startAgent({ config: config(model.url) });
  try {
    await hermes.initialize();
    const cwd = await makeTempDir();
    const { sessionId } = await hermes.newSession(cwd);
    await hermes.prompt(sessionId, imagePrompt("what is wrong in this screenshot?", RED));

    const before = sessionUpdates(hermes, sessionId).length;
    await hermes.agent.request(acp.methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
    assert.deepEqual(promptImages(sessionUpdates(hermes, sessionId).slice(before)), [RED], "the prompt replays with its image");

    const other = await startAgent({ config: config(model.url), env: { HERMES_HOME: hermes.home } });
    try {
      await other.initialize();
      await other.agent.request(acp.methods.agent.session.load, { sessionId, cwd, mcpServers: [], _meta: { "hermes/takeOver": true } });
      assert.deepEqual(promptImages(sessionUpdates(other, sessionId)), [RED], "another process replays it too");
      await other.prompt(sessionId, "and now?");
      assert.deepEqual(requestImages(model.requests.at(-1)!), [`data:image/png;base64,${RED}`], "the model still sees the image after the restore");
    } finally {
      await other.close();
    }
  } finally {
    await hermes.close();
    await model.close();
  }
});

test("/compress turns images into short texts in the model's context, tells the summarizer about them, and a load still shows them", async () => {
  const model = await startModel();
  const hermes = await startAgent({ config: config(model.url) });
  try {
    await hermes.initialize();
    const cwd = await makeTempDir();
    const { sessionId } = await hermes.newSession(cwd);
    // The first exchange (kept verbatim by compression) and one in the middle (summarized).
    await hermes.prompt(sessionId, imagePrompt("the design we aim for", RED));
    await hermes.prompt(sessionId, imagePrompt("the bug as it looks now", BLUE));
    for (let turn = 0; turn < 15; turn++) await hermes.prompt(sessionId, `prompt ${turn}`);
    assert.equal(requestImages(model.requests.at(-1)!).length, 2, "before compression both images go with every request");

    await hermes.prompt(sessionId, "/compress");
    const summaryRequest = model.requests.find(isSummaryRequest);
    assert.ok(summaryRequest, "a summary was written");
    assert.match(JSON.stringify(summaryRequest.body), /\[image pasted by the user: image\/png, 1 KB\]/, "the summarizer is told an image was there");

    await hermes.prompt(sessionId, "go on");
    const after = model.requests.at(-1)!;
    assert.deepEqual(requestImages(after), [], "no image rides along after compression");
    const firstUser = after.body.messages.find((m: { role: string }) => m.role === "user") as { content: unknown };
    assert.match(JSON.stringify(firstUser.content), /the design we aim for/);
    assert.match(JSON.stringify(firstUser.content), /\[image: image\/png, 1 KB, pasted by the user; removed from your context by compression/, "the head's image is named, not silently dropped");

    // The journal keeps the originals: a load shows the user both images.
    const before = sessionUpdates(hermes, sessionId).length;
    await hermes.agent.request(acp.methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
    assert.deepEqual(promptImages(sessionUpdates(hermes, sessionId).slice(before)), [RED, BLUE]);
  } finally {
    await hermes.close();
    await model.close();
  }
});
