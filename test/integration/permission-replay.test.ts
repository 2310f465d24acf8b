// A permission question still open when the agent's process ends: the journal keeps the
// question, so session/load in a new process replays the tool call (it does not vanish), ended
// as cancelled: "failed" on the wire (ACP v1 has no cancelled status) with
// `_meta["hermes/cancelled"]`, the question in `_meta["hermes/permission"]`, and a text any
// client shows. A clean stop (an editor reloading its window: SIGTERM) and a kill -9 are told
// apart; an answered question replays only its finished card.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { test } from "node:test";
import { makeTempDir, scriptedConfig, sessionUpdates, startHermes, type Harness } from "../support/acp-harness";
import { useScriptedModel } from "../support/scripted-model";

const scripted = useScriptedModel();

/** A client that never answers: the question stays open until the agent's process ends. */
const neverAnswer = () => new Promise<never>(() => {}) as unknown as acp.RequestPermissionResponse;

type ToolCall = Extract<acp.SessionUpdate, { sessionUpdate: "tool_call" }> & { _meta?: Record<string, unknown> };

async function stopWhileAsking(signal: NodeJS.Signals): Promise<{ replay: acp.SessionUpdate[]; second: Harness; model: ReturnType<typeof scripted> }> {
  const model = scripted();
  const project = await makeTempDir();
  const config = scriptedConfig(model.url);
  const first = await startHermes({ config, permission: neverAnswer });
  await first.initialize();
  const { sessionId } = await first.newSession(project);
  model.enqueue({ text: "Cleaning up.", toolCalls: [{ id: "rm1", name: "terminal", arguments: { command: "rm -rf build" } }] });
  void first.prompt(sessionId, "clean the build folder").catch(() => {});
  // The question is journaled before it is sent: once it is here, it is on disk.
  await first.waitForFrame((frame) => frame.method === "session/request_permission");
  const exited = new Promise((resolve) => first.child.once("exit", resolve));
  first.child.kill(signal);
  await exited;
  await first.close();

  const second = await startHermes({ config, env: { HERMES_HOME: first.home } });
  await second.initialize();
  await second.agent.request(acp.methods.agent.session.load, { sessionId, cwd: project, mcpServers: [] });
  return { replay: sessionUpdates(second, sessionId), second, model };
}

test("a reload (SIGTERM) while a permission is pending: the replay ends the call cancelled, the question with it", async () => {
  const { replay, second } = await stopWhileAsking("SIGTERM");
  try {
    const calls = replay.filter((u): u is ToolCall => u.sessionUpdate === "tool_call");
    assert.equal(calls.length, 1, "the tool card does not vanish");
    const call = calls[0]!;
    assert.equal(call.toolCallId, "rm1");
    assert.equal(call.status, "failed", "ACP v1 has no cancelled status");
    assert.equal(call._meta?.["hermes/cancelled"], true);
    assert.match(call.title, /rm -rf build/);
    const text = JSON.stringify(call.content);
    assert.match(text, /Cancelled: the editor closed or reloaded before you answered; the command did not run/);
    const permission = call._meta?.["hermes/permission"] as { cause: string; result: string; outcome: string; title: string; content: unknown };
    assert.equal(permission.cause, "shutdown");
    assert.equal(permission.outcome, "cancelled");
    assert.equal(permission.result, "the command did not run");
    assert.match(JSON.stringify(permission.content), /rm -rf build/, "the question's command is kept");
    // The card comes after the reply that asked and before the turn's Interrupted marker.
    const kinds = replay.map((u) => u.sessionUpdate).filter((k) => k !== "available_commands_update" && k !== "usage_update");
    assert.deepEqual(kinds, ["user_message_chunk", "agent_message_chunk", "tool_call", "agent_message_chunk"]);
    assert.deepEqual(second.invalidUpdates, []);
  } finally {
    await second.close();
  }
});

