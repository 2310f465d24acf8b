// How a turn ended survives in the journal: a turn the user stopped replays with a "Stopped"
// marker, one whose process died (a start with no end) with "Interrupted", so every ACP client
// sees them after session/load. A turn that ended normally gets neither.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { test } from "node:test";
import { SessionStore } from "../../acp-server/sessions/session-store";
import { assistantMessage, recordingLogger, sessionMeta, userMessage } from "../support/session-fixtures";
import { useScriptedModel } from "../support/scripted-model";
import { makeTempDir, scriptedConfig, sessionUpdates, startAgent } from "../support/in-process-agent";

const scripted = useScriptedModel();

type Marker = { kind: string; reason?: string };

function markers(updates: acp.SessionUpdate[]): Marker[] {
  return updates.flatMap((update) => {
    const marker = (update as { _meta?: Record<string, unknown> })._meta?.["hermes/marker"] as Marker | undefined;
    return marker ? [marker] : [];
  });
}

test("a stopped turn is journaled and session/load replays its Stopped marker after the partial answer", async () => {
  const model = scripted();
  const project = await makeTempDir();
  model.enqueue({ text: "word ".repeat(400), chunkDelayMs: 20 });
  model.enqueue({ text: "all done" });
  const hermes = await startAgent({ config: scriptedConfig(model.url) });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    const prompt = hermes.prompt(sessionId, "talk for a long time");
    await hermes.waitForUpdate((u) => u.sessionUpdate === "agent_message_chunk");
    await hermes.agent.notify(acp.methods.agent.session.cancel, { sessionId });
    assert.equal((await prompt).stopReason, "cancelled");
    // Live, the client knows it stopped the turn: no marker is sent then.
    assert.deepEqual(markers(sessionUpdates(hermes, sessionId)), []);
    assert.equal((await hermes.prompt(sessionId, "now finish")).stopReason, "end_turn");

    const before = hermes.updates.length;
    await hermes.agent.request(acp.methods.agent.session.load, { sessionId, cwd: project, mcpServers: [] });
    const replay = hermes.updates.slice(before).map((n) => n.update);
    assert.deepEqual(markers(replay), [{ kind: "stopped" }], "one marker: the normal turn has none");
    const at = replay.findIndex((u) => markers([u]).length > 0);
    const previous = replay[at - 1];
    assert.equal(previous?.sessionUpdate, "agent_message_chunk");
    assert.match((previous as { content: { text: string } }).content.text, /^word /, "the marker follows the partial answer");
    const next = replay[at + 1];
    assert.equal(next?.sessionUpdate, "user_message_chunk", "and comes before the next prompt");
    const marker = replay[at] as { content: { type: string; text: string } };
    assert.match(marker.content.text, /Stopped/, "a client that does not know the _meta still reads it");
    assert.deepEqual(hermes.invalidUpdates, []);
  } finally {
    await hermes.close();
  }
});

test("a turn whose process died (a start, no end) replays with an Interrupted marker; one that ended does not", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const hermes = await startAgent({ config: scriptedConfig(model.url) });
  try {
    await hermes.initialize();
    // Journals as a killed process leaves them, written by another store on the same home.
    const store = new SessionStore({ home: hermes.home, log: recordingLogger() });
    const now = Date.now();
    store.create(sessionMeta("cut", project, now));
    store.append("cut", userMessage(0, now, "run the long build"));
    store.append("cut", { t: "update", at: now, turn: "start" });
    store.append("cut", assistantMessage(1, now, "Starting the bu"));
    store.create(sessionMeta("whole", project, now));
    store.append("whole", userMessage(0, now, "hello"));
    store.append("whole", { t: "update", at: now, turn: "start" });
    store.append("whole", assistantMessage(1, now, "hi"));
    store.append("whole", { t: "update", at: now, turn: "end", stopReason: "end_turn" });
    store.closeSession("cut");
    store.closeSession("whole");
    await store.close();

    await hermes.agent.request(acp.methods.agent.session.load, { sessionId: "cut", cwd: project, mcpServers: [] });
    const cut = sessionUpdates(hermes, "cut");
    assert.deepEqual(markers(cut), [{ kind: "interrupted", reason: "its process ended during the turn" }]);
    const last = cut.filter((u) => u.sessionUpdate !== "available_commands_update" && u.sessionUpdate !== "usage_update").at(-1) as { content: { text: string } };
    assert.match(last.content.text, /Interrupted: the agent stopped \(its process ended during the turn\)/, "the turn ends on the marker");

    await hermes.agent.request(acp.methods.agent.session.load, { sessionId: "whole", cwd: project, mcpServers: [] });
    assert.deepEqual(markers(sessionUpdates(hermes, "whole")), []);

    // The cut session goes on normally: the next turn ends, and the marker stays where it was.
    model.enqueue({ text: "build restarted" });
    assert.equal((await hermes.prompt("cut", "try again")).stopReason, "end_turn");
    const before = hermes.updates.length;
    await hermes.agent.request(acp.methods.agent.session.load, { sessionId: "cut", cwd: project, mcpServers: [] });
    const again = hermes.updates.slice(before).map((n) => n.update);
    const kinds = again.map((u) => (markers([u]).length ? "marker" : u.sessionUpdate)).filter((kind) => kind !== "available_commands_update" && kind !== "usage_update");
    assert.deepEqual(kinds, ["user_message_chunk", "agent_message_chunk", "marker", "user_message_chunk", "agent_message_chunk"]);
    assert.deepEqual(hermes.invalidUpdates, []);
  } finally {
    await hermes.close();
  }
});
