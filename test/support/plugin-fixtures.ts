// The plugin fixture (test/fixtures/plugins/code-review-kit) copied where a test can change it,
// with a node_modules link so its MCP server finds the MCP SDK wherever the plugin is installed.
import { cpSync, symlinkSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./acp-harness";
import { makeTempDirSync } from "./temp-dirs";

export const PLUGIN_FIXTURE = path.join(ROOT, "test/fixtures/plugins/code-review-kit");
/** A plugin with JavaScript tools (Hermes's own extension point); it needs no dependencies. */
export const PLUGIN_JS_TOOLS = path.join(ROOT, "test/fixtures/plugins/js-tools-kit");

/** A fresh copy of the fixture plugin (folder name `code-review-kit`); returns its path. */
export function copyPluginFixture(): string {
  const copy = path.join(makeTempDirSync("hermes-plugin-src-"), "code-review-kit");
  cpSync(PLUGIN_FIXTURE, copy, { recursive: true });
  symlinkSync(path.join(ROOT, "node_modules"), path.join(copy, "node_modules"));
  return copy;
}
