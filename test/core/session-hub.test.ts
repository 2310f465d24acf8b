// The session hub through the protocol, in process: new, close, load (the whole history
// replayed before the answer), resume (none), fork, delete, and every method on an unknown
// session refused with "resource not found" while the agent keeps serving.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { test } from "node:test";
import { makeTempDir, scriptedConfig, sessionUpdates, startAgent, type InProcessAgent } from "../support/in-process-agent";
import { useScriptedModel } from "../support/scripted-model";
import { transcript } from "../support/transcript";

const scripted = useScriptedModel();
const NOT_FOUND = -32002;

const isNotFound = (sessionId: string) => (error: any) => {
  assert.equal(error.code, NOT_FOUND, JSON.stringify(error));
  assert.equal(error.data?.sessionId, sessionId);
  return true;
};

/** Index of the first frame answering a request with this result shape, after `from`. */
function responseIndex(agent: InProcessAgent, from: number, match: (result: any) => boolean): number {
  return agent.frames.findIndex((frame, index) => index >= from && frame.id !== undefined && frame.method === undefined && frame.result && match(frame.result));
}

test("new → close → load replays the history before the answer; resume replays nothing; the session goes on", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const agent = await startAgent({ config: scriptedConfig(model.url) });
  try {
    await agent.initialize();
    const { sessionId } = await agent.newSession(project);
    model.enqueue({ reasoning: "Think first.", text: "The word is OSPREY.", toolCalls: [{ id: "t1", name: "todo", arguments: { todos: [{ id: "1", content: "remember", status: "completed" }] } }] }, { text: "Noted." });
    assert.equal((await agent.prompt(sessionId, "remember OSPREY")).stopReason, "end_turn");
    const live = [{ kind: "user", text: "remember OSPREY" }, ...transcript(sessionUpdates(agent, sessionId))];

    await agent.agent.request(acp.methods.agent.session.close, { sessionId });
    await assert.rejects(agent.prompt(sessionId, "still there?"), isNotFound(sessionId), "a closed session takes no prompts");

    const before = agent.updates.length;
    const framesBefore = agent.frames.length;
    const loaded = await agent.agent.request(acp.methods.agent.session.load, { sessionId, cwd: project, mcpServers: [] });
    assert.equal(loaded.modes?.currentModeId, "default");
    const replayed = agent.updates.slice(before).filter((n) => n.sessionId === sessionId).map((n) => n.update);
    assert.deepEqual(transcript(replayed), live, "the replay folds to what was shown live");
    // The replay comes before the answer: no history update follows the load response.
    const answer = responseIndex(agent, framesBefore, (result) => result.modes !== undefined);
    const lastHistory = agent.frames.findLastIndex((frame) => frame.method === "session/update" && ["user_message_chunk", "agent_message_chunk", "tool_call"].includes(frame.params.update.sessionUpdate));
    assert.ok(answer > 0 && lastHistory < answer, `history at ${lastHistory}, answer at ${answer}`);

    model.enqueue({ text: "It was OSPREY." });
    const at = model.requests.length;
    assert.equal((await agent.prompt(sessionId, "what was the word?")).stopReason, "end_turn");
    assert.match(JSON.stringify(model.requests[at].body.messages), /remember OSPREY[\s\S]*The word is OSPREY/, "the history continues");

    const resumedFrom = agent.updates.length;
    await agent.agent.request(acp.methods.agent.session.resume, { sessionId, cwd: project, mcpServers: [] });
    const afterResume = agent.updates.slice(resumedFrom).map((n) => n.update.sessionUpdate);
    assert.ok(!afterResume.some((kind) => kind === "user_message_chunk" || kind === "agent_message_chunk"), `resume sends no history: ${afterResume.join(", ")}`);
    assert.deepEqual(agent.invalidUpdates, []);
  } finally {
    await agent.close();
  }
});

test("fork copies the history into a new session; delete removes one; the other lives on", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const agent = await startAgent({ config: scriptedConfig(model.url) });
  try {
    await agent.initialize();
    const { sessionId } = await agent.newSession(project);
    model.enqueue({ text: "First answer." });
    await agent.prompt(sessionId, "the code word is HERON");

    const fork = await agent.agent.request<acp.NewSessionResponse>("session/fork", { sessionId, cwd: project, mcpServers: [] });
    assert.notEqual(fork.sessionId, sessionId);
    model.enqueue({ text: "From the fork." });
    const at = model.requests.length;
    await agent.prompt(fork.sessionId, "and in the fork?");
    assert.match(JSON.stringify(model.requests[at].body.messages), /HERON[\s\S]*First answer[\s\S]*and in the fork/, "the fork starts with the parent's history");

    await agent.agent.request(acp.methods.agent.session.delete, { sessionId });
    const listed = await agent.agent.request(acp.methods.agent.session.list, {});
    const ids = listed.sessions.map((s) => s.sessionId);
    assert.ok(!ids.includes(sessionId), "deleted");
    assert.ok(ids.includes(fork.sessionId), "the fork is its own session");
    await assert.rejects(agent.agent.request(acp.methods.agent.session.load, { sessionId, cwd: project, mcpServers: [] }), isNotFound(sessionId));
    model.enqueue({ text: "Still here." });
    assert.equal((await agent.prompt(fork.sessionId, "still there?")).stopReason, "end_turn");
  } finally {
    await agent.close();
  }
});

test("every session method refuses an unknown session with resource-not-found, and serving goes on", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const agent = await startAgent({ config: scriptedConfig(model.url) });
  const ghost = "no-such-session";
  try {
    await agent.initialize();
    const where = { sessionId: ghost, cwd: project, mcpServers: [] };
    // The agent's answer on the wire is what counts: the SDK client resolves session/close and
    // session/delete whatever the answer (they are idempotent for it).
    const answerTo = async (method: string, params: unknown) => {
      const from = agent.frames.length;
      await agent.agent.request(method, params).catch(() => {});
      return agent.frames.slice(from).find((frame) => frame.id !== undefined && frame.method === undefined);
    };
    const calls: [string, unknown][] = [
      ["session/prompt", { sessionId: ghost, prompt: [{ type: "text", text: "hi" }] }],
      ["session/load", where],
      ["session/resume", where],
      ["session/fork", where],
      ["session/close", { sessionId: ghost }],
      ["session/delete", { sessionId: ghost }],
      ["session/set_mode", { sessionId: ghost, modeId: "plan" }],
      ["session/set_config_option", { sessionId: ghost, configId: "mode", value: "plan" }],
    ];
    for (const [method, params] of calls) {
      const answer = await answerTo(method, params);
      assert.ok(answer?.error, `${method} answered ${JSON.stringify(answer)}`);
      assert.ok(isNotFound(ghost)(answer.error), method);
    }
    // A cancel for it is a notification: nothing to answer, nothing breaks.
    await agent.agent.notify(acp.methods.agent.session.cancel, { sessionId: ghost });
    await agent.agent.request(acp.methods.agent.session.list, {}); // answered after the cancel was handled
    assert.ok(agent.logs.some((line) => line.message === "cancel for an unknown session"), "logged instead");

    model.enqueue({ text: "alive" });
    const { sessionId } = await agent.newSession(project);
    assert.equal((await agent.prompt(sessionId, "are you alive?")).stopReason, "end_turn");
  } finally {
    await agent.close();
  }
});
