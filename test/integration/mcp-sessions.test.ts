// The editor's MCP servers beyond session/new: session/load (from the journal of an earlier
// agent process), session/resume with another server set (replaces the live session's
// servers), session/fork (the fork's own connection), the agent's exit and SIGTERM (no server
// left), and session/close while session/load is still connecting (the late bridge is closed).
// Real server-everything over stdio; each server's process is found by its MCP_TEST_TAG.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { makeTempDir, scriptedConfig, sessionUpdates, startHermes, type Harness } from "../support/acp-harness";
import { EVERYTHING, isAlive, MISBEHAVING, pidsIn, pidsTagged, stdioServer, waitForExit } from "../support/mcp-servers";
import { useScriptedModel, type ScriptedModel } from "../support/scripted-model";
import { waitForChangeIn } from "../support/wait";

const scripted = useScriptedModel();

/** A server-everything over stdio named `name`, and the tag its process carries. */
function everything(name: string): { server: acp.McpServer; tag: string } {
  const tag = randomUUID();
  return { server: stdioServer(name, [EVERYTHING, "stdio"], { MCP_TEST_TAG: tag }), tag };
}

/** The one process tagged `tag` (fails when there is none or several). */
function onePid(tag: string, what: string): number {
  const pids = pidsTagged(tag);
  assert.equal(pids.length, 1, `one process for ${what}: ${pids.join(",")}`);
  return pids[0];
}

/** The tool names the model was offered in request `index`. */
function offered(model: ScriptedModel, index: number): string[] {
  return model.requests[index].body.tools.map((t: any) => t.function.name);
}

/**
 * A turn in which the model calls `mcp_<server>_echo`; returns what the tool answered the
 * model and checks that the call's card finished as completed.
 */
async function echoTurn(hermes: Harness, model: ScriptedModel, sessionId: string, server: string, message: string): Promise<{ result: string; tools: string[] }> {
  model.enqueue({ toolCalls: [{ name: `mcp_${server}_echo`, arguments: { message } }] });
  model.enqueue({ text: "echoed" });
  const at = model.requests.length;
  const before = sessionUpdates(hermes, sessionId).length;
  await hermes.prompt(sessionId, `echo through ${server}`);
  const tools = offered(model, at);
  const result = model.requests[at + 1].body.messages.at(-1);
  assert.equal(result.role, "tool");
  const finished = sessionUpdates(hermes, sessionId)
    .slice(before)
    .filter((u) => u.sessionUpdate === "tool_call_update" && (u.status === "completed" || u.status === "failed"));
  assert.deepEqual(
    finished.map((u) => u.sessionUpdate === "tool_call_update" && u.status),
    ["completed"],
    `mcp_${server}_echo finished: ${result.content}`,
  );
  return { result: result.content, tools };
}

const mcpConfig = (url: string) => scriptedConfig(url, { mcp: { connect_wait: 30 } });

test("mcp session/load: a session from an earlier agent process loads from the journal with the editor's servers, whose tools work in the next turn", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const first = everything("everything");
  const a = await startHermes({ config: mcpConfig(model.url) });
  let sessionId: string;
  let firstPid: number;
  try {
    await a.initialize();
    ({ sessionId } = await a.agent.request(acp.methods.agent.session.new, { cwd: project, mcpServers: [first.server] }));
    firstPid = onePid(first.tag, "the first process's server");
    const { result } = await echoTurn(a, model, sessionId, "everything", "from the first process");
    assert.match(result, /from the first process/);
  } finally {
    await a.close();
  }
  assert.deepEqual(await waitForExit([firstPid]), [], "the first process's server went with it");

  const second = everything("everything");
  const b = await startHermes({ config: mcpConfig(model.url), env: { HERMES_HOME: a.home } });
  try {
    await b.initialize();
    await b.agent.request(acp.methods.agent.session.load, { sessionId, cwd: project, mcpServers: [second.server] });
    assert.match(JSON.stringify(sessionUpdates(b, sessionId)), /from the first process/, "the history was replayed from the journal");
    const pid = onePid(second.tag, "the loaded session's server");
    assert.notEqual(pid, firstPid);

    const at = model.requests.length;
    const { result, tools } = await echoTurn(b, model, sessionId, "everything", "after session/load");
    assert.match(result, /after session\/load/);
    assert.ok(tools.includes("mcp_everything_echo"), tools.join(","));
    assert.match(JSON.stringify(model.requests[at].body.messages), /from the first process/, "the model sees the loaded history");
    assert.deepEqual(b.invalidUpdates, []);
  } finally {
    await b.close();
  }
  assert.deepEqual(await waitForExit(pidsTagged(second.tag)), [], "no server left after the second process exits");
});

