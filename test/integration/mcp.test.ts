// The MCP bridge over real ACP stdio with real MCP servers: server-everything in its stdio,
// streamableHttp and sse modes, server-filesystem from config.yaml, and misbehaving
// servers (crash mid-call, never answers, exits at start, slow to start, bad config).
// Every stdio server must be gone after session/close and after the agent exits.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { agentText, makeTempDir, scriptedConfig, sessionUpdates, startHermes, type Harness } from "../support/acp-harness";
import { EVERYTHING, FILESYSTEM, MISBEHAVING, pidsIn, pidsTagged, startEverythingHttp, stdioServer, waitForExit } from "../support/mcp-servers";
import { childPids } from "../support/delegation";
import { useScriptedModel } from "../support/scripted-model";
import { waitForChangeIn } from "../support/wait";

const scripted = useScriptedModel();

/** These tests are about the bridge: every MCP tool is sent (tool_search's deferral is tested in tool-search.test.ts). */
const EVERY_MCP_TOOL = { eager_budget_tokens: 100_000 };

function newSession(hermes: Harness, cwd: string, mcpServers: unknown[]): Promise<acp.NewSessionResponse> {
  return hermes.agent.request(acp.methods.agent.session.new, { cwd, mcpServers: mcpServers as acp.McpServer[] });
}

/** The text a prompt added to the session's reply. */
async function ask(hermes: Harness, sessionId: string, text: string): Promise<string> {
  const before = agentText(hermes, sessionId).length;
  await hermes.prompt(sessionId, text);
  return agentText(hermes, sessionId).slice(before);
}

/** The agent tells the client its command list again whenever a session's MCP servers change. */
const isServersChange = (sessionId: string) => (frame: any) =>
  frame.method === "session/update" && frame.params?.sessionId === sessionId && frame.params.update?.sessionUpdate === "available_commands_update";

/** Checks again after each change of the session's MCP servers, until `check` holds (or `ms` passed). */
async function until(hermes: Harness, sessionId: string, what: string, check: () => Promise<boolean> | boolean, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  const isChange = isServersChange(sessionId);
  for (;;) {
    const seen = hermes.frames.filter(isChange).length;
    if (await check()) return;
    let matched = 0;
    const left = deadline - Date.now();
    if (left <= 0) throw new Error(`timed out waiting for ${what}`);
    await hermes.waitForFrame((frame) => isChange(frame) && ++matched > seen, left).catch(() => {
      throw new Error(`timed out waiting for ${what}`);
    });
  }
}

function finishedCalls(hermes: Harness, sessionId: string) {
  return sessionUpdates(hermes, sessionId).filter((u): u is Extract<acp.SessionUpdate, { sessionUpdate: "tool_call_update" }> => u.sessionUpdate === "tool_call_update" && (u.status === "completed" || u.status === "failed"));
}

