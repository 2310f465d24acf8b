// Sessions over ACP, across processes: load (with replay equal to what was shown live),
// resume, list, fork, close, delete, queued prompts, titles and session_search.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { appendFile, mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { agentText, makeTempDir, scriptedConfig, sessionUpdates, startHermes, type Harness } from "../support/acp-harness";
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

test("list: newest first, pages of 50, and a cwd filter that sees through symlinks", async () => {
  const model = scripted();
  const root = await makeTempDir();
  const real = path.join(root, "real");
  await mkdir(real);
  const link = path.join(root, "link");
  await symlink(real, link);
  const other = await makeTempDir();
  const hermes = await startHermes({ config: scriptedConfig(model.url) });
  try {
    await hermes.initialize();
    const ids: string[] = [];
    for (let i = 0; i < 55; i++) ids.push((await hermes.newSession(i % 5 === 0 ? other : real)).sessionId);
    const first = await hermes.agent.request(acp.methods.agent.session.list, {});
    assert.equal(first.sessions.length, 50);
    assert.ok(first.nextCursor);
    const second = await hermes.agent.request(acp.methods.agent.session.list, { cursor: first.nextCursor });
    const all = [...first.sessions, ...second.sessions].map((s) => s.sessionId);
    assert.deepEqual(new Set(all), new Set(ids));
    assert.equal(all[0], ids.at(-1), "newest first");

    const filtered = await hermes.agent.request(acp.methods.agent.session.list, { cwd: link });
    assert.equal(filtered.sessions.length, 44);
    assert.ok(filtered.sessions.every((s) => s.cwd === real));
  } finally {
    await hermes.close();
  }
});

test("fork copies the history (or the first N messages) into a new session", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const hermes = await startHermes({ config: scriptedConfig(model.url) });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    model.enqueue({ text: "one" }, { text: "two" });
    await hermes.prompt(sessionId, "first ALPHA");
    await hermes.prompt(sessionId, "second BETA");

    const whole = await hermes.agent.request<acp.NewSessionResponse>("session/fork", { sessionId, cwd: project, mcpServers: [] });
    const early = await hermes.agent.request<acp.NewSessionResponse>("session/fork", { sessionId, cwd: project, mcpServers: [], _meta: { messageIndex: 2 } });
    // A panel's "fork from here" counts prompts: keep the first prompt and its answer.
    const byTurn = await hermes.agent.request<acp.NewSessionResponse>("session/fork", { sessionId, cwd: project, mcpServers: [], _meta: { "hermes/turns": 1 } });
    assert.notEqual(whole.sessionId, sessionId);
    model.enqueue({ text: "forked" }, { text: "forked early" });
    let before = model.requests.length;
    await hermes.prompt(whole.sessionId, "third");
    assert.match(userText(model.requests[before].body), /ALPHA[\s\S]*BETA[\s\S]*third/);
    before = model.requests.length;
    await hermes.prompt(early.sessionId, "instead");
    const earlyText = userText(model.requests[before].body);
    assert.match(earlyText, /ALPHA[\s\S]*instead/);
    assert.doesNotMatch(earlyText, /BETA/, "the fork point drops what came after");
    model.enqueue({ text: "forked by turn" });
    before = model.requests.length;
    await hermes.prompt(byTurn.sessionId, "other way");
    const byTurnMessages = model.requests[before].body.messages.filter((m: any) => m.role !== "system").map((m: any) => m.role + ":" + (typeof m.content === "string" ? m.content : JSON.stringify(m.content)));
    assert.match(byTurnMessages.join("\n"), /user:.*ALPHA[\s\S]*assistant:one[\s\S]*user:.*other way/);
    assert.doesNotMatch(byTurnMessages.join("\n"), /BETA|assistant:two/, "the second prompt and its answer stay in the parent");
    const parent = await hermes.agent.request(acp.methods.agent.session.list, {});
    assert.ok(parent.sessions.find((s) => s.sessionId === whole.sessionId)?.title?.startsWith("Fork of"));
    // Lineage: the fork's journal names its parent.
    const meta = JSON.parse((await readFile(path.join(hermes.home, "sessions", `${early.sessionId}.jsonl`), "utf8")).split("\n")[0]);
    assert.equal(meta.session.parentId, sessionId);
    assert.equal(meta.session.source, "fork");
  } finally {
    await hermes.close();
  }
});

