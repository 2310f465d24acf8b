// Opt-in toolsets (the browser's): off unless config.yaml's tools.enabled names them, and naming
// them does not narrow the other tools the way an ordinary tools.enabled list does.
import assert from "node:assert/strict";
import { test } from "node:test";
import { toolIsOn } from "../../acp-server/tools/tool-selection";

const browser = { name: "browser_navigate", toolset: "browser" };
const read = { name: "read_file", toolset: "file" };

test("the browser toolset is off by default and on when named, without turning the others off", () => {
  assert.equal(toolIsOn(browser, {}), false);
  assert.equal(toolIsOn(read, {}), true);
  assert.equal(toolIsOn(browser, { enabled: ["browser"] }), true);
  assert.equal(toolIsOn(read, { enabled: ["browser"] }), true, "naming an opt-in set does not narrow the rest");
  assert.equal(toolIsOn(browser, { enabled: ["browser_navigate"] }), true, "one browser tool by name");
  assert.equal(toolIsOn(read, { enabled: ["browser", "terminal"] }), false, "an ordinary name still narrows");
  assert.equal(toolIsOn(browser, { enabled: ["browser"], disabled: ["browser"] }), false);
  assert.equal(toolIsOn(browser, {}, new Map([["browser", true]])), true, "/tools enable browser");
});