test("mcp stdio: server-everything's tools in a full turn (echo, image), a resource, a prompt as a slash command, gone after session/close", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const tag = randomUUID();
  const hermes = await startHermes({ config: scriptedConfig(model.url, { mcp: { connect_wait: 30 }, tools: EVERY_MCP_TOOL }) });
  try {
    const init = await hermes.initialize();
    assert.deepEqual(init.agentCapabilities?.mcpCapabilities, { http: true, sse: true });
    const { sessionId } = await newSession(hermes, project, [stdioServer("everything", [EVERYTHING, "stdio"], { MCP_TEST_TAG: tag })]);
    assert.equal(pidsTagged(tag).length, 1, "one server process while the session is open");

    const commands = await hermes.waitForUpdate((u) => u.sessionUpdate === "available_commands_update" && u.availableCommands.some((c) => c.name === "mcp:everything:simple-prompt"));
    assert.ok(commands.sessionUpdate === "available_commands_update");
    assert.ok(commands.availableCommands.some((c) => c.name === "mcp:everything:args-prompt" && c.input?.hint?.includes("city")));

    const secret = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789";
    model.enqueue({ toolCalls: [{ name: "mcp_everything_echo", arguments: { message: `hello over mcp ${secret}` } }, { name: "mcp_everything_get-tiny-image", arguments: {} }] });
    model.enqueue({ text: "Echoed and looked." });
    const at = model.requests.length;
    await hermes.prompt(sessionId, "use the mcp tools");
    const first = model.requests[at].body;
    const names: string[] = first.tools.map((t: any) => t.function.name);
    assert.ok(names.includes("mcp_everything_echo") && names.includes("mcp_everything_get-tiny-image") && names.includes("read_mcp_resource"), names.join(","));
    const builtins = names.filter((n) => !n.startsWith("mcp_") && n !== "read_mcp_resource" && n !== "tool_search"); // tool_search follows the MCP tools
    assert.deepEqual(names.slice(0, builtins.length), builtins, "registry tools first, MCP tools after them");
    const echoSchema = first.tools.find((t: any) => t.function.name === "mcp_everything_echo").function.parameters;
    assert.equal(echoSchema.type, "object");
    assert.ok(echoSchema.properties.message, "the server's JSON schema is kept");
    assert.doesNotMatch(first.messages[0].content, /mcp_everything/, "MCP tools stay out of the frozen system prompt");

    const toolMessages = model.requests[at + 1].body.messages.filter((m: any) => m.role === "tool");
    assert.match(toolMessages[0].content, /hello over mcp/);
    assert.doesNotMatch(toolMessages[0].content, new RegExp(secret), "secrets in MCP results are redacted for the model");
    assert.doesNotMatch(JSON.stringify(finishedCalls(hermes, sessionId)), new RegExp(secret), "and in the editor's tool call card");
    assert.match(toolMessages[1].content, /image\/png/);
    assert.match(toolMessages[1].content, /The tool also returned 1 image/, "Chat Completions cannot carry tool images: described in text");
    const finished = finishedCalls(hermes, sessionId);
    assert.deepEqual(finished.map((u) => u.status), ["completed", "completed"]);
    const image = finished[1].content?.find((c) => c.type === "content" && c.content.type === "image");
    assert.ok(image && image.type === "content" && image.content.type === "image" && image.content.mimeType === "image/png", "the image shows in the tool call card");

    // Resources: list, then read one.
    model.enqueue({ toolCalls: [{ name: "read_mcp_resource", arguments: { action: "list" } }] });
    model.enqueue({ toolCalls: [{ name: "read_mcp_resource", arguments: { action: "read", uri: "demo://resource/dynamic/text/1" } }] });
    model.enqueue({ text: "Read it." });
    const beforeResources = model.requests.length;
    await hermes.prompt(sessionId, "read a resource");
    const listed = model.requests[beforeResources + 1].body.messages.at(-1);
    assert.match(listed.content, /everything:\n- demo:\/\//);
    const read = model.requests[beforeResources + 2].body.messages.at(-1);
    assert.match(read.content, /demo:\/\/resource\/dynamic\/text\/1/);
    assert.doesNotMatch(read.content, /"error"/);

    // /mcp shows the server; its prompts run as slash commands (a model turn with the prompt's text).
    assert.match(await ask(hermes, sessionId, "/mcp"), /\*\*everything\*\* \(from the editor, stdio\): ready, \d+ tools, 4 prompts/);
    model.enqueue({ text: "simple done" });
    const beforePrompt = model.requests.length;
    await hermes.prompt(sessionId, "/mcp:everything:simple-prompt");
    const sent = model.requests[beforePrompt].body.messages.at(-1);
    assert.equal(sent.role, "user");
    assert.match(typeof sent.content === "string" ? sent.content : JSON.stringify(sent.content), /This is a simple prompt without arguments\./);
    model.enqueue({ text: "weather done" });
    await hermes.prompt(sessionId, "/mcp:everything:args-prompt city=Paris");
    assert.match(JSON.stringify(model.requests.at(-1)!.body.messages.at(-1)), /weather in Paris/);
    assert.match(await ask(hermes, sessionId, "/mcp:everything:args-prompt"), /needs `city`/);
    assert.match(await ask(hermes, sessionId, "/mcp:nosuch:thing"), /No MCP server "nosuch"/);
    assert.deepEqual(hermes.invalidUpdates, []);

    const pids = pidsTagged(tag);
    await hermes.agent.request(acp.methods.agent.session.close, { sessionId });
    assert.deepEqual(await waitForExit(pids, 3_000), [], "no server process left after session/close");
  } finally {
    await hermes.close();
  }
});

for (const mode of ["streamableHttp", "sse"] as const) {
  test(`mcp ${mode}: server-everything over HTTP (type ${mode === "sse" ? "sse" : "http"}) in a turn`, async () => {
    const model = scripted();
    const project = await makeTempDir();
    const server = await startEverythingHttp(mode);
    const hermes = await startHermes({ config: scriptedConfig(model.url, { mcp: { connect_wait: 30 }, tools: EVERY_MCP_TOOL }) });
    try {
      await hermes.initialize();
      const { sessionId } = await newSession(hermes, project, [{ type: mode === "sse" ? "sse" : "http", name: "remote", url: server.url, headers: [{ name: "X-Test", value: "1" }] }]);
      assert.match(await ask(hermes, sessionId, "/mcp"), new RegExp(`\\*\\*remote\\*\\* \\(from the editor, ${mode === "sse" ? "sse" : "http"}\\): ready`));
      model.enqueue({ toolCalls: [{ name: "mcp_remote_echo", arguments: { message: `via ${mode}` } }, { name: "mcp_remote_get-tiny-image", arguments: {} }] });
      model.enqueue({ text: "ok" });
      const at = model.requests.length;
      await hermes.prompt(sessionId, "echo");
      const tools = model.requests[at + 1].body.messages.filter((m: any) => m.role === "tool");
      assert.match(tools[0].content, new RegExp(`via ${mode}`));
      assert.match(tools[1].content, /image\/png/);
      assert.deepEqual(finishedCalls(hermes, sessionId).map((u) => u.status), ["completed", "completed"]);
      assert.deepEqual(hermes.invalidUpdates, []);
    } finally {
      await hermes.close();
      server.close();
    }
  });
}