test("mcp session/resume with another server set replaces the live session's servers: the old process is gone, the new tools work", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const old = everything("old");
  const fresh = everything("fresh");
  const hermes = await startHermes({ config: mcpConfig(model.url) });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.agent.request(acp.methods.agent.session.new, { cwd: project, mcpServers: [old.server] });
    const oldPid = onePid(old.tag, "the old server");
    assert.match((await echoTurn(hermes, model, sessionId, "old", "before resume")).result, /before resume/);

    // The same set again keeps the connection (no restart).
    await hermes.agent.request(acp.methods.agent.session.resume, { sessionId, cwd: project, mcpServers: [old.server] });
    assert.ok(isAlive(oldPid), "resuming with the same servers keeps them");
    assert.deepEqual(pidsTagged(old.tag), [oldPid]);
    // No mcpServers at all means "as before", not "none".
    await hermes.agent.request(acp.methods.agent.session.resume, { sessionId, cwd: project } as acp.ResumeSessionRequest);
    assert.ok(isAlive(oldPid), "a resume without mcpServers keeps the servers");
    assert.deepEqual(pidsTagged(old.tag), [oldPid]);

    await hermes.agent.request(acp.methods.agent.session.resume, { sessionId, cwd: project, mcpServers: [fresh.server] });
    assert.deepEqual(await waitForExit([oldPid], 5_000), [], "the replaced server's process is gone");
    onePid(fresh.tag, "the new server");

    const { result, tools } = await echoTurn(hermes, model, sessionId, "fresh", "after resume");
    assert.match(result, /after resume/);
    assert.ok(tools.includes("mcp_fresh_echo"), tools.join(","));
    assert.ok(!tools.some((name) => name.startsWith("mcp_old_")), `the old server's tools are no longer offered: ${tools.join(",")}`);
    assert.match(JSON.stringify(model.requests.at(-1)!.body.messages), /before resume/, "the history stays");
    assert.deepEqual(hermes.invalidUpdates, []);
  } finally {
    await hermes.close();
  }
  assert.deepEqual(await waitForExit([...pidsTagged(old.tag), ...pidsTagged(fresh.tag)]), []);
});

test("mcp session/fork with servers: the fork has its own connection; session/close of the fork kills only its server", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const parentServer = everything("everything");
  const forkServer = everything("everything");
  const hermes = await startHermes({ config: mcpConfig(model.url) });
  try {
    await hermes.initialize();
    const { sessionId: parentId } = await hermes.agent.request(acp.methods.agent.session.new, { cwd: project, mcpServers: [parentServer.server] });
    const parentPid = onePid(parentServer.tag, "the parent's server");
    assert.match((await echoTurn(hermes, model, parentId, "everything", "in the parent")).result, /in the parent/);

    // The same name on purpose: the fork must not reuse the parent's connection.
    const { sessionId: forkId } = await hermes.agent.request<acp.NewSessionResponse>("session/fork", { sessionId: parentId, cwd: project, mcpServers: [forkServer.server] });
    assert.notEqual(forkId, parentId);
    const forkPid = onePid(forkServer.tag, "the fork's server");
    assert.notEqual(forkPid, parentPid);
    assert.deepEqual(pidsTagged(parentServer.tag), [parentPid], "the parent keeps its one server");

    const at = model.requests.length;
    assert.match((await echoTurn(hermes, model, forkId, "everything", "in the fork")).result, /in the fork/);
    assert.match(JSON.stringify(model.requests[at].body.messages), /in the parent/, "the fork has the parent's history");

    await hermes.agent.request(acp.methods.agent.session.close, { sessionId: forkId });
    assert.deepEqual(await waitForExit([forkPid], 5_000), [], "closing the fork ends its server");
    assert.ok(isAlive(parentPid), "and leaves the parent's running");
    assert.match((await echoTurn(hermes, model, parentId, "everything", "parent after the fork closed")).result, /parent after the fork closed/);
    assert.deepEqual(hermes.invalidUpdates, []);
  } finally {
    await hermes.close();
  }
  assert.deepEqual(await waitForExit([...pidsTagged(parentServer.tag), ...pidsTagged(forkServer.tag)]), []);
});

