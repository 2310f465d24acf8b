// Tools that cost nothing until used (issue 34): a root session leaves the deferred built-ins
// (browser, web, skill_manage) and MCP tools beyond the eager budget out of what it sends, lists
// them in tool_search's description, and once one is loaded sends it after everything it sent
// before (the earlier tools unchanged, in the same order: the prompt cache holds). Subagents get
// their tools as before.
import assert from "node:assert/strict";
import { test } from "node:test";
import * as z from "zod";
import { builtinToolRegistry } from "../../acp-server/tools/all-tools";
import { defineTool, type ToolDefinition } from "../../acp-server/tools/registry";
import { SessionTools } from "../../acp-server/tools/tool-set";

function mcpTool(server: string, name: string): ToolDefinition {
  return defineTool({
    name: `mcp_${server}_${name}`,
    toolset: `mcp-${server}`,
    kind: "other",
    readOnly: false,
    description: `${name} in ${server}. Returns JSON with the id, title, state and timestamps of what it touched.`,
    schema: z.object({ project: z.string().describe("The project key"), query: z.string().optional().describe("Free text") }),
    title: () => name,
    handler: async () => ({ output: "ok" }),
  }) as unknown as ToolDefinition;
}

test("deferred tools are left out, listed by tool_search, and appended once loaded; subagents see them all", () => {
  const tools = new SessionTools(builtinToolRegistry());
  tools.configure({ enabled: [], disabled: [], eager_budget_tokens: 150 });
  const own = Array.from({ length: 12 }, (_, i) => mcpTool("tracker", `action_${String(i).padStart(2, "0")}`));
  tools.setExtra({ list: () => own });
  const loads: string[][] = [];
  tools.onLoad = (loaded) => loads.push([...loaded]);

  const before = tools.list().map((tool) => tool.name);
  assert.ok(!before.includes("web_fetch") && !before.includes("skill_manage"), before.join(", "));
  assert.ok(before.includes("read_file") && before.includes("mcp_tracker_action_00"), "core tools and the first MCP tools within the budget are sent");
  assert.ok(!before.includes("mcp_tracker_action_11"), "MCP tools beyond the budget wait");
  assert.equal(before.at(-1), "tool_search");
  const search = tools.list().at(-1)!;
  assert.match(search.description, /Loadable:\n- skill_manage: [^\n]+\n[\s\S]*- web_fetch: [^\n]+[\s\S]*mcp_tracker_action_11/);
  assert.ok(tools.builtin().some((tool) => tool.name === "tool_search") && !tools.builtin().some((tool) => tool.name === "web_fetch"), "the system prompt names what is sent");

  // read_file is sent already and "nope" is no tool: only the deferred ones are loaded.
  assert.deepEqual(tools.load(["mcp_tracker_action_11", "web_fetch", "read_file", "nope"]).map((tool) => tool.name), ["web_fetch", "mcp_tracker_action_11"]);
  const after = tools.list().map((tool) => tool.name);
  assert.deepEqual(after.slice(0, before.length), before, "what was sent before is sent unchanged, in the same order");
  assert.deepEqual(after.slice(before.length), ["web_fetch", "mcp_tracker_action_11"], "loaded tools come after, in load order");
  assert.equal(tools.list().at(before.length - 1), search, "tool_search's bytes do not change when a tool is loaded");
  assert.deepEqual(loads, [["web_fetch", "mcp_tracker_action_11"]]);
  assert.deepEqual(tools.load(["web_fetch"]), [], "loading twice changes nothing");

  assert.deepEqual(tools.findDeferred({ query: "skill" }).map((tool) => tool.name)[0], "skill_manage");
  const child = tools.narrow(() => true);
  const childNames = child.list().map((tool) => tool.name);
  assert.ok(childNames.includes("skill_manage") && childNames.includes("mcp_tracker_action_11") && !childNames.includes("tool_search"), "a subagent gets its tools as listed");
});

test("nothing to defer: no tool_search, everything sent as before", () => {
  const tools = new SessionTools(builtinToolRegistry());
  tools.configure({ enabled: [], disabled: ["web", "vision", "skill_manage"], eager_budget_tokens: 500 });
  const names = tools.list().map((tool) => tool.name);
  assert.ok(!names.includes("tool_search"), names.join(", "));
  const search = tools.get("tool_search")!;
  assert.equal(tools.allows(search), false, "tool_search cannot be called when there is nothing to load");
});
