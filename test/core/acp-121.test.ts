// ACP 1.21 features over the real protocol, in process: messageId on message chunks (the same
// on session/load as live), $/cancel_request on a running prompt, and a boolean config option.
// Every frame either way is also checked against the 1.21 JSON schema by the test client.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { test } from "node:test";
import { makeTempDir, scriptedConfig, sessionUpdates, startAgent } from "../support/in-process-agent";
import { startScriptedAnthropic } from "../support/scripted-anthropic";
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

    // A prompt the client did not show (named by `hermes/queueId`) is echoed live with the id a load gives it.
    model.enqueue({ text: "third reply" });
    await hermes.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "queued one" }], _meta: { "hermes/queueId": "q-1" } });
    const echo = sessionUpdates(hermes, sessionId).find((u) => u.sessionUpdate === "user_message_chunk" && u._meta?.["hermes/queueId"] === "q-1");
    assert.ok(echo && echo.sessionUpdate === "user_message_chunk" && echo.messageId, "the echo carries a messageId");
    const afterEcho = sessionUpdates(hermes, sessionId).length;
    await hermes.agent.request(acp.methods.agent.session.load, { sessionId, cwd: project, mcpServers: [] });
    const wholeReplay = sessionUpdates(hermes, sessionId).slice(afterEcho);
    const echoReplayed = wholeReplay
      .find((u) => u.sessionUpdate === "user_message_chunk" && u.content.type === "text" && u.content.text === "queued one");
    assert.equal(echoReplayed && echoReplayed.sessionUpdate === "user_message_chunk" ? echoReplayed.messageId : undefined, echo.messageId);

    // A second load names everything the same way.
    const middle = sessionUpdates(hermes, sessionId).length;
    await hermes.agent.request(acp.methods.agent.session.load, { sessionId, cwd: project, mcpServers: [] });
    assert.deepEqual(chunks(sessionUpdates(hermes, sessionId).slice(middle)), chunks(wholeReplay));
  } finally {
    await hermes.close();
  }
});

test("boolean option: extended thinking on by default, off by session/set_config_option, kept across a load", async () => {
  const anthropic = await startScriptedAnthropic();
  const project = await makeTempDir();
  anthropic.enqueue({ thinking: "hmm", text: "with thought" }, { text: "without" });
  const config = { model: { provider: "anthropic", name: "claude-sonnet-4-5", base_url: anthropic.url, api_key: "sk-ant-test", thinking_budget: 2048 }, sessions: { auto_title: false } };
  const hermes = await startAgent({ config, clientCapabilities: { session: { configOptions: { boolean: {} } } } });
  try {
    await hermes.initialize();
    const { sessionId, configOptions } = await hermes.newSession(project);
    const thinking = configOptions?.find((o) => o.id === "thinking");
    assert.deepEqual(
      thinking && { type: thinking.type, category: thinking.category, currentValue: thinking.currentValue },
      { type: "boolean", category: "model_config", currentValue: true },
    );
    await hermes.prompt(sessionId, "one");
    assert.equal(anthropic.requests[0]!.body.thinking?.budget_tokens, 2048);

    const answer = await hermes.agent.request(acp.methods.agent.session.setConfigOption, { sessionId, configId: "thinking", type: "boolean", value: false });
    assert.equal(answer.configOptions.find((o) => o.id === "thinking")?.currentValue, false);
    await hermes.prompt(sessionId, "two");
    assert.equal(anthropic.requests[1]!.body.thinking, undefined, "no thinking once switched off");

    // A string for a boolean option is refused, nothing changes.
    await assert.rejects(hermes.agent.request(acp.methods.agent.session.setConfigOption, { sessionId, configId: "thinking", value: "on" }), (error: any) => error.code === -32602);

    const loaded = await hermes.agent.request(acp.methods.agent.session.load, { sessionId, cwd: project, mcpServers: [] });
    assert.equal(loaded.configOptions?.find((o) => o.id === "thinking")?.currentValue, false, "the switch is journaled");
  } finally {
    await hermes.close();
    await anthropic.close();
  }
});

test("boolean option: not offered to a client without session.configOptions.boolean, nor for a model that does not think", async () => {
  const anthropic = await startScriptedAnthropic();
  const project = await makeTempDir();
  const config = { model: { provider: "anthropic", name: "claude-sonnet-4-5", base_url: anthropic.url, api_key: "sk-ant-test", thinking_budget: 2048 }, sessions: { auto_title: false } };
  const plainClient = await startAgent({ config });
  try {
    await plainClient.initialize();
    const { configOptions } = await plainClient.newSession(project);
    assert.ok(!configOptions?.some((o) => o.type === "boolean"), JSON.stringify(configOptions));
  } finally {
    await plainClient.close();
    await anthropic.close();
  }
  const model = scripted();
  const noThinking = await startAgent({ config: scriptedConfig(model.url), clientCapabilities: { session: { configOptions: { boolean: {} } } } });
  try {
    await noThinking.initialize();
    const { configOptions } = await noThinking.newSession(project);
    assert.ok(!configOptions?.some((o) => o.id === "thinking"), JSON.stringify(configOptions));
  } finally {
    await noThinking.close();
  }
});

test("$/cancel_request on a prompt whose model hangs: the prompt ends cancelled, the reply so far is kept, the session goes on", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const abortedBefore = model.abortedStreams;
  model.enqueue({ text: "partial words", hang: true });
  const hermes = await startAgent({ config: scriptedConfig(model.url) });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    const cancel = new AbortController();
    // The SDK client sends `$/cancel_request` for this request id when the signal aborts.
    const prompt = hermes.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "go" }] }, { cancellationSignal: cancel.signal });
    await hermes.waitForUpdate((u) => u.sessionUpdate === "agent_message_chunk");
    cancel.abort();
    const settled = await prompt.then(
      (response) => ({ stopReason: response.stopReason }),
      (error: any) => ({ code: error.code }),
    );
    // 1.21: either the method's own cancelled outcome or -32800; Hermes answers like session/cancel.
    assert.deepEqual(settled, { stopReason: "cancelled" });
    assert.ok(hermes.frames.some((f) => f.method === undefined && f.result?.stopReason === "cancelled"));
    await model.waitForAbortedStreams(abortedBefore + 1); // the hanging HTTP stream was dropped

    model.enqueue({ text: "next answer" });
    assert.equal((await hermes.prompt(sessionId, "again")).stopReason, "end_turn");
    // Nothing lost: the cancelled reply and the next one are both in the journal.
    const before = sessionUpdates(hermes, sessionId).length;
    await hermes.agent.request(acp.methods.agent.session.load, { sessionId, cwd: project, mcpServers: [] });
    const replayed = sessionUpdates(hermes, sessionId)
      .slice(before)
      .map((u) => (u.sessionUpdate === "agent_message_chunk" && u.content.type === "text" ? u.content.text : ""))
      .join("");
    assert.match(replayed, /partial words[\s\S]*next answer/);
  } finally {
    await hermes.close();
  }
});
