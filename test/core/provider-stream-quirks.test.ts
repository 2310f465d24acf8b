// Issue 30, item 4: provider streams handled as the providers mean them, over ACP with each
// API's real SDK reading hand-written SSE (stream-fixtures.ts) from a real HTTP server.
// - A reply cut by the output limit mid tool call: no call shown or run, nothing fed back to
//   the model as an error, stop reason max_tokens, and the user told so in words.
// - A refusal: shown as the model's message, stop reason refusal.
// - rawInput of a tool Hermes does not know: the parsed object.
import assert from "node:assert/strict";
import { access } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, test } from "node:test";
import type * as acp from "@agentclientprotocol/sdk";
import { agentText, makeTempDir, sessionUpdates, startAgent } from "../support/in-process-agent";
import { startScriptedWire, type WireReply } from "../support/scripted-wire";
import type { ScriptedServer } from "../support/scripted-http";
import * as fixtures from "../support/stream-fixtures";

// A server per test: a reply one failing test left queued cannot answer the next test's call.
let wire: ScriptedServer<WireReply>;
beforeEach(async () => {
  wire = await startScriptedWire();
});
afterEach(async () => {
  await wire.close();
});

type Api = "anthropic" | "chat" | "responses";

function modelConfig(api: Api): Record<string, unknown> {
  if (api === "anthropic") return { provider: "anthropic", name: "claude-sonnet-4-5", base_url: wire.url, api_key: "sk-ant-test" };
  if (api === "responses") return { provider: "openai", name: "gpt-5-codex", base_url: wire.url, api_key: "sk-test" };
  return { provider: "custom", name: "fake-model", base_url: wire.url, api_key: "sk-test", api_mode: "chat_completions" };
}

const cut: Record<Api, (tool: string) => string[]> = {
  anthropic: fixtures.anthropicCutToolUse,
  chat: fixtures.chatCutToolCall,
  responses: fixtures.responsesCutFunctionCall,
};
const text: Record<Api, (words: string) => string[]> = { anthropic: fixtures.anthropicText, chat: fixtures.chatText, responses: fixtures.responsesText };
const refusal: Record<Api, (words: string) => string[]> = {
  anthropic: fixtures.anthropicRefusal,
  chat: (words) => fixtures.chatRefusal(words.match(/.{1,8}/g) ?? []),
  responses: fixtures.responsesRefusal,
};

const thoughts = (updates: acp.SessionUpdate[]) =>
  updates.map((u) => (u.sessionUpdate === "agent_thought_chunk" && u.content.type === "text" ? u.content.text : "")).join("");
const toolCalls = (updates: acp.SessionUpdate[]) => updates.filter((u) => u.sessionUpdate === "tool_call");

