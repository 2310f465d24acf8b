// One writer per session, across real agent processes on one HERMES_HOME: a second process
// that loads a live session follows it read-only (replay works, prompts are refused with a
// clear error) or takes it over with _meta["hermes/takeOver"]; the old owner then refuses to
// write; a session whose owner let go or died is claimed by the next process. The journal's
// message sequence numbers stay unique throughout.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { readJournal } from "../../acp-server/sessions/journal";
import { makeTempDir, scriptedConfig, sessionUpdates, startHermes, type Harness } from "../support/acp-harness";
import { useScriptedModel } from "../support/scripted-model";
import { transcript } from "../support/transcript";

const scripted = useScriptedModel();

const TAKE_OVER = { "hermes/takeOver": true };

function userTexts(harness: Harness, sessionId: string): string[] {
  return transcript(sessionUpdates(harness, sessionId)).flatMap((item) => (item.kind === "user" ? [item.text] : []));
}

/** The journal's message records: their seq numbers and the user prompts among them. */
function journal(home: string, sessionId: string) {
  const records = readJournal(path.join(home, "sessions", `${sessionId}.jsonl`)).records;
  const seqs = records.flatMap((r) => (r.t === "message" ? [r.seq] : []));
  const prompts = records.flatMap((r) => (r.t === "message" && r.message.role === "user" ? r.message.content.map((p) => (p.type === "text" ? p.text : "")) : []));
  return { seqs, prompts };
}

const notOwned = (pattern: RegExp) => (error: any) => {
  assert.equal(error.code, -32603, JSON.stringify(error));
  assert.match(error.message, pattern);
  assert.match(error.message, /hermes\/takeOver/, "the refusal says how to take over");
  assert.equal(typeof error.data?.ownerPid, "number");
  return true;
};

test("two processes, one session: the second follows read-only or takes over; the old owner stops writing; seq stays unique", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const config = scriptedConfig(model.url);
  const a = await startHermes({ config });
  const b = await startHermes({ config, env: { HERMES_HOME: a.home } });
  let c: Harness | undefined;
  try {
    await Promise.all([a.initialize(), b.initialize()]);
    const { sessionId } = await a.newSession(project);
    model.enqueue({ text: "answer one" });
    assert.equal((await a.prompt(sessionId, "one")).stopReason, "end_turn");

    // B follows: the replay works, a prompt and a setting are refused, nothing is written.
    await b.agent.request(acp.methods.agent.session.load, { sessionId, cwd: project, mcpServers: [] });
    assert.deepEqual(userTexts(b, sessionId), ["one"]);
    const calls = model.requests.length;
    await assert.rejects(b.prompt(sessionId, "from b, refused"), notOwned(new RegExp(`session ${sessionId} is open in another Hermes process \\(pid ${a.child.pid}\\); this process follows it read-only`)));
    await assert.rejects(b.agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: "plan" }), notOwned(/follows it read-only/));
    assert.equal(model.requests.length, calls, "a refused prompt never reaches the model");

    // A is still the owner.
    model.enqueue({ text: "answer two" });
    assert.equal((await a.prompt(sessionId, "two")).stopReason, "end_turn");

    // B takes over explicitly: it replays what A wrote since, and its prompt continues that history.
    await b.agent.request(acp.methods.agent.session.load, { sessionId, cwd: project, mcpServers: [], _meta: TAKE_OVER });
    assert.deepEqual(userTexts(b, sessionId).slice(-2), ["one", "two"], "the second load replays the whole journal");
    model.enqueue({ text: "answer three" });
    assert.equal((await b.prompt(sessionId, "three")).stopReason, "end_turn");
    assert.match(JSON.stringify(model.requests.at(-1)!.body.messages), /one[\s\S]*answer two[\s\S]*three/);

    // A lost it: its next prompt is refused before anything is written.
    await assert.rejects(a.prompt(sessionId, "from a, refused"), notOwned(new RegExp(`another Hermes process \\(pid ${b.child.pid}\\) took over session ${sessionId}`)));

    // B lets go (session/close): A's next prompt makes A the owner again, from the journal as it is now.
    await b.agent.request(acp.methods.agent.session.close, { sessionId });
    model.enqueue({ text: "answer four" });
    assert.equal((await a.prompt(sessionId, "four")).stopReason, "end_turn");
    assert.match(JSON.stringify(model.requests.at(-1)!.body.messages), /answer three[\s\S]*four/, "A caught up with B's turn");

    // A dies without letting go: its lease is stale, and a new process just claims the session.
    a.child.kill("SIGKILL");
    await new Promise((resolve) => a.child.once("exit", resolve));
    c = await startHermes({ config, env: { HERMES_HOME: a.home } });
    await c.initialize();
    await c.agent.request(acp.methods.agent.session.resume, { sessionId, cwd: project, mcpServers: [] });
    model.enqueue({ text: "answer five" });
    assert.equal((await c.prompt(sessionId, "five")).stopReason, "end_turn");

    const { seqs, prompts } = journal(a.home, sessionId);
    assert.deepEqual(prompts, ["one", "two", "three", "four", "five"], "refused prompts were never written");
    assert.deepEqual(seqs, seqs.map((_, i) => i), "seq numbers are unique and in order");

    // Closing the session gives the lease up; deleting it removes it.
    await c.agent.request(acp.methods.agent.session.close, { sessionId });
    assert.equal(existsSync(path.join(a.home, "sessions", `${sessionId}.owner`)), false);
  } finally {
    await Promise.all([a.close(), b.close(), c?.close()]);
  }
});

test("a takeover during the owner's turn: the owner's next append is refused, its turn fails with the reason, seq stays unique", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const config = scriptedConfig(model.url);
  const a = await startHermes({ config });
  const b = await startHermes({ config, env: { HERMES_HOME: a.home } });
  try {
    await Promise.all([a.initialize(), b.initialize()]);
    const { sessionId } = await a.newSession(project);
    model.enqueue({ text: "word ".repeat(200), chunkDelayMs: 10 });
    const running = a.prompt(sessionId, "a long answer, please");
    await a.waitForUpdate((u) => u.sessionUpdate === "agent_message_chunk");

    await b.agent.request(acp.methods.agent.session.load, { sessionId, cwd: project, mcpServers: [], _meta: TAKE_OVER });
    await assert.rejects(running, notOwned(/took over session/));

    model.enqueue({ text: "b's answer" });
    assert.equal((await b.prompt(sessionId, "from b")).stopReason, "end_turn");
    const { seqs, prompts } = journal(a.home, sessionId);
    assert.deepEqual(prompts, ["a long answer, please", "from b"]);
    assert.deepEqual(seqs, seqs.map((_, i) => i), "seq numbers are unique and in order");
    const records = readJournal(path.join(a.home, "sessions", `${sessionId}.jsonl`)).records;
    assert.ok(!records.some((r) => r.t === "message" && r.message.role === "assistant" && r.message.content.startsWith("word")), "A's answer was not written after it lost the session");
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});
