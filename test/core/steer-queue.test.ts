// /steer and /queue over a real ACP connection, while a turn runs. The scripted model holds a
// reply until the test releases it, so the turn is provably mid-flight when the command arrives
// (no sleeps): the steer note reaches the next model request after the tool boundary, is shown
// and journaled where it was applied, and replays there; its own request answers at once.
// Prompts sent during a turn wait in the server's queue, which /queue lists and clears.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { steerNoteText } from "../../acp-server/agent/loop";
import { agentText, makeTempDir, scriptedConfig, sessionUpdates, startAgent } from "../support/in-process-agent";
import { useScriptedModel, type ScriptedReply } from "../support/scripted-model";

const scripted = useScriptedModel();

/** A reply the model sends only once `release()` is called. */
function held(reply: ScriptedReply): { reply: ScriptedReply; release: () => void } {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  return { reply: { handler: async () => (await gate, reply) }, release };
}

const QUEUE_CHANGED = "_hermes/queue/changed";
const queueIds = (frame: any) => frame.params.prompts.map((p: any) => p.id);

const isSteer = (u: acp.SessionUpdate) => u.sessionUpdate === "user_message_chunk" && (u._meta as Record<string, unknown> | undefined)?.["hermes/steer"] === true;
const userTexts = (body: any) => body.messages.filter((m: any) => m.role === "user").map((m: any) => (typeof m.content === "string" ? m.content : m.content.map((p: any) => p.text ?? "").join("")));

test("/steer during a turn: answered at once, applied at the next tool boundary, shown and replayed where it was applied", async () => {
  const model = scripted();
  const project = await makeTempDir();
  await writeFile(path.join(project, "a.txt"), "alpha\n");
  const hermes = await startAgent({ config: scriptedConfig(model.url) });
  let sessionId: string;
  try {
    await hermes.initialize();
    ({ sessionId } = await hermes.newSession(project));
    const before = model.requests.length;
    const first = held({ toolCalls: [{ id: "r1", name: "read_file", arguments: { path: "a.txt" } }] });
    model.enqueue(first.reply, { text: "Done, using the helper." });
    let turnEnded = false;
    const turn = hermes.prompt(sessionId, "clean up a.txt").then((response) => ((turnEnded = true), response));
    await model.waitForRequests(before + 1);

    const steer = await hermes.prompt(sessionId, "/steer use the existing helper");
    assert.equal(steer.stopReason, "end_turn");
    assert.deepEqual(steer._meta, { "hermes/steer": "pending" });
    assert.equal(turnEnded, false, "the steer's request answered while the turn still ran");

    first.release();
    assert.equal((await turn).stopReason, "end_turn");
    assert.equal(model.requests.length - before, 2, "not cancelled or restarted: one more call after the tool");
    assert.ok(!userTexts(model.requests[before].body).some((t: string) => t.includes("existing helper")), "the call under way did not have it");
    const next = model.requests[before + 1].body.messages;
    const at = next.findIndex((m: any) => m.role === "user" && JSON.stringify(m.content).includes("existing helper"));
    assert.ok(at > 0 && next[at - 1].role === "tool", "the note follows the tool result");
    assert.deepEqual(userTexts({ messages: [next[at]] }), [steerNoteText("use the existing helper")], "the model reads it as a user note");

    const updates = sessionUpdates(hermes, sessionId);
    const shown = updates.findIndex(isSteer);
    const toolDone = updates.findIndex((u) => u.sessionUpdate === "tool_call_update" && u.status === "completed");
    const lastText = updates.findLastIndex((u) => u.sessionUpdate === "agent_message_chunk");
    assert.ok(shown > toolDone && shown < lastText, "shown where it was applied: after the tool, before the answer");
    assert.equal(updates[shown]?.sessionUpdate === "user_message_chunk" && updates[shown].content.type === "text" ? updates[shown].content.text : "", "use the existing helper");
    assert.equal(updates.filter((u) => u.sessionUpdate === "user_message_chunk" && !isSteer(u)).length, 0, "no other echo: the /steer prompt is not a prompt of its own");
    assert.deepEqual(hermes.invalidUpdates, []);
  } finally {
    await hermes.close();
  }

  // Journaled: a load replays the note in place, not as a new turn (no "Interrupted" marker), and it is not counted as a prompt.
  const other = await startAgent({ config: scriptedConfig(model.url), env: { HERMES_HOME: hermes.home } });
  try {
    await other.initialize();
    await other.agent.request(acp.methods.agent.session.load, { sessionId, cwd: project, mcpServers: [] });
    const replay = sessionUpdates(other, sessionId);
    const kinds = replay.map((u) => (isSteer(u) ? "steer" : u.sessionUpdate === "tool_call" ? "tool" : u.sessionUpdate === "agent_message_chunk" ? "text" : u.sessionUpdate === "user_message_chunk" ? "user" : ""));
    const order = kinds.filter(Boolean).filter((k, i, all) => i === 0 || all[i - 1] !== k);
    assert.deepEqual(order, ["user", "tool", "steer", "text"]);
    assert.doesNotMatch(agentText(other, sessionId), /Interrupted/);
    model.enqueue({ text: "ok" });
    const at = model.requests.length;
    await other.prompt(sessionId, "and now?");
    assert.ok(userTexts(model.requests[at].body).includes(steerNoteText("use the existing helper")), "the restored history has the note, marked");
  } finally {
    await other.close();
  }
});