test("killed outright (SIGKILL) while asking: cancelled because the agent stopped; the session goes on with a new call id", async () => {
  const { replay, second, model } = await stopWhileAsking("SIGKILL");
  try {
    const call = replay.find((u): u is ToolCall => u.sessionUpdate === "tool_call");
    assert.ok(call, "the tool card does not vanish");
    assert.equal((call._meta?.["hermes/permission"] as { cause: string }).cause, "stopped");
    assert.match(JSON.stringify(call.content), /Cancelled: the agent stopped before you answered; the command did not run/);

    // The provider reuses the id: the new call gets one the replayed card does not have.
    model.enqueue({ toolCalls: [{ id: "rm1", name: "terminal", arguments: { command: "echo again" } }] }, { text: "done" });
    const sessionId = second.updates.at(-1)!.sessionId;
    const before = second.updates.length;
    assert.equal((await second.prompt(sessionId, "try again")).stopReason, "end_turn");
    const ids = second.updates.slice(before).flatMap((n) => (n.update.sessionUpdate === "tool_call" ? [n.update.toolCallId] : []));
    assert.equal(ids.length, 1);
    assert.notEqual(ids[0], "rm1");
  } finally {
    await second.close();
  }
});

test("an answered question replays only the call's finished card", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const config = scriptedConfig(model.url);
  const first = await startHermes({ config, permission: "reject" });
  let second: Harness | undefined;
  try {
    await first.initialize();
    const { sessionId } = await first.newSession(project);
    model.enqueue({ toolCalls: [{ id: "rm2", name: "terminal", arguments: { command: "rm -rf build" } }] }, { text: "Not removed." });
    assert.equal((await first.prompt(sessionId, "clean up")).stopReason, "end_turn");
    await first.close();
    second = await startHermes({ config, env: { HERMES_HOME: first.home } });
    await second.initialize();
    await second.agent.request(acp.methods.agent.session.load, { sessionId, cwd: project, mcpServers: [] });
    const calls = sessionUpdates(second, sessionId).filter((u): u is ToolCall => u.sessionUpdate === "tool_call");
    assert.equal(calls.length, 1);
    assert.equal(calls[0]!.status, "failed");
    assert.equal(calls[0]!._meta?.["hermes/permission"], undefined);
    assert.match(JSON.stringify(calls[0]!.content), /denied/);
  } finally {
    await first.close();
    await second?.close();
  }
});

test("a window reload or agent restart (SIGTERM) while the clarify tool asks: the replay shows the question cut short, not answered or declined", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const config = scriptedConfig(model.url);
  const first = await startHermes({ config, elicitation: () => new Promise<never>(() => {}) as unknown as acp.CreateElicitationResponse });
  await first.initialize();
  const { sessionId } = await first.newSession(project);
  model.enqueue({ toolCalls: [{ id: "ask1", name: "clarify", arguments: { question: "Which database?", choices: [{ label: "Postgres" }, { label: "SQLite" }] } }] });
  void first.prompt(sessionId, "set up the database").catch(() => {});
  await first.waitForFrame((frame) => frame.method === "elicitation/create");
  const exited = new Promise((resolve) => first.child.once("exit", resolve));
  first.child.kill("SIGTERM");
  await exited;
  await first.close();

  const second = await startHermes({ config, env: { HERMES_HOME: first.home } });
  try {
    await second.initialize();
    await second.agent.request(acp.methods.agent.session.load, { sessionId, cwd: project, mcpServers: [] });
    const call = sessionUpdates(second, sessionId).find((u): u is ToolCall => u.sessionUpdate === "tool_call");
    assert.ok(call, "the question's card does not vanish");
    assert.equal(call.toolCallId, "ask1");
    assert.equal(call._meta?.["hermes/cancelled"], true, "cut short: not the user's answer");
    const question = call._meta?.["hermes/permission"] as { action: string; cause: string; title: string; content: unknown };
    assert.equal(question.action, "clarify");
    assert.equal(question.cause, "shutdown");
    assert.equal(question.title, "Which database?");
    assert.match(JSON.stringify(question.content), /Postgres/);
    assert.match(JSON.stringify(call.content), /the question went unanswered/);
    assert.doesNotMatch(JSON.stringify(call.content), /declined|dismissed/i);
    assert.deepEqual(second.invalidUpdates, []);
  } finally {
    await second.close();
  }
});
