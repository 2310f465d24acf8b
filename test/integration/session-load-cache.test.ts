// session/load of a long session in a new process, over stdio, as an editor restoring its chat:
// the first load caches its replay (sessions/replay-snapshot.ts), later ones send the cached
// frames and replay only what was added since. What the client sees, and what the model gets on
// the next prompt, must be the same either way.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { stringify as toYaml } from "yaml";
import { SessionStore } from "../../acp-server/sessions/session-store";
import { makeTempDir, scriptedConfig, sessionUpdates, startHermes } from "../support/acp-harness";
import { waitForChangeIn } from "../support/wait";
import { useScriptedModel } from "../support/scripted-model";
import { conversationTurn, recordingLogger, sessionMeta } from "../support/session-fixtures";

const scripted = useScriptedModel();
const ID = "long-session";
const TURNS = 80;

/** One process's session/load of the session: its replay. */
async function loadIn(home: string, project: string, prompt?: string): Promise<{ replay: acp.SessionUpdate[]; used: number; answer?: acp.PromptResponse }> {
  const agent = await startHermes({ env: { HERMES_HOME: home } });
  try {
    await agent.initialize();
    await agent.agent.request(acp.methods.agent.session.load, { sessionId: ID, cwd: project, mcpServers: [] });
    const replay = sessionUpdates(agent, ID).filter((update) => update.sessionUpdate !== "available_commands_update" && update.sessionUpdate !== "usage_update");
    // The usage meter follows the answer (from a cached replay, once the history is restored).
    const usage = await agent.waitForUpdate((update) => update.sessionUpdate === "usage_update", 15_000);
    const answer = prompt === undefined ? undefined : await agent.prompt(ID, prompt);
    assert.deepEqual(agent.invalidUpdates, []);
    return { replay: replay.slice(), used: usage.sessionUpdate === "usage_update" ? usage.used : Number.NaN, answer };
  } finally {
    await agent.close();
  }
}

test("a long session loads the same from its cached replay, grown or not, and the next prompt sends the model its whole history", async () => {
  const model = scripted();
  const home = await makeTempDir("hermes-home-");
  writeFileSync(path.join(home, "config.yaml"), toYaml(scriptedConfig(model.url)));
  const project = await makeTempDir();
  const store = new SessionStore({ home, log: recordingLogger() });
  store.create(sessionMeta(ID, project, 1));
  for (let turn = 0; turn < TURNS; turn++) for (const record of conversationTurn(turn, turn * 5)) store.append(ID, record);
  store.closeSession(ID);
  const snapshot = path.join(home, "cache", "replay", `${ID}.ndjson`);

  const first = await loadIn(home, project);
  // Written after the answer, or as the process exits if the client closes first: the next process finds it.
  assert.ok(existsSync(snapshot), "the replay cached");
  assert.ok(first.replay.length > TURNS * 5, "the whole session is replayed");

  model.enqueue({ text: "Picking up where we left off." });
  const second = await loadIn(home, project, "go on");
  assert.deepEqual(second.replay, first.replay, "the cached replay is what the first load sent");
  assert.ok(first.used > 0);
  assert.equal(second.used, first.used, "the usage meter counts the same history");
  assert.equal(second.answer?.stopReason, "end_turn");
  const sent = JSON.stringify(model.requests.at(-1)?.body.messages);
  assert.ok(sent.includes("Turn 0:") && sent.includes(`Done with ${TURNS - 1}:`) && sent.includes("go on"), "the model gets the whole history, then the prompt");

  // The prompt grew the journal: the cached frames, then the new turn, as a replay built from the journal.
  const grown = await loadIn(home, project);
  assert.equal(grown.replay.length, first.replay.length + 2, "the new prompt and its answer follow");
  assert.deepEqual(grown.replay.slice(0, first.replay.length), first.replay);
  rmSync(snapshot);
  const rebuilt = await loadIn(home, project);
  assert.deepEqual(grown.replay, rebuilt.replay, "the same as a replay built from the journal alone");
});

test("a session used live is cached by its own process: the next process's first load is served from that cache, the same as an uncached load", async () => {
  const model = scripted();
  const home = await makeTempDir("hermes-home-");
  writeFileSync(path.join(home, "config.yaml"), toYaml(scriptedConfig(model.url)));
  const project = await makeTempDir();
  const journal = path.join(home, "sessions", `${ID}.jsonl`);
  const snapshot = path.join(home, "cache", "replay", `${ID}.ndjson`);
  // A session short of the size worth caching: loading it caches nothing.
  const store = new SessionStore({ home, log: recordingLogger() });
  store.create(sessionMeta(ID, project, 1));
  for (let turn = 0; statSync(journal).size < 40 * 1024; turn++) for (const record of conversationTurn(turn, turn * 5)) store.append(ID, record);
  store.closeSession(ID);

  // Process A: the user works in the chat (two long answers take it past that size), then closes the editor.
  const live = await startHermes({ env: { HERMES_HOME: home } });
  try {
    await live.initialize();
    await live.agent.request(acp.methods.agent.session.load, { sessionId: ID, cwd: project, mcpServers: [] });
    assert.equal(existsSync(snapshot), false, "nothing cached by the load");
    for (const word of ["alpha", "beta"]) {
      model.enqueue({ text: `${word} `.repeat(4_000) });
      assert.equal((await live.prompt(ID, `tell me about ${word}`)).stopReason, "end_turn");
    }
    assert.ok(statSync(journal).size > 64 * 1024);
    // Once the session is idle, its process brings the cache up to date.
    await waitForChangeIn(home, () => existsSync(snapshot), 15_000, "the live process's replay cache", { recursive: true });
  } finally {
    await live.close();
  }
  const cached = readFileSync(snapshot);
  const inode = statSync(snapshot).ino;

  // Process B: the editor reopens the chat. A replay built from the journal would cache anew (a new file).
  const reopened = await loadIn(home, project);
  assert.equal(statSync(snapshot).ino, inode, "served from the cache, not built and cached again");
  assert.deepEqual(readFileSync(snapshot), cached);
  assert.ok(JSON.stringify(reopened.replay).includes("beta beta"), "the turns of the live process are replayed");
  rmSync(snapshot);
  const uncached = await loadIn(home, project);
  assert.deepEqual(reopened.replay, uncached.replay, "the same as a replay built from the journal alone");
  assert.equal(reopened.used, uncached.used);
});
