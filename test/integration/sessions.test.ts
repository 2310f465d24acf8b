// Sessions over ACP, across processes: load (with replay equal to what was shown live),
// resume, close, delete, two writers on one home, a corrupt journal read by another process.
// One agent's list, fork, queue, titles and search are in test/core/sessions.test.ts.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { appendFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { makeTempDir, scriptedConfig, sessionUpdates, startHermes, type Harness } from "../support/acp-harness";
import { useScriptedModel } from "../support/scripted-model";
import { transcript } from "../support/transcript";

const scripted = useScriptedModel();

/** Two agent processes on one HERMES_HOME (like Zed and VS Code on one machine). */
async function twoProcesses(config: unknown): Promise<[Harness, Harness]> {
  const first = await startHermes({ config });
  const second = await startHermes({ config, env: { HERMES_HOME: first.home } });
  await Promise.all([first.initialize(), second.initialize()]);
  return [first, second];
}

const userText = (requestBody: any) =>
  requestBody.messages
    .filter((m: any) => m.role === "user")
    .map((m: any) => (typeof m.content === "string" ? m.content : m.content.map((p: any) => p.text ?? "").join("")))
    .join("\n");

test("a session made in one process loads in another: the replay equals what was shown live, and the history continues", async () => {
  const model = scripted();
  const project = await makeTempDir();
  await writeFile(path.join(project, "app.js"), "let total = 1 - 2;\n");
  model.enqueue(
    { reasoning: "Read it first.", text: "Looking.", toolCalls: [{ id: "r1", name: "read_file", arguments: { path: "app.js" } }] },
    { toolCalls: [{ id: "p1", name: "patch", arguments: { path: "app.js", old_string: "1 - 2", new_string: "1 + 2" } }, { id: "t1", name: "todo", arguments: { todos: [{ id: "1", content: "fix sum", status: "completed" }] } }] },
    { text: "Fixed the sum." },
  );
  const [a, b] = await twoProcesses(scriptedConfig(model.url, { agent: { default_mode: "accept_edits" } }));
  try {
    const { sessionId } = await a.newSession(project);
    assert.equal((await a.prompt(sessionId, "fix the sum in app.js")).stopReason, "end_turn");
    const live = [{ kind: "user", text: "fix the sum in app.js" }, ...transcript(sessionUpdates(a, sessionId))];

    const listed = await b.agent.request(acp.methods.agent.session.list, {});
    const entry = listed.sessions.find((s) => s.sessionId === sessionId);
    assert.ok(entry, "the other process lists the session");
    assert.equal(entry.title, "fix the sum in app.js", "titled by its first line");
    assert.ok(entry.updatedAt && !Number.isNaN(Date.parse(entry.updatedAt)));

    // A still has it open: B takes it over to continue it (one writer per session; see session-owner.test.ts).
    const loaded = await b.agent.request(acp.methods.agent.session.load, { sessionId, cwd: project, mcpServers: [], _meta: { "hermes/takeOver": true } });
    assert.equal(loaded.modes?.currentModeId, "accept_edits", "the mode comes back");
    const replayed = transcript(sessionUpdates(b, sessionId));
    assert.deepEqual(replayed, live, "replayed updates fold to the same transcript as the live ones");
    assert.deepEqual(b.invalidUpdates, []);

    model.enqueue({ text: "Still here." });
    const before = model.requests.length;
    assert.equal((await b.prompt(sessionId, "thanks")).stopReason, "end_turn");
    const messages = model.requests[before].body.messages;
    assert.match(userText(model.requests[before].body), /fix the sum in app.js[\s\S]*thanks/);
    assert.ok(messages.some((m: any) => m.role === "tool" && m.tool_call_id === "p1"), "tool results come back too");
    assert.equal(messages[0].content, model.requests[0].body.messages[0].content, "the frozen system prompt is reused byte for byte");
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});

test("resume restores without replay; close cancels the running turn; delete removes the session", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const [a, b] = await twoProcesses(scriptedConfig(model.url));
  try {
    model.enqueue({ text: "first answer" });
    const { sessionId } = await a.newSession(project);
    await a.prompt(sessionId, "remember the word OSPREY");

    await b.agent.request(acp.methods.agent.session.resume, { sessionId, cwd: project, mcpServers: [], _meta: { "hermes/takeOver": true } });
    assert.deepEqual(transcript(sessionUpdates(b, sessionId)), [], "resume sends no history");
    model.enqueue({ text: "word ".repeat(300), chunkDelayMs: 10 });
    const before = model.requests.length;
    const running = b.prompt(sessionId, "what was the word?");
    await b.waitForUpdate((u) => u.sessionUpdate === "agent_message_chunk");
    assert.match(userText(model.requests[before].body), /OSPREY/);

    await b.agent.request(acp.methods.agent.session.close, { sessionId });
    assert.equal((await running).stopReason, "cancelled");
    await assert.rejects(b.prompt(sessionId, "again?"), (error: any) => typeof error.code === "number", "a closed session takes no prompts");

    await b.agent.request(acp.methods.agent.session.delete, { sessionId });
    const listed = await a.agent.request(acp.methods.agent.session.list, {});
    assert.ok(!listed.sessions.some((s) => s.sessionId === sessionId), "deleted sessions are gone for every process");
    await assert.rejects(b.agent.request(acp.methods.agent.session.load, { sessionId, cwd: project, mcpServers: [] }), (error: any) => typeof error.code === "number");
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});

test("two agent processes writing 100 sessions at once lose nothing; each lists the other's", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const [a, b] = await twoProcesses(scriptedConfig(model.url));
  try {
    const work = async (hermes: Harness, tag: string) => {
      const ids: string[] = [];
      await Promise.all(
        Array.from({ length: 50 }, async (_, i) => {
          const { sessionId } = await hermes.newSession(project);
          ids.push(sessionId);
          await hermes.prompt(sessionId, `${tag} session ${i}`); // answered by the scripted fallback
        }),
      );
      return ids;
    };
    const [fromA, fromB] = await Promise.all([work(a, "alpha"), work(b, "beta")]);
    const listAll = async (hermes: Harness) => {
      const ids: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await hermes.agent.request(acp.methods.agent.session.list, cursor ? { cursor } : {});
        ids.push(...page.sessions.map((s) => s.sessionId));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      return new Set(ids);
    };
    const expected = new Set([...fromA, ...fromB]);
    assert.equal(expected.size, 100);
    assert.deepEqual(await listAll(a), expected, "A sees B's sessions");
    assert.deepEqual(await listAll(b), expected, "B sees A's sessions");
    const third = await startHermes({ env: { HERMES_HOME: a.home } });
    try {
      await third.initialize();
      await third.agent.request(acp.methods.agent.session.load, { sessionId: fromB[7], cwd: project, mcpServers: [] });
      assert.match(transcript(sessionUpdates(third, fromB[7]))[0].kind, /user/, "each session is complete");
    } finally {
      await third.close();
    }
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});

test("a corrupt journal tail is skipped on load; a bad list cursor is a clear error", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const hermes = await startHermes({ config: scriptedConfig(model.url) });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    model.enqueue({ text: "kept answer" });
    await hermes.prompt(sessionId, "kept question");
    await appendFile(path.join(hermes.home, "sessions", `${sessionId}.jsonl`), '{"t":"message","seq":9,"at":1,"message":{"role":"user","con');

    const other = await startHermes({ config: scriptedConfig(model.url), env: { HERMES_HOME: hermes.home } });
    try {
      await other.initialize();
      await other.agent.request(acp.methods.agent.session.load, { sessionId, cwd: project, mcpServers: [] });
      assert.deepEqual(transcript(sessionUpdates(other, sessionId)), [
        { kind: "user", text: "kept question" },
        { kind: "agent", text: "kept answer" },
      ]);
      assert.match(other.stderr(), /record skipped/, "the damaged line is reported");
      await assert.rejects(other.agent.request(acp.methods.agent.session.list, { cursor: "not-a-cursor" }), (error: any) => error.code === -32602);
    } finally {
      await other.close();
    }
  } finally {
    await hermes.close();
  }
});

test("a command run in the editor's terminal replays as its output text", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const config = scriptedConfig(model.url);
  const a = await startHermes({ config, serveTerminal: true });
  const b = await startHermes({ config, env: { HERMES_HOME: a.home } });
  try {
    await Promise.all([a.initialize(), b.initialize()]);
    const { sessionId } = await a.newSession(project);
    model.enqueue({ toolCalls: [{ id: "t1", name: "terminal", arguments: { command: "echo from-the-terminal" } }] }, { text: "done" });
    await a.prompt(sessionId, "run it");
    await b.agent.request(acp.methods.agent.session.load, { sessionId, cwd: project, mcpServers: [] });
    const tool = transcript(sessionUpdates(b, sessionId)).find((item) => item.kind === "tool");
    assert.ok(tool && tool.kind === "tool");
    assert.doesNotMatch(JSON.stringify(tool.content), /terminalId/);
    assert.match(JSON.stringify(tool.content), /from-the-terminal/);
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});
