// A pasted image across a restart of the built agent (dist/hermes.js on stdio, a scripted model):
// the prompt with an image is journaled; after the first process exits, a new one loads the
// session, replays the prompt with its image block, and the model's next request still holds it.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { test } from "node:test";
import { makeTempDir, scriptedConfig, startHermes } from "../support/acp-harness";
import { useScriptedModel } from "../support/scripted-model";

const scripted = useScriptedModel();
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

test("after a restart, session/load replays the pasted image and the model still gets it", async () => {
  const model = scripted();
  model.enqueue({ text: "A red pixel." }, { text: "Still red." });
  const config = scriptedConfig(model.url);
  const cwd = await makeTempDir("hermes-paste-");
  const first = await startHermes({ config });
  let sessionId: string;
  try {
    await first.initialize();
    ({ sessionId } = await first.newSession(cwd));
    await first.prompt(sessionId, [
      { type: "text", text: "what is this?" },
      { type: "image", mimeType: "image/png", data: PNG },
    ]);
  } finally {
    await first.close();
  }

  const second = await startHermes({ config, env: { HERMES_HOME: first.home } });
  try {
    await second.initialize();
    await second.agent.request(acp.methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
    const images = second.updates
      .filter((n) => n.sessionId === sessionId)
      .flatMap((n) => (n.update.sessionUpdate === "user_message_chunk" && n.update.content.type === "image" ? [n.update.content] : []));
    assert.deepEqual(images.map((image) => [image.mimeType, image.data]), [["image/png", PNG]], "the prompt replays with its image");
    await second.prompt(sessionId, "and now?");
    const parts = model.requests.at(-1)!.body.messages.flatMap((m: { content: unknown }) => (Array.isArray(m.content) ? m.content : []));
    assert.ok(parts.some((part: { type: string; image_url?: { url: string } }) => part.type === "image_url" && part.image_url?.url === `data:image/png;base64,${PNG}`), "the restored history still holds the image");
  } finally {
    await second.close();
  }
});
