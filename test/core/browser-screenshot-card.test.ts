// A screenshot in the tool card, over the real protocol: the agent in process on real pipes, a
// real Chromium on a page this test serves on 127.0.0.1, a scripted model on the real wire
// format. browser_screenshot's card carries an ACP image content block (every frame checked
// against the 1.21 schema when the agent closes), and session/load replays the card with the
// same image, so a reloaded panel or another client still sees it. An image too large to keep
// (over the journal's cap) shows live, and after a load its card says it was not kept.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { after, before, test } from "node:test";
import { MAX_JOURNALED_CARD_IMAGE_CHARS } from "../../acp-server/sessions/card-image-cap";
import { makeTempDir, scriptedConfig, sessionUpdates, startAgent } from "../support/in-process-agent";
import { useScriptedModel } from "../support/scripted-model";
import { startServer, type TestServer } from "../support/web-servers";

const scripted = useScriptedModel();
const CHROMIUM = "/usr/bin/chromium";
const skip = existsSync(CHROMIUM) ? false : `no ${CHROMIUM} on this machine`;
let site: TestServer;

before(async () => {
  site = await startServer({
    "/": (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(`<!doctype html><title>Shot</title><h1 style="color:#c00">Red heading</h1>`),
    // Random noise over the whole viewport: a PNG of several MB (noise does not compress).
    "/noise": (_req, res) =>
      res
        .writeHead(200, { "content-type": "text/html" })
        .end(`<!doctype html><title>Noise</title><body style="margin:0"><canvas id="c"></canvas><script>
const c = document.getElementById("c"); c.width = innerWidth; c.height = innerHeight;
const g = c.getContext("2d"); const img = g.createImageData(c.width, c.height);
for (let i = 0; i < img.data.length; i++) img.data[i] = (i % 4 === 3) ? 255 : Math.floor(Math.random() * 256);
g.putImageData(img, 0, 0);
</script></body>`),
  });
});

after(async () => {
  await site.close();
});

/** The image blocks of the cards of `callId` among `updates` (live updates or a replay). */
function cardImages(updates: acp.SessionUpdate[], callId: string): { mimeType: string; data: string }[] {
  return updates
    .filter((u) => (u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update") && u.toolCallId.endsWith(callId))
    .flatMap((u) => (u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update" ? (u.content ?? []) : []))
    .flatMap((c) => (c.type === "content" && c.content.type === "image" ? [{ mimeType: c.content.mimeType, data: c.content.data }] : []));
}

test("browser_screenshot's card holds an ACP image block, live and after session/load", { skip }, async () => {
  const model = scripted();
  model.enqueue(
    { toolCalls: [{ id: "n1", name: "browser_navigate", arguments: { url: `${site.origin}/` } }] },
    { toolCalls: [{ id: "p1", name: "browser_screenshot", arguments: {} }] },
    { text: "Here it is." },
  );
  const config = scriptedConfig(model.url, { tools: { enabled: ["browser"] }, browser: { executable: CHROMIUM } });
  const hermes = await startAgent({ config, permission: "allow" });
  try {
    await hermes.initialize();
    const project = await makeTempDir("hermes-shot-");
    const { sessionId } = await hermes.newSession(project);
    assert.equal((await hermes.prompt(sessionId, "Show me the page")).stopReason, "end_turn");

    const live = cardImages(sessionUpdates(hermes, sessionId), "p1");
    assert.equal(live.length, 1, "one image block in the screenshot's card");
    assert.equal(live[0]!.mimeType, "image/png");
    assert.ok(Buffer.from(live[0]!.data, "base64").subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), "the block's data is a PNG");

    const before = sessionUpdates(hermes, sessionId).length;
    await hermes.agent.request(acp.methods.agent.session.load, { sessionId, cwd: project, mcpServers: [] });
    const replayed = cardImages(sessionUpdates(hermes, sessionId).slice(before), "p1");
    assert.deepEqual(replayed, live, "the replayed card shows the same screenshot");
  } finally {
    await hermes.close();
  }
});

test("a screenshot over the journal's cap shows live; after session/load its card says it was not kept", { skip }, async () => {
  const model = scripted();
  model.enqueue(
    { toolCalls: [{ id: "n1", name: "browser_navigate", arguments: { url: `${site.origin}/noise` } }] },
    { toolCalls: [{ id: "p1", name: "browser_screenshot", arguments: {} }] },
    { text: "Noisy." },
  );
  const config = scriptedConfig(model.url, { tools: { enabled: ["browser"] }, browser: { executable: CHROMIUM } });
  const hermes = await startAgent({ config, permission: "allow" });
  try {
    await hermes.initialize();
    const project = await makeTempDir("hermes-shot-");
    const { sessionId } = await hermes.newSession(project);
    await hermes.prompt(sessionId, "Show me the noise");
    const live = cardImages(sessionUpdates(hermes, sessionId), "p1");
    assert.equal(live.length, 1);
    assert.ok(live[0]!.data.length > MAX_JOURNALED_CARD_IMAGE_CHARS, `the noise screenshot is over the cap (${live[0]!.data.length} base64 characters)`);

    const before = sessionUpdates(hermes, sessionId).length;
    await hermes.agent.request(acp.methods.agent.session.load, { sessionId, cwd: project, mcpServers: [] });
    const replayed = sessionUpdates(hermes, sessionId).slice(before);
    assert.deepEqual(cardImages(replayed, "p1"), [], "the replayed card carries no image");
    const card = replayed.find((u) => u.sessionUpdate === "tool_call" && u.toolCallId.endsWith("p1"));
    assert.match(JSON.stringify(card), /Screenshot not kept \(image\/png, [\d.]+ MB\)/);
  } finally {
    await hermes.close();
  }
});