test("mcp on exit: servers of sessions opened by new, load, resume and fork, none closed, are all gone after the agent exits", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const servers = ["created", "loaded", "resumed", "forked"].map(everything);
  const [created, loaded, resumed, forked] = servers;
  const home = await startHermes({ config: mcpConfig(model.url) });
  let storedId: string;
  try {
    await home.initialize();
    ({ sessionId: storedId } = await home.newSession(project));
    model.enqueue({ text: "stored" });
    await home.prompt(storedId, "remember me");
  } finally {
    await home.close();
  }

  const hermes = await startHermes({ config: mcpConfig(model.url), env: { HERMES_HOME: home.home } });
  let pids: number[];
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.agent.request(acp.methods.agent.session.new, { cwd: project, mcpServers: [created.server] });
    await hermes.agent.request(acp.methods.agent.session.load, { sessionId: storedId, cwd: project, mcpServers: [loaded.server] });
    await hermes.agent.request(acp.methods.agent.session.resume, { sessionId, cwd: project, mcpServers: [created.server, resumed.server] });
    await hermes.agent.request("session/fork", { sessionId: storedId, cwd: project, mcpServers: [forked.server] });
    pids = servers.map(({ tag }, i) => onePid(tag, `server ${i}`));
    assert.ok(pids.every(isAlive));
  } finally {
    const code = await hermes.close();
    assert.equal(code, 0, hermes.stderr().slice(-2_000));
  }
  assert.deepEqual(await waitForExit(pids, 5_000), [], "no MCP server process outlives the agent");
  assert.deepEqual(servers.flatMap(({ tag }) => pidsTagged(tag)), []);
});

test("mcp on SIGTERM: the agent killed by the editor takes its servers with it", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const server = everything("everything");
  const hermes = await startHermes({ config: mcpConfig(model.url) });
  let pid: number;
  try {
    await hermes.initialize();
    await hermes.agent.request(acp.methods.agent.session.new, { cwd: project, mcpServers: [server.server] });
    pid = onePid(server.tag, "the session's server");
    const exited = new Promise((resolve) => hermes.child.once("exit", resolve));
    hermes.child.kill("SIGTERM");
    await exited;
  } finally {
    await hermes.close();
  }
  assert.deepEqual(await waitForExit([pid], 5_000), [], "no MCP server process outlives the agent");
});

test("mcp session/close while session/load is still connecting its servers: the late bridge is closed, not left running", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const pidFile = path.join(await makeTempDir("hermes-mcp-pids-"), "pids");
  const a = await startHermes({ config: mcpConfig(model.url) });
  let sessionId: string;
  try {
    await a.initialize();
    ({ sessionId } = await a.newSession(project));
    model.enqueue({ text: "stored" });
    await a.prompt(sessionId, "remember me");
  } finally {
    await a.close();
  }
  const b = await startHermes({ config: mcpConfig(model.url), env: { HERMES_HOME: a.home } });
  try {
    await b.initialize();
    // The server cannot finish connecting until its gate opens, after the session is closed.
    const gate = path.join(await makeTempDir("hermes-mcp-gate-"), "open");
    const slow = stdioServer("slow", [MISBEHAVING, "slow-start"], { PID_FILE: pidFile, START_GATE: gate });
    const loading = b.agent.request(acp.methods.agent.session.load, { sessionId, cwd: project, mcpServers: [slow as acp.McpServer] }).then(
      () => "loaded",
      (error: any) => `failed: ${error.message}`,
    );
    const [pid] = await waitForChangeIn(path.dirname(pidFile), () => pidsIn(pidFile).length > 0 && pidsIn(pidFile), 10_000, "the slow server's pid");
    assert.ok(pid, "the slow server started");
    await b.agent.request(acp.methods.agent.session.close, { sessionId });
    writeFileSync(gate, "");
    await loading;
    assert.deepEqual(await waitForExit([pid], 5_000), [], "the server of a session closed during its load is gone while the agent runs on");
    assert.equal(b.child.exitCode, null);
  } finally {
    await b.close();
  }
});
