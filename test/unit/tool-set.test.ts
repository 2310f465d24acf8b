import assert from "node:assert/strict";
import { test } from "node:test";
import { z } from "zod";
import { builtinToolRegistry } from "../../acp-server/tools/all-tools";
import { defineTool, type ToolDefinition } from "../../acp-server/tools/registry";
import { SessionTools, ToolRegistry, type SessionToolSource } from "../../acp-server/tools/tool-set";

function tool(name: string, toolset = "test", isAvailable?: () => true | string): ToolDefinition {
  return defineTool({
    name,
    toolset,
    description: name,
    schema: z.object({}),
    kind: "other",
    readOnly: true,
    title: () => name,
    handler: async () => ({ output: name }),
    ...(isAvailable ? { isAvailable } : {}),
  });
}

const names = (tools: ToolDefinition[]) => tools.map((t) => t.name);

test("a registry holds exactly the tools it was given, in name order; a name given twice is refused", () => {
  const registry = new ToolRegistry([tool("b"), tool("a"), tool("c")]);
  assert.deepEqual(names(registry.list()), ["a", "b", "c"]);
  assert.equal(registry.get("b")?.name, "b");
  assert.equal(registry.get("zzz"), undefined);
  assert.throws(() => new ToolRegistry([tool("a"), tool("a")]), /Tool a is defined twice/);
  // Two registries share nothing: building one registers nowhere else.
  assert.deepEqual(names(new ToolRegistry([]).list()), []);
});

test("availability is asked on every listing", () => {
  let available: true | string = "no ripgrep";
  const registry = new ToolRegistry([tool("a"), tool("search", "test", () => available)]);
  assert.deepEqual(names(registry.list()), ["a"]);
  available = true;
  assert.deepEqual(names(registry.list()), ["a", "search"]);
});

test("the built-in list builds a fresh registry of the agent's tools", () => {
  const first = builtinToolRegistry();
  assert.notEqual(first, builtinToolRegistry());
  for (const name of ["read_file", "write_file", "patch", "search_files", "terminal", "process", "todo", "memory", "delegate_task", "skill_manage"]) {
    assert.ok(first.get(name), `${name} is built in`);
  }
});

test("a pending registry refuses to be read until it has its tools, and takes them once; sessions made before see them", () => {
  const registry = ToolRegistry.pending();
  const session = new SessionTools(registry);
  assert.throws(() => registry.list(), /not loaded yet/);
  assert.throws(() => registry.get("a"), /not loaded yet/);
  assert.throws(() => session.list(), /not loaded yet/);
  registry.provide([tool("b"), tool("a")]);
  assert.deepEqual(registry.list().map((t) => t.name), ["a", "b"]);
  assert.deepEqual(session.list().map((t) => t.name), ["a", "b"]);
  assert.throws(() => registry.provide([tool("c")]), /already has its tools/);
});

test("a session's tools: the registry's, then its MCP tools; a subagent narrows them and sees servers that connect later", () => {
  const session = new SessionTools(new ToolRegistry([tool("read", "file"), tool("write", "file"), tool("run", "terminal")]));
  assert.deepEqual(names(session.list()), ["read", "run", "write"]);

  const child = session.narrow((t) => t.toolset === "file" || t.name.startsWith("mcp_"));
  const grandchild = child.narrow((t) => t.name !== "write");
  let mcp: ToolDefinition[] = [];
  const source: SessionToolSource = { list: () => mcp };
  session.setExtra(source);
  mcp = [tool("mcp_fs_list", "mcp")];
  assert.deepEqual(names(session.list()), ["read", "run", "write", "mcp_fs_list"], "own tools come after the registry's");
  assert.deepEqual(names(child.list()), ["read", "write", "mcp_fs_list"]);
  assert.deepEqual(names(grandchild.list()), ["read", "mcp_fs_list"], "a narrowed set keeps its parent's restriction");

  // get() finds a tool the session may not call (the runner names it as unavailable); allows() says no.
  const run = grandchild.get("run")!;
  assert.equal(run.name, "run");
  assert.equal(grandchild.allows(run), false);
  assert.equal(grandchild.allows(grandchild.get("mcp_fs_list")!), true);
  // builtin(): what the frozen system prompt names (no MCP tools: servers come and go).
  assert.deepEqual(names(child.builtin()), ["read", "write"]);

  session.setExtra(undefined);
  assert.deepEqual(names(child.list()), ["read", "write"], "a closed bridge takes its tools away from children too");
});