for (const api of ["anthropic", "chat", "responses"] as const) {
  test(`${api}: a tool call cut by the output limit is not shown, not run, not fed back; the turn ends max_tokens and says so`, async () => {
    const project = await makeTempDir();
    const first = wire.requests.length;
    wire.enqueue({ frames: cut[api]("write_file") }, { frames: text[api]("Shall I split it up?") });
    const hermes = await startAgent({ config: { model: modelConfig(api), sessions: { auto_title: false } } });
    try {
      await hermes.initialize();
      const { sessionId } = await hermes.newSession(project);
      const response = await hermes.prompt(sessionId, "write big.ts");
      assert.equal(response.stopReason, "max_tokens");
      const updates = sessionUpdates(hermes, sessionId);
      assert.deepEqual(toolCalls(updates), [], "the cut call is never shown");
      assert.match(thoughts(updates), /output limit \(max_tokens\)/, "the user is told why the turn stopped");
      await assert.rejects(access(path.join(project, "big.ts")), "the cut call never ran");
      assert.equal(wire.requests.length - first, 1, "the cut call is not sent back to the model within the turn");
      // Journaled: a reload shows the same notice, and still no card for the cut call.
      const shown = sessionUpdates(hermes, sessionId).length;
      await hermes.agent.request("session/load", { sessionId, cwd: project, mcpServers: [] });
      const replayed = sessionUpdates(hermes, sessionId).slice(shown);
      assert.match(thoughts(replayed), /output limit \(max_tokens\)/, "the notice survives a reload");
      assert.deepEqual(toolCalls(replayed), []);

      const next = await hermes.prompt(sessionId, "go on");
      assert.equal(next.stopReason, "end_turn");
      const sent = JSON.stringify(wire.requests[first + 1]?.body);
      assert.doesNotMatch(sent, /call_fixture_cut|toolu_fixture_cut|big\.ts", "con|not valid JSON/, "the next prompt carries no trace of the cut call");
      assert.deepEqual(hermes.invalidUpdates, []);
    } finally {
      await hermes.close();
    }
  });

  test(`${api}: a refusal is shown as the model's message and ends the turn with refusal`, async () => {
    const project = await makeTempDir();
    const words = "I can't help with that request.";
    wire.enqueue({ frames: refusal[api](words) });
    const hermes = await startAgent({ config: { model: modelConfig(api), sessions: { auto_title: false } } });
    try {
      await hermes.initialize();
      const { sessionId } = await hermes.newSession(project);
      const response = await hermes.prompt(sessionId, "do something bad");
      assert.equal(response.stopReason, "refusal");
      assert.equal(agentText(hermes, sessionId), words);
      assert.deepEqual(hermes.invalidUpdates, []);
    } finally {
      await hermes.close();
    }
  });
}

test("a plain text reply cut by the output limit ends max_tokens and says so", async () => {
  const project = await makeTempDir();
  const frames = fixtures.chatText("The first half of a long").map((frame) => frame.replace('"finish_reason":"stop"', '"finish_reason":"length"'));
  wire.enqueue({ frames });
  const hermes = await startAgent({ config: { model: modelConfig("chat"), sessions: { auto_title: false } } });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    const response = await hermes.prompt(sessionId, "tell me everything");
    assert.equal(response.stopReason, "max_tokens");
    assert.equal(agentText(hermes, sessionId), "The first half of a long");
    assert.match(thoughts(sessionUpdates(hermes, sessionId)), /cut off by the output limit \(max_tokens\)/);
  } finally {
    await hermes.close();
  }
});

test("rawInput of a tool Hermes does not know is the parsed arguments object", async () => {
  const project = await makeTempDir();
  wire.enqueue({ frames: fixtures.chatToolCall("browse_the_web", '{"url":"https://example.com","depth":2}') }, { frames: fixtures.chatText("No such tool.") });
  const hermes = await startAgent({ config: { model: modelConfig("chat"), sessions: { auto_title: false } } });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    const response = await hermes.prompt(sessionId, "browse");
    assert.equal(response.stopReason, "end_turn");
    const [call] = toolCalls(sessionUpdates(hermes, sessionId)) as Extract<acp.SessionUpdate, { sessionUpdate: "tool_call" }>[];
    assert.ok(call, "the unknown tool's call is shown");
    assert.deepEqual(call.rawInput, { url: "https://example.com", depth: 2 });
  } finally {
    await hermes.close();
  }
});

test("a failed turn's error is journaled: session/load shows why the turn stopped", async () => {
  const project = await makeTempDir();
  wire.enqueue({ frames: [], status: 400, errorBody: { error: { message: "the scripted model refuses this request shape", type: "invalid_request_error" } } });
  const hermes = await startAgent({ config: { model: modelConfig("chat"), sessions: { auto_title: false } } });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    await assert.rejects(hermes.prompt(sessionId, "hello"), /refuses this request shape/);
    const shown = sessionUpdates(hermes, sessionId).length;
    await hermes.agent.request("session/load", { sessionId, cwd: project, mcpServers: [] });
    const replayed = thoughts(sessionUpdates(hermes, sessionId).slice(shown));
    assert.match(replayed, /⚠ The turn failed: .*refuses this request shape/);
    assert.deepEqual(hermes.invalidUpdates, []);
  } finally {
    await hermes.close();
  }
});
