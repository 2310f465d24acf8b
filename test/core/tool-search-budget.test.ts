// tools.eager_budget_tokens from config.yaml decides how many MCP tools go out with every call
// (0: none, a large budget: all, and then no tool_search for them), and a deferred built-in
// (skill_manage) loaded through tool_search really runs: it writes the skill in $HERMES_HOME.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { ROOT } from "../support/acp-harness";
import { makeTempDir, scriptedConfig, startAgent } from "../support/in-process-agent";
import { useScriptedModel } from "../support/scripted-model";

const scripted = useScriptedModel();
const SERVER = { tracker: { command: process.execPath, args: [path.join(ROOT, "test/fixtures/mcp/many-tools-server.mjs"), "tracker", "25"] } };

type Body = { tools: { function: { name: string; description: string } }[] };
const names = (body: Body) => body.tools.map((tool) => tool.function.name);
const mcpSent = (body: Body) => names(body).filter((name) => name.startsWith("mcp_tracker_")).length;

async function firstRequest(budget: number): Promise<Body> {
  const model = scripted();
  const hermes = await startAgent({ config: scriptedConfig(model.url, { mcp_servers: SERVER, mcp: { connect_wait: 30 }, tools: { eager_budget_tokens: budget } }) });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(await makeTempDir());
    model.enqueue({ text: "ok" });
    const mark = model.requests.length;
    await hermes.prompt(sessionId, "hello");
    return model.requests[mark]!.body as unknown as Body;
  } finally {
    await hermes.close();
  }
}

test("tools.eager_budget_tokens is honoured: 0 sends no MCP tool, a large budget sends all 25 and lists none", async () => {
  const none = await firstRequest(0);
  assert.equal(mcpSent(none), 0, names(none).join(", "));
  const search = none.tools.find((tool) => tool.function.name === "tool_search");
  assert.ok(search, "tool_search is offered for the deferred MCP tools");
  assert.match(search.function.description, /mcp_tracker_/);

  const all = await firstRequest(100_000);
  assert.equal(mcpSent(all), 25, names(all).join(", "));
  const listing = all.tools.find((tool) => tool.function.name === "tool_search")?.function.description ?? "";
  assert.doesNotMatch(listing, /mcp_tracker_/, "no MCP tool waits when all fit in the budget");
});

const SKILL = `---
name: greet-twice
description: Say hello twice. Use when asked for a double greeting.
---
# Greet twice

1. Say hello.
2. Say it again.
`;

test("a deferred built-in (skill_manage) is not sent, loads through tool_search, is appended, and runs", async () => {
  const model = scripted();
  const hermes = await startAgent({ config: scriptedConfig(model.url) });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(await makeTempDir());
    model.enqueue(
      { toolCalls: [{ id: "ts", name: "tool_search", arguments: { query: "skill" } }] },
      { toolCalls: [{ id: "make", name: "skill_manage", arguments: { action: "create", name: "greet-twice", content: SKILL } }] },
      { text: "Saved." },
    );
    const mark = model.requests.length;
    await hermes.prompt(sessionId, "save a skill for greeting twice");
    const [one, two, three] = model.requests.slice(mark).map((request) => request.body as unknown as Body);
    assert.ok(!names(one!).includes("skill_manage"), "deferred at first");
    assert.deepEqual(names(two!), [...names(one!), "skill_manage"], "appended after everything sent before");
    assert.doesNotMatch(JSON.stringify(three), /use tool_search|not loaded|unknown tool/i);
    assert.ok(existsSync(path.join(hermes.home, "skills", "greet-twice", "SKILL.md")), "the loaded tool wrote the skill");
  } finally {
    await hermes.close();
  }
});
