// ACP 1.21 features over the real protocol, in process: messageId on message chunks (the same
// on session/load as live), $/cancel_request on a running prompt, and a boolean config option.
// Every frame either way is also checked against the 1.21 JSON schema by the test client.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { test } from "node:test";
import { makeTempDir, scriptedConfig, sessionUpdates, startAgent } from "../support/in-process-agent";
import { useScriptedModel } from "../support/scripted-model";

const scripted = useScriptedModel();

type Chunk = { kind: string; messageId: string | null | undefined };

/** The agent's and user's text chunks of a stretch of updates: their kind and messageId. */
function chunks(updates: acp.SessionUpdate[]): Chunk[] {
  return updates.flatMap((u) =>
    u.sessionUpdate === "agent_message_chunk" || u.sessionUpdate === "agent_thought_chunk" || u.sessionUpdate === "user_message_chunk"
      ? [{ kind: u.sessionUpdate, messageId: u.messageId }]
      : [],
  );
}

test("messageId: one per model reply on its message and thought chunks, the same on session/load", async () => {
  const model = scripted();
  const project = await makeTempDir();
  model.enqueue(
    { reasoning: "let me look", toolCalls: [{ id: "t1", name: "todo", arguments: { todos: [{ id: "1", content: "x", status: "pending" }] } }], text: "first reply" },
    { reasoning: "done thinking", text: "second reply" },
  );
  const hermes = await startAgent({ config: scriptedConfig(model.url) });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    await hermes.prompt(sessionId, "go");
    const live = chunks(sessionUpdates(hermes, sessionId)).filter((c) => c.kind !== "user_message_chunk");
    const ids = [...new Set(live.map((c) => c.messageId))];
    assert.equal(ids.length, 2, `two replies, two ids: ${JSON.stringify(live)}`);
    assert.ok(ids.every((id) => typeof id === "string" && id.length > 0));

    const before = sessionUpdates(hermes, sessionId).length;
    await hermes.agent.request(acp.methods.agent.session.load, { sessionId, cwd: project, mcpServers: [] });
    const replayed = chunks(sessionUpdates(hermes, sessionId).slice(before));
    assert.deepEqual(
      [...new Set(replayed.filter((c) => c.kind !== "user_message_chunk").map((c) => c.messageId))],
      ids,
      "the replies replay with the ids they had live",
    );
    const prompt = replayed.filter((c) => c.kind === "user_message_chunk");
    assert.ok(prompt.length > 0 && prompt.every((c) => typeof c.messageId === "string"), "the prompt's chunks carry a messageId too");

    // A second load names everything the same way.
    const middle = sessionUpdates(hermes, sessionId).length;
    await hermes.agent.request(acp.methods.agent.session.load, { sessionId, cwd: project, mcpServers: [] });
    assert.deepEqual(chunks(sessionUpdates(hermes, sessionId).slice(middle)), replayed);
  } finally {
    await hermes.close();
  }
});