test("mcp config: server-filesystem from config.yaml on a temp folder, with include/exclude and a confirmation prompt", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const folder = await makeTempDir("hermes-mcp-fs-");
  writeFileSync(path.join(folder, "notes.txt"), "alpha beta gamma\n");
  const hermes = await startHermes({
    config: scriptedConfig(model.url, {
      tools: EVERY_MCP_TOOL,
      mcp: { connect_wait: 30 },
      mcp_servers: { files: { command: process.execPath, args: [FILESYSTEM, "${MCP_FS_DIR}"], exclude_tools: ["move_file"], require_confirmation: ["write_file"] } },
    }),
    env: { MCP_FS_DIR: folder },
    permission: "allow",
  });
  try {
    await hermes.initialize();
    const { sessionId } = await newSession(hermes, project, []);
    assert.match(await ask(hermes, sessionId, "/mcp"), /\*\*files\*\* \(config\.yaml, stdio\): ready, 13 tools/);
    model.enqueue({ toolCalls: [{ name: "mcp_files_read_text_file", arguments: { path: path.join(folder, "notes.txt") } }] });
    model.enqueue({ toolCalls: [{ name: "mcp_files_write_file", arguments: { path: path.join(folder, "new.txt"), content: "written through mcp" } }] });
    model.enqueue({ text: "done" });
    const at = model.requests.length;
    await hermes.prompt(sessionId, "read and write");
    const names: string[] = model.requests[at].body.tools.map((t: any) => t.function.name);
    assert.ok(names.includes("mcp_files_read_text_file") && !names.includes("mcp_files_move_file"));
    assert.match(model.requests[at + 1].body.messages.at(-1).content, /alpha beta gamma/);
    assert.equal(hermes.permissionRequests.length, 1, "write_file asked first (require_confirmation)");
    assert.match(hermes.permissionRequests[0].toolCall.title ?? "", /files/);
    assert.equal(readFileSync(path.join(folder, "new.txt"), "utf8"), "written through mcp");
  } finally {
    await hermes.close();
  }
});

