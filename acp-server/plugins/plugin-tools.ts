// Hermes's own extension point: a plugin may bring tools written in JavaScript
// (`"hermes": {"tools": "./tools.mjs"}` in plugin.json). They never run in the agent's process:
// each plugin's module is served by its own tool-host process (tool-host.ts) as an MCP server,
// and this is that server's entry in config.yaml's `mcp_servers` shape.
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { PluginContents } from "./plugin-manifest";

/** The MCP server entry serving `plugin`'s JavaScript tools, or undefined when it has none. */
export function pluginToolServer(plugin: PluginContents): { name: string; entry: Record<string, unknown> } | undefined {
  if (!plugin.toolsModule) return undefined;
  return { name: `${plugin.name}-tools`, entry: { command: process.execPath, args: [...toolHostArgs(), plugin.toolsModule], cwd: plugin.root } };
}

/**
 * How to start the host: in the build, `chunks/plugin-tool-host.mjs` beside this code's chunk;
 * from the sources (tests, a development checkout), tool-host.ts through tsx.
 */
function toolHostArgs(): string[] {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith(".ts")) return ["--import", import.meta.resolve("tsx"), path.join(path.dirname(here), "tool-host.ts")];
  return [path.join(path.dirname(here), "plugin-tool-host.mjs")];
}
