import assert from "node:assert/strict";
import { test } from "node:test";
import { toolIsOn, withToggle } from "../../acp-server/tools/tool-selection";

const tools = [
  { name: "read_file", toolset: "file" },
  { name: "patch", toolset: "file" },
  { name: "terminal", toolset: "terminal" },
  { name: "process", toolset: "terminal" },
  { name: "mcp_fs_read", toolset: "mcp-fs" },
  { name: "read_mcp_resource", toolset: "mcp" },
];
const on = (config: Parameters<typeof toolIsOn>[1], toggles?: Map<string, boolean>) => tools.filter((tool) => toolIsOn(tool, config, toggles)).map((tool) => tool.name);

test("config: enabled is a whitelist of tools and toolsets, disabled wins over a toolset, a tool name over its toolset", () => {
  assert.deepEqual(on({}), tools.map((tool) => tool.name));
  assert.deepEqual(on({ enabled: ["file", "terminal"] }), ["read_file", "patch", "terminal"].concat("process"));
  assert.deepEqual(on({ enabled: ["file"], disabled: ["patch"] }), ["read_file"]);
  assert.deepEqual(on({ disabled: ["file"], enabled: ["patch"] }), ["patch"], "the tool named in enabled, though its toolset is disabled");
  assert.deepEqual(on({ disabled: ["mcp"] }), ["read_file", "patch", "terminal", "process"], "mcp covers every server's set");
  assert.deepEqual(on({ enabled: ["mcp-fs"] }), ["mcp_fs_read"]);
});

test("session toggles beat the config; a toolset toggle clears its tools' own toggles", () => {
  let toggles = withToggle(new Map(), "file", false, tools);
  toggles = withToggle(toggles, "read_file", true, tools);
  assert.deepEqual(on({}, toggles), ["read_file", "terminal", "process", "mcp_fs_read", "read_mcp_resource"]);
  toggles = withToggle(toggles, "file", true, tools);
  assert.deepEqual([...toggles], [["file", true]]);
  assert.deepEqual(on({ disabled: ["patch"] }, toggles), tools.map((tool) => tool.name), "what the user just turned on in the session beats config.yaml");
});
