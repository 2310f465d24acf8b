// Toolsets over ACP: config.yaml's tools.enabled / tools.disabled, /tools toggles for the
// session (journaled, prompt rebuilt only when the set changes), /reload-mcp against a real MCP
// server, and the prompt's bytes identical across turns while nothing changes (prompt cache).
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { stringify as toYaml } from "yaml";
import { agentText, makeTempDir, scriptedConfig, startAgent } from "../support/in-process-agent";
import { FILESYSTEM } from "../support/mcp-servers";
import { useScriptedModel } from "../support/scripted-model";

const scripted = useScriptedModel();

const toolNames = (body: any): string[] => (body.tools ?? []).map((tool: any) => tool.function.name);
const systemOf = (body: any): string => body.messages.find((m: any) => m.role === "system")?.content ?? "";
/** The turn's model calls (with tools), without side calls such as the title's. */
const turnCalls = (model: { requests: { body: any }[] }): any[] => model.requests.map((request) => request.body).filter((body) => Array.isArray(body.tools) && body.tools.length > 0);

/** What the prompt cache keys on: the system prompt and the tool list, as sent. */
const cachePrefix = (body: any): string => JSON.stringify({ system: systemOf(body), tools: body.tools });

test("config tools.enabled / tools.disabled: only the chosen tools are offered and named in the prompt", async () => {
  const model = scripted();
  model.requests.length = 0; // one model server per file: this test's calls only
  const project = await makeTempDir();
  const hermes = await startAgent({ config: scriptedConfig(model.url, { tools: { enabled: ["file", "todo"], disabled: ["patch"] } }) });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    model.enqueue({ toolCalls: [{ id: "t1", name: "terminal", arguments: { command: "echo hi" } }] }, { text: "ok" });
    await hermes.prompt(sessionId, "hi");
    const [first, second] = turnCalls(model);
    assert.deepEqual(toolNames(first), ["apply_patch", "read_file", "search_files", "todo", "write_file"]);
    assert.match(systemOf(first), /^Available tools: apply_patch, read_file, search_files, todo, write_file\.$/m);
    const refused = second?.messages.find((m: any) => m.role === "tool" && m.tool_call_id === "t1")?.content ?? "";
    assert.match(refused, /terminal/, "a call to a tool that is off is refused with a result the model reads");
  } finally {
    await hermes.close();
  }
});