test("a note sent while the model writes its final answer makes it go on; /steer with no turn running is a prompt", async () => {
  const model = scripted();
  const hermes = await startAgent({ config: scriptedConfig(model.url) });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(await makeTempDir());
    const before = model.requests.length;
    const answer = held({ text: "Here is the plan." });
    model.enqueue(answer.reply, { text: "Revised: shorter." });
    const turn = hermes.prompt(sessionId, "plan it");
    await model.waitForRequests(before + 1);
    await hermes.prompt(sessionId, "/steer keep it short");
    answer.release();
    assert.equal((await turn).stopReason, "end_turn");
    assert.equal(model.requests.length - before, 2, "one more call for the note");
    const last = model.requests[before + 1].body.messages.slice(-2);
    assert.deepEqual([last[0].role, last[0].content], ["assistant", "Here is the plan."]);
    assert.deepEqual(userTexts({ messages: [last[1]] }), [steerNoteText("keep it short")]);

    model.enqueue({ text: "Hi." });
    const idle = model.requests.length;
    assert.equal((await hermes.prompt(sessionId, "/steer say hi")).stopReason, "end_turn");
    assert.equal(userTexts(model.requests[idle].body).at(-1), "say hi", "run as an ordinary prompt, not lost");

    await assert.rejects(hermes.prompt(sessionId, "/steer"), /needs the guidance/);
  } finally {
    await hermes.close();
  }
});

test("prompts sent during a turn wait in the queue; /queue lists them at once and /queue clear drops them", async () => {
  const model = scripted();
  const hermes = await startAgent({ config: scriptedConfig(model.url) });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(await makeTempDir());
    const before = model.requests.length;
    const running = held({ text: "first answer" });
    model.enqueue(running.reply);
    const turn = hermes.prompt(sessionId, "first");
    await model.waitForRequests(before + 1);
    const second = hermes.prompt(sessionId, "second prompt");
    const third = hermes.prompt(sessionId, [{ type: "text", text: "third prompt" }, { type: "resource_link", uri: "file:///x.ts", name: "x.ts" }]);

    assert.equal((await hermes.prompt(sessionId, "/queue")).stopReason, "end_turn", "answered while the turn runs");
    const listing = agentText(hermes, sessionId);
    assert.match(listing, /2 prompts wait behind the running turn:\n1\. second prompt\n2\. third prompt \(\+1 attached\)/);

    assert.equal((await hermes.prompt(sessionId, "/queue clear")).stopReason, "end_turn");
    assert.equal((await second).stopReason, "cancelled");
    assert.equal((await third).stopReason, "cancelled");
    assert.match(agentText(hermes, sessionId), /Cleared the queue: 2 waiting prompts dropped/);

    running.release();
    assert.equal((await turn).stopReason, "end_turn", "the running turn was not touched");
    assert.equal(model.requests.length - before, 1, "the dropped prompts never reached the model");
    await hermes.prompt(sessionId, "/queue");
    assert.match(agentText(hermes, sessionId), /The queue is empty/);

    // Without /queue clear, a waiting prompt runs right after the turn, as before.
    const again = held({ text: "a" });
    model.enqueue(again.reply, { text: "b" });
    const one = hermes.prompt(sessionId, "one");
    await model.waitForRequests(before + 2);
    const two = hermes.prompt(sessionId, "two");
    again.release();
    assert.equal((await one).stopReason, "end_turn");
    assert.equal((await two).stopReason, "end_turn");
    assert.deepEqual(userTexts(model.requests.at(-1)?.body).slice(-1), ["two"]);
    assert.equal(hermes.frames.filter((f) => f.method === QUEUE_CHANGED).length, 0, "a client that did not ask hears nothing of the queue");
  } finally {
    await hermes.close();
  }
});

