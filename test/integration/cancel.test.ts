// Cancelling a turn by the wire's own means: `$/cancel_request` on the prompt's request id
// (written raw to stdin). Cancel during streaming, commands and editor terminals is tested in
// process (test/core/cancel.test.ts).
import assert from "node:assert/strict";
import { test } from "node:test";
import { useScriptedModel } from "../support/scripted-model";
import { makeTempDir, scriptedConfig, startHermes } from "../support/acp-harness";

const scripted = useScriptedModel();

test("$/cancel_request on the prompt request cancels the turn like session/cancel", async () => {
  const model = scripted();
  const project = await makeTempDir();
  model.enqueue({ text: "word ".repeat(400), chunkDelayMs: 20 });
  const hermes = await startHermes({ config: scriptedConfig(model.url) });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    hermes.writeRaw(`${JSON.stringify({ jsonrpc: "2.0", id: "p1", method: "session/prompt", params: { sessionId, prompt: [{ type: "text", text: "go" }] } })}\n`);
    await hermes.waitForUpdate((u) => u.sessionUpdate === "agent_message_chunk");
    hermes.writeRaw(`${JSON.stringify({ jsonrpc: "2.0", method: "$/cancel_request", params: { requestId: "p1" } })}\n`);
    const answer = await hermes.waitForFrame((f) => f.id === "p1");
    // Either form tells the client the turn was cancelled; a later prompt must work.
    assert.ok(answer.result?.stopReason === "cancelled" || answer.error?.code === -32800, JSON.stringify(answer));
    model.enqueue({ text: "next" });
    assert.equal((await hermes.prompt(sessionId, "again")).stopReason, "end_turn");
  } finally {
    await hermes.close();
  }
});