test("/tools lists by toolset and toggles for the session; the prompt's bytes change only when the set does", async () => {
  const model = scripted();
  model.requests.length = 0; // one model server per file: this test's calls only
  const project = await makeTempDir();
  const hermes = await startAgent({ config: scriptedConfig(model.url) });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    model.enqueue({ text: "one" }, { text: "two" });
    await hermes.prompt(sessionId, "first");
    await hermes.prompt(sessionId, "second");
    const calls = () => turnCalls(model);
    assert.equal(calls().length, 2);
    assert.equal(cachePrefix(calls()[1]), cachePrefix(calls()[0]), "nothing changed: byte-identical prefix");

    await hermes.prompt(sessionId, "/tools");
    assert.match(agentText(hermes, sessionId), /\*\*terminal\*\*: ✓ `process`, ✓ `terminal`/);

    await hermes.prompt(sessionId, "/tools disable patch");
    assert.match(agentText(hermes, sessionId), /Disabled `patch` for this session[\s\S]*\*\*file\*\*: ✓ `apply_patch`, ✗ `patch`, ✓ `read_file`/);
    await hermes.prompt(sessionId, "/tools disable patch");
    assert.match(agentText(hermes, sessionId), /`patch`: no change \(already off\)/);
    await hermes.prompt(sessionId, "/tools disable terminal");
    assert.match(agentText(hermes, sessionId), /Disabled `terminal`[\s\S]*\*\*terminal\*\*: ✗ `process`, ✗ `terminal`/, "a toolset's name turns the whole set off");
    await hermes.prompt(sessionId, "/tools enable nonsense");
    assert.match(agentText(hermes, sessionId), /Unknown tool or toolset: `nonsense`/);

    model.enqueue({ text: "three" }, { text: "four" });
    await hermes.prompt(sessionId, "third");
    await hermes.prompt(sessionId, "fourth");
    const [third, fourth] = [calls()[2], calls()[3]];
    assert.ok(!toolNames(third).some((name) => ["patch", "terminal", "process"].includes(name)) && toolNames(third).includes("apply_patch"));
    assert.doesNotMatch(systemOf(third), /Available tools: .*\b(terminal|patch)\b/, "the prompt's tool section follows the set");
    assert.notEqual(systemOf(third), systemOf(calls()[1]));
    assert.equal(cachePrefix(fourth), cachePrefix(third), "and holds again from there");

    // Journaled with the session: another process loading it keeps the toggle.
    const listed = await hermes.agent.request(acp.methods.agent.session.list, {});
    assert.ok(listed.sessions.some((entry) => entry.sessionId === sessionId));
  } finally {
    await hermes.close();
  }
  const again = await startAgent({ env: { HERMES_HOME: hermes.home } });
  try {
    await again.initialize();
    const { sessionId } = await again.agent.request(acp.methods.agent.session.new, { cwd: project, mcpServers: [] });
    const first = (await again.agent.request(acp.methods.agent.session.list, {})).sessions.find((entry) => entry.sessionId !== sessionId);
    assert.ok(first);
    await again.agent.request(acp.methods.agent.session.load, { sessionId: first.sessionId, cwd: project, mcpServers: [] });
    const at = turnCalls(model).length;
    model.enqueue({ text: "five" });
    await again.prompt(first.sessionId, "fifth");
    assert.ok(!toolNames(turnCalls(model)[at]).includes("terminal"), "the toggle came back with the session");
    await again.prompt(first.sessionId, "/tools reset");
    assert.match(agentText(again, first.sessionId), /back to config\.yaml's selection[\s\S]*✓ `terminal`/);
  } finally {
    await again.close();
  }
});

test("/reload-mcp: config.yaml read again, a real MCP server connected and its tools offered in the same session", async () => {
  const model = scripted();
  model.requests.length = 0; // one model server per file: this test's calls only
  const project = await makeTempDir();
  const folder = await makeTempDir("hermes-mcp-fs-");
  // Every MCP tool sent: this test is about /reload-mcp (deferral: tool-search.test.ts).
  const config = scriptedConfig(model.url, { mcp: { connect_wait: 30 }, tools: { eager_budget_tokens: 100_000 } });
  const hermes = await startAgent({ config });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    model.enqueue({ text: "no servers yet" });
    await hermes.prompt(sessionId, "before");
    assert.ok(!toolNames(turnCalls(model)[0]).some((name) => name.startsWith("mcp_")));

    writeFileSync(path.join(hermes.home, "config.yaml"), toYaml({ ...config, mcp_servers: { files: { command: process.execPath, args: [FILESYSTEM, folder] } } }));
    await hermes.prompt(sessionId, "/reload-mcp");
    assert.match(agentText(hermes, sessionId), /Reconnected the MCP servers\.\nMCP servers:\n- \*\*files\*\* \(config\.yaml, stdio\): ready, \d+ tools/);

    model.enqueue({ text: "now with files" }, { text: "without mcp" });
    await hermes.prompt(sessionId, "after");
    const after = turnCalls(model)[1];
    assert.ok(toolNames(after).includes("mcp_files_read_text_file"), "the server's tools are offered without a new session");
    assert.equal(systemOf(after), systemOf(turnCalls(model)[0]), "MCP tools are not in the frozen prompt: it stays byte-identical");

    await hermes.prompt(sessionId, "/tools disable mcp");
    await hermes.prompt(sessionId, "again");
    assert.ok(!toolNames(turnCalls(model)[2]).some((name) => name.startsWith("mcp_")), "the mcp toolset covers every server's tools");
  } finally {
    await hermes.close();
  }
});