test("mcp failures are contained: crash mid-call (then reconnect), no answer (timeout), exit at start, bad config, duplicate names; no process left", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const pidFile = path.join(await makeTempDir("hermes-mcp-pids-"), "pids");
  const env = { PID_FILE: pidFile };
  const hermes = await startHermes({
    config: scriptedConfig(model.url, {
      tools: EVERY_MCP_TOOL,
      mcp: { connect_wait: 30 },
      mcp_servers: {
        hangs: { command: process.execPath, args: [MISBEHAVING, "never-answers"], env, timeout: 1 },
        broken: { command: "x", url: "http://127.0.0.1:1/mcp", timeout: "soon" },
        unset: { command: "${HERMES_TEST_NOT_SET}" },
        off: { command: "/does/not/exist", enabled: false },
      },
    }),
  });
  try {
    await hermes.initialize();
    const duplicate = [stdioServer("twin", [MISBEHAVING]), stdioServer("twin", [MISBEHAVING])];
    await assert.rejects(newSession(hermes, project, duplicate), (error: any) => error.code === -32602 && /named "twin"/.test(error.message));

    const { sessionId } = await newSession(hermes, project, [
      stdioServer("crashes", [MISBEHAVING, "crash-mid-call"], env),
      stdioServer("dies", [MISBEHAVING, "exit-at-start"], env),
    ]);
    const status = await ask(hermes, sessionId, "/mcp");
    assert.match(status, /\*\*crashes\*\* .*: ready, 4 tools/);
    assert.match(status, /\*\*hangs\*\* .*: ready, 4 tools/);
    assert.match(status, /\*\*dies\*\* .*: failed: .*exit code 3.*cannot start \(on purpose\)/);
    assert.match(status, /\*\*broken\*\* .*: failed: .*mcp_servers\.broken\.timeout/);
    assert.match(status, /\*\*unset\*\* .*: failed: .*HERMES_TEST_NOT_SET/);
    assert.doesNotMatch(status, /\*\*off\*\*/, "disabled servers are left out");

    model.enqueue({ toolCalls: [{ name: "mcp_crashes_crash", arguments: {} }, { name: "mcp_hangs_hang", arguments: {} }] });
    model.enqueue({ text: "both failed" });
    const at = model.requests.length;
    await hermes.prompt(sessionId, "break things");
    const results = model.requests[at + 1].body.messages.filter((m: any) => m.role === "tool").map((m: any) => m.content);
    assert.match(results[0], /MCP server \\?"crashes\\?" disconnected during crash \(exit code 1\)/);
    assert.match(results[1], /MCP server \\?"hangs\\?" did not answer hang within 1 s/);
    assert.deepEqual(finishedCalls(hermes, sessionId).map((u) => u.status), ["failed", "failed"]);

    // The crashed server comes back by itself, and its tools work again.
    await until(hermes, sessionId, "the crashed server to reconnect", async () => /\*\*crashes\*\* .*: ready/.test(await ask(hermes, sessionId, "/mcp")));
    model.enqueue({ toolCalls: [{ name: "mcp_crashes_ok", arguments: {} }] });
    model.enqueue({ text: "fine again" });
    await hermes.prompt(sessionId, "again");
    assert.equal(model.requests.at(-1)!.body.messages.at(-1).content, "fine");
    assert.equal(finishedCalls(hermes, sessionId).at(-1)!.status, "completed");
    assert.match(agentText(hermes, sessionId), /fine again/, "the model still answers: nothing else was affected");
    assert.deepEqual(hermes.invalidUpdates, []);
  } finally {
    await hermes.close();
  }
  const pids = pidsIn(pidFile);
  assert.ok(pids.length >= 4, `servers started: ${pids.length}`);
  assert.deepEqual(await waitForExit(pids), [], "no MCP server process outlives the agent");
});

test("mcp startup: initialize starts no server, session/new answers within the wait budget while a slow server connects, its tools appear later", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const pidFile = path.join(await makeTempDir("hermes-mcp-pids-"), "pids");
  const gate = path.join(await makeTempDir("hermes-mcp-gate-"), "open");
  const hermes = await startHermes({
    config: scriptedConfig(model.url, {
      tools: EVERY_MCP_TOOL,
      // session/new waits this long for servers, then answers without them.
      mcp: { connect_wait: 0.5 },
      mcp_servers: { slow: { command: process.execPath, args: [MISBEHAVING, "slow-start"], env: { PID_FILE: pidFile, START_GATE: gate } } },
    }),
  });
  try {
    await hermes.initialize();
    // session/list needs the loaded runtime: by its answer, start-up work is done.
    await hermes.agent.request(acp.methods.agent.session.list, {});
    assert.deepEqual(childPids(hermes.child.pid!), [], "config servers do not start with the process");
    const { sessionId } = await newSession(hermes, project, []);
    // Started by session/new; its pid line comes once node has loaded it (slower on a busy machine), so wait for it.
    await waitForChangeIn(path.dirname(pidFile), () => pidsIn(pidFile).length === 1, 15_000, "the slow server's pid (started with the session)");
    assert.equal(pidsIn(pidFile).length, 1, "the server started with the session");
    // The server cannot start until the gate opens: session/new answered without it.
    assert.match(await ask(hermes, sessionId, "/mcp"), /\*\*slow\*\* .*: connecting/);
    writeFileSync(gate, "");
    await until(hermes, sessionId, "the slow server", async () => /\*\*slow\*\* .*: ready/.test(await ask(hermes, sessionId, "/mcp")));
    model.enqueue({ toolCalls: [{ name: "mcp_slow_grow", arguments: {} }] });
    model.enqueue({ text: "ok" });
    const at = model.requests.length;
    await hermes.prompt(sessionId, "hi");
    assert.ok(model.requests[at].body.tools.some((t: any) => t.function.name === "mcp_slow_ok"), "its tools are offered once ready");
    // notifications/tools/list_changed: the new tool is offered from the next prompt on.
    await until(hermes, sessionId, "the grown tool", async () => /\*\*slow\*\* .*: ready, 5 tools/.test(await ask(hermes, sessionId, "/mcp")));
    model.enqueue({ toolCalls: [{ name: "mcp_slow_grown", arguments: {} }] });
    model.enqueue({ text: "ok" });
    await hermes.prompt(sessionId, "again");
    assert.equal(model.requests.at(-1)!.body.messages.at(-1).content, "grown up");
  } finally {
    await hermes.close();
  }
  assert.deepEqual(await waitForExit(pidsIn(pidFile)), [], "no MCP server process outlives the agent");
});
