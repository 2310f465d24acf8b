// tool_search over the real protocol with a real MCP server of 25 tools: most wait (beyond the
// eager budget), tool_search loads one, and the very next request carries it after everything
// the first one sent, byte for byte the same before it; a deferred tool called by its name runs
// and is sent from then on; a session loaded by another agent sends the same tools again.
import * as acp from "@agentclientprotocol/sdk/unstable";
import assert from "node:assert/strict";
import path from "node:path";
import { test } from "node:test";
import { ROOT } from "../support/acp-harness";
import { makeTempDir, scriptedConfig, startAgent } from "../support/in-process-agent";
import { useScriptedModel } from "../support/scripted-model";

const scripted = useScriptedModel();
const SERVER = { tracker: { command: process.execPath, args: [path.join(ROOT, "test/fixtures/mcp/many-tools-server.mjs"), "tracker", "25"] } };

type Body = { tools: { function: { name: string } }[] };
const names = (body: Body) => body.tools.map((tool) => tool.function.name);

test("tool_search loads a deferred MCP tool: the next request appends it after the unchanged earlier tools; a reload keeps it", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const first = await startAgent({ config: scriptedConfig(model.url, { mcp_servers: SERVER, mcp: { connect_wait: 30 } }) });
  let sessionId: string;
  let loadedNames: string[];
  try {
    await first.initialize();
    sessionId = (await first.newSession(project)).sessionId;
    model.enqueue({ toolCalls: [{ id: "ts", name: "tool_search", arguments: { names: ["mcp_tracker_watch_issue"] } }] }, { toolCalls: [{ id: "call", name: "mcp_tracker_watch_issue", arguments: { project: "HER" } }] }, { text: "Archived." });
    const before = model.requests.length;
    await first.prompt(sessionId, "archive the issue");
    const [one, two, three] = model.requests.slice(before).map((request) => request.body as unknown as Body);
    const sent = names(one!);
    assert.ok(!sent.includes("mcp_tracker_watch_issue"), "deferred at first");
    assert.equal(sent.at(-1), "tool_search");
    assert.ok(sent.filter((name) => name.startsWith("mcp_tracker_")).length < 25, "only the MCP tools within the budget are sent");
    assert.deepEqual(names(two!), [...sent, "mcp_tracker_watch_issue"], "appended after everything sent before");
    assert.equal(JSON.stringify(two!.tools.slice(0, sent.length)), JSON.stringify(one!.tools), "the earlier tools are byte for byte the same");
    assert.match(JSON.stringify(three), /watch_issue done for/, "the loaded tool ran");

    // Called by its name without loading: it runs, and is sent from then on.
    model.enqueue({ toolCalls: [{ id: "direct", name: "mcp_tracker_update_issue", arguments: { project: "HER" } }] }, { text: "Labelled." });
    const mark = model.requests.length;
    await first.prompt(sessionId, "label it");
    const [call, after] = model.requests.slice(mark).map((request) => request.body as unknown as Body);
    assert.ok(!names(call!).includes("mcp_tracker_update_issue"));
    assert.deepEqual(names(after!).slice(-2), ["mcp_tracker_watch_issue", "mcp_tracker_update_issue"]);
    assert.match(JSON.stringify(after), /update_issue done for/);
    loadedNames = names(after!);
  } finally {
    await first.close();
  }

  const second = await startAgent({ env: { HERMES_HOME: first.home } });
  try {
    await second.initialize();
    await second.agent.request(acp.methods.agent.session.load, { sessionId, cwd: project, mcpServers: [] });
    model.enqueue({ text: "Still here." });
    const mark = model.requests.length;
    await second.prompt(sessionId, "anything else?");
    assert.deepEqual(names(model.requests[mark]!.body as unknown as Body), loadedNames, "the reloaded session sends the same tools");
  } finally {
    await second.close();
  }
});
