// Sessions over ACP in one agent (in process): list, fork, queued prompts, titles and
// session_search. Across processes (load in another, resume, two writers, a corrupt journal
// another process reads) in test/integration/sessions.test.ts.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { mkdir, readFile, symlink } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { agentText, makeTempDir, scriptedConfig, sessionUpdates, startAgent } from "../support/in-process-agent";
import { useScriptedModel } from "../support/scripted-model";
import { transcript } from "../support/transcript";

const scripted = useScriptedModel();

const userText = (requestBody: any) =>
  requestBody.messages
    .filter((m: any) => m.role === "user")
    .map((m: any) => (typeof m.content === "string" ? m.content : m.content.map((p: any) => p.text ?? "").join("")))
    .join("\n");

test("list: newest first, pages of 50, and a cwd filter that sees through symlinks", async () => {
  const model = scripted();
  const root = await makeTempDir();
  const real = path.join(root, "real");
  await mkdir(real);
  const link = path.join(root, "link");
  await symlink(real, link);
  const other = await makeTempDir();
  const hermes = await startAgent({ config: scriptedConfig(model.url) });
  try {
    await hermes.initialize();
    const ids: string[] = [];
    for (let i = 0; i < 55; i++) ids.push((await hermes.newSession(i % 5 === 0 ? other : real)).sessionId);
    const first = await hermes.agent.request(acp.methods.agent.session.list, {});
    assert.equal(first.sessions.length, 50);
    assert.ok(first.nextCursor);
    const second = await hermes.agent.request(acp.methods.agent.session.list, { cursor: first.nextCursor });
    const listed = [...first.sessions, ...second.sessions];
    const all = listed.map((s) => s.sessionId);
    assert.deepEqual(new Set(all), new Set(ids));
    // Newest first, by the last activity. Which session that is depends on timing in process:
    // several are created within one millisecond (a tie, then ordered by id), and each session's
    // system prompt is journaled in the background after session/new answers. So the check is
    // the order of the stamps across both pages.
    const stamps = listed.map((s) => Date.parse(String(s.updatedAt)));
    assert.ok(stamps.every((stamp) => Number.isFinite(stamp)));
    assert.ok(stamps.every((stamp, i) => i === 0 || stamp <= stamps[i - 1]!), `newest first: ${stamps.join(", ")}`);

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
  const hermes = await startAgent({ config: scriptedConfig(model.url) });
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
  const hermes = await startAgent({ config: scriptedConfig(model.url) });
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
  const hermes = await startAgent({ config });
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
  const hermes = await startAgent({ config: scriptedConfig(model.url) });
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