test("a note the turn never applied (cancelled) is said, not silently dropped or carried into the next turn", async () => {
  const model = scripted();
  const hermes = await startAgent({ config: scriptedConfig(model.url) });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(await makeTempDir());
    const before = model.requests.length;
    model.enqueue({ text: "never finished", hang: true });
    const turn = hermes.prompt(sessionId, "go");
    await model.waitForRequests(before + 1);
    await hermes.prompt(sessionId, "/steer try the other file");
    await hermes.agent.notify(acp.methods.agent.session.cancel, { sessionId });
    assert.equal((await turn).stopReason, "cancelled");
    const thoughts = sessionUpdates(hermes, sessionId).map((u) => (u.sessionUpdate === "agent_thought_chunk" && u.content.type === "text" ? u.content.text : "")).join("");
    assert.match(thoughts, /before your note could be applied: "try the other file"/);
    model.enqueue({ text: "ok" });
    const at = model.requests.length;
    await hermes.prompt(sessionId, "next");
    assert.ok(!JSON.stringify(model.requests[at].body.messages).includes("try the other file"));
  } finally {
    await hermes.close();
  }
});

test("a client that shows the queue: its own ids, the list pushed on every change, _hermes/queue/list and /remove, an echo that names the prompt", async () => {
  const model = scripted();
  const hermes = await startAgent({ config: scriptedConfig(model.url), clientCapabilities: { _meta: { "hermes/queue": { version: 1 } } } });
  try {
    const init = await hermes.initialize();
    assert.deepEqual(init.agentCapabilities?._meta?.["hermes/queue"], { version: 1 }, "advertised");
    const { sessionId } = await hermes.newSession(await makeTempDir());
    await hermes.waitForFrame((f) => f.method === QUEUE_CHANGED && f.params.sessionId === sessionId && f.params.prompts.length === 0);
    const before = model.requests.length;
    const running = held({ text: "first answer" });
    model.enqueue(running.reply, { text: "second answer" });
    const first = hermes.prompt(sessionId, "first");
    await model.waitForRequests(before + 1);
    const queue = (text: string, id: string) => hermes.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }], _meta: { "hermes/queueId": id } });
    const second = queue("second prompt", "panel-2");
    const third = queue("third prompt", "panel-3");
    const pushed = await hermes.waitForFrame((f) => f.method === QUEUE_CHANGED && f.params.prompts.length === 2);
    assert.deepEqual(pushed.params.prompts, [{ id: "panel-2", text: "second prompt" }, { id: "panel-3", text: "third prompt" }]);

    const listed = await hermes.agent.request<any>("_hermes/queue/list", { sessionId });
    assert.deepEqual(listed.prompts.map((p: any) => p.id), ["panel-2", "panel-3"]);
    assert.match(listed.text, /2 prompts wait behind the running turn:\n1\. second prompt\n2\. third prompt/, "the same listing as /queue");
    await assert.rejects(hermes.agent.request("_hermes/queue/list", {}), /invalid _hermes\/queue\/list params/);

    assert.deepEqual(await hermes.agent.request("_hermes/queue/remove", { sessionId, id: "panel-3" }), { removed: 1, text: "Removed the prompt from the queue." });
    assert.equal((await third).stopReason, "cancelled");
    const after = await hermes.waitForFrame((f) => f.method === QUEUE_CHANGED && f.params.prompts.length === 1);
    assert.deepEqual(queueIds(after), ["panel-2"]);

    running.release();
    assert.equal((await first).stopReason, "end_turn");
    assert.equal((await second).stopReason, "end_turn");
    const echo = hermes.frames.findIndex((f) => f.params?.update?.sessionUpdate === "user_message_chunk" && f.params.update._meta?.["hermes/queueId"] === "panel-2");
    assert.ok(echo > 0, "the queued prompt is echoed under its id when it starts");
    assert.ok(hermes.frames[echo].params.update.messageId, "as one message");
    const firstAnswered = hermes.frames.findIndex((f) => f.result?.stopReason === "end_turn" && f.id !== undefined);
    assert.ok(firstAnswered >= 0 && firstAnswered < echo, "the turn before it answered before the echo");
    assert.equal(model.requests.length - before, 2, "the removed prompt never reached the model");
    assert.deepEqual(queueIds(hermes.frames.findLast((f) => f.method === QUEUE_CHANGED)), []);

    // Named while nothing runs: still echoed (the client did not show it), and taken ids are not reused.
    model.enqueue({ text: "idle answer" });
    assert.equal((await queue("while idle", "panel-9")).stopReason, "end_turn");
    assert.ok(hermes.frames.some((f) => f.params?.update?._meta?.["hermes/queueId"] === "panel-9" && f.params.update.content?.text === "while idle"));
    assert.deepEqual(await hermes.agent.request("_hermes/queue/remove", { sessionId }), { removed: 0, text: "The queue is empty: nothing to clear." });
    assert.deepEqual(hermes.invalidUpdates, []);
  } finally {
    await hermes.close();
  }
});
