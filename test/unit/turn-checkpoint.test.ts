// Which tool calls count as a turn's first change (and so get a checkpoint before them).
import assert from "node:assert/strict";
import { test } from "node:test";
import { mayChangeWorkspace } from "../../acp-server/agent/turn-checkpoint";
import { builtinToolRegistry } from "../../acp-server/tools/all-tools";
import type { ToolDefinition } from "../../acp-server/tools/registry";

const registry = builtinToolRegistry();
const tool = (name: string): ToolDefinition => {
  const found = registry.get(name);
  assert.ok(found, `${name} is a built-in tool`);
  return found;
};

test("edits, delegation and commands that may write are changes; reads and bookkeeping are not", () => {
  const table: [string, unknown, boolean][] = [
    ["write_file", { path: "a.txt", content: "x" }, true],
    ["patch", { path: "a.txt", old_string: "a", new_string: "b" }, true],
    ["delegate_task", { goal: "fix it" }, true],
    ["terminal", { command: "ls -la" }, false],
    ["terminal", { command: "git status && cat README.md | grep x" }, false],
    ["terminal", { command: "echo hi > out.txt" }, true],
    ["terminal", { command: "npm install" }, true],
    ["terminal", { command: "rm -rf build" }, true],
    ["terminal", { command: "cat $(make-a-file)" }, true],
    ["terminal", {}, true],
    ["read_file", { path: "a.txt" }, false],
    ["search_files", { pattern: "x" }, false],
    ["memory", { action: "add", content: "x" }, false],
    ["todo", { todos: [] }, false],
    ["process", { action: "kill", id: "proc_1" }, false],
    ["skill_manage", { action: "create", name: "x" }, false],
  ];
  for (const [name, args, expected] of table) assert.equal(mayChangeWorkspace(tool(name), args), expected, `${name} ${JSON.stringify(args)}`);
});

test("a tool it does not know (an MCP tool without a read-only hint) may change files: fail closed", () => {
  const mcp = { ...tool("write_file"), name: "mcp_fs_write", readOnly: false } as ToolDefinition;
  assert.equal(mayChangeWorkspace(mcp, {}), true);
  assert.equal(mayChangeWorkspace({ ...mcp, readOnly: true } as ToolDefinition, {}), false);
});