test("a prompt sent during a turn waits, is echoed when it starts, and never interleaves", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const hermes = await startHermes({ config: scriptedConfig(model.url) });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    model.enqueue({ text: "slow answer ".repeat(20), chunkDelayMs: 5 }, { text: "second answer" });
    const first = hermes.prompt(sessionId, "first");
    await hermes.waitForUpdate((u) => u.sessionUpdate === "agent_message_chunk");
    const second = hermes.prompt(sessionId, "queued follow-up");
    const [r1, r2] = await Promise.all([first, second]);
    assert.equal(r1.stopReason, "end_turn");
    assert.equal(r2.stopReason, "end_turn");
    const items = transcript(sessionUpdates(hermes, sessionId));
    assert.deepEqual(items.map((i) => i.kind), ["agent", "user", "agent"]);
    assert.equal((items[1] as { text: string }).text, "queued follow-up");
    assert.equal((items[2] as { text: string }).text, "second answer");
    assert.match(userText(model.requests.at(-1)!.body), /first[\s\S]*queued follow-up/);
  } finally {
    await hermes.close();
  }
});

test("titles: the auxiliary model names the session after its first turn; /title renames it", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const config = scriptedConfig(model.url, { sessions: { auto_title: true } });
  const hermes = await startHermes({ config });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    model.enqueue({ text: "Sure." }, { text: "Refactor the parser module" });
    await hermes.prompt(sessionId, "please refactor parser.ts\nit is messy");
    const named = await hermes.waitForUpdate((u) => u.sessionUpdate === "session_info_update" && u.title === "Refactor the parser module");
    assert.ok(named);
    const titles = hermes.frames
      .filter((f) => f.method === "session/update" && f.params.sessionId === sessionId && f.params.update.sessionUpdate === "session_info_update")
      .map((f) => f.params.update.title);
    assert.deepEqual(titles, ["please refactor parser.ts", "Refactor the parser module"]);
    assert.equal(model.requests.at(-1)!.body.tools, undefined, "the title call offers no tools");

    const before = model.requests.length;
    await hermes.prompt(sessionId, "/title Parser cleanup");
    assert.equal(model.requests.length, before, "/title is handled without the model");
    assert.match(agentText(hermes, sessionId), /Title set to "Parser cleanup"/);
    const listed = await hermes.agent.request(acp.methods.agent.session.list, {});
    assert.equal(listed.sessions.find((s) => s.sessionId === sessionId)?.title, "Parser cleanup");
  } finally {
    await hermes.close();
  }
});

test("session_search finds what was said in another session and reads around the hit", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const hermes = await startHermes({ config: scriptedConfig(model.url) });
  try {
    await hermes.initialize();
    const old = await hermes.newSession(project);
    model.enqueue({ text: "The deploy key lives in vault path secret/flamingo-deploy." });
    await hermes.prompt(old.sessionId, "where is the flamingo deploy key?");

    const current = await hermes.newSession(project);
    const first = model.requests.length;
    model.enqueue({ toolCalls: [{ id: "s1", name: "session_search", arguments: { query: "flamingo deploy" } }] }, { text: "Found it." });
    await hermes.prompt(current.sessionId, "we talked about the flamingo key before, where was it?");
    const result = model.requests[first + 1].body.messages.find((m: any) => m.role === "tool" && m.tool_call_id === "s1");
    const output = JSON.parse(result.content);
    assert.equal(output.hits.length, 1, "one hit per session, and not the current one");
    assert.equal(output.hits[0].session_id, old.sessionId);
    assert.match(output.hits[0].snippet, /\[flamingo\]/i);

    model.enqueue({ toolCalls: [{ id: "s2", name: "session_search", arguments: { session_id: old.sessionId, around: output.hits[0].message } }] }, { text: "Read it." });
    const second = model.requests.length;
    await hermes.prompt(current.sessionId, "read that session");
    const read = JSON.parse(model.requests[second + 1].body.messages.find((m: any) => m.tool_call_id === "s2").content);
    assert.ok(read.messages.some((m: any) => /secret\/flamingo-deploy/.test(m.text)));
  } finally {
    await hermes.close();
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
