// A session's MCP servers: the client's (already in Hermes's terms) merged with config.yaml's,
// the bridge started within the connect budget, /reload-mcp, and MCP prompts as commands. The
// bridge itself (acp-server/mcp/) knows nothing about sessions.
import type { LoadedConfig } from "../config/load";
import type { McpBridge } from "../mcp/bridge";
import { activePlugins } from "../plugins/plugin-store";
import { pluginToolServer } from "../plugins/plugin-tools";
import { configServerSpecs, mergeServerSpecs, type McpServerSpec } from "../mcp/server-spec";
import { argumentHint, mcpPromptCommandName } from "../mcp/prompt-command";
import type { ElicitationModes } from "../tools/elicitation";
import type { Logger } from "../util/log";
import type { LiveSession } from "./live-session";
import type { AgentRuntime } from "./runtime";
import type { CommandInfo } from "./slash-command";

/**
 * config.yaml's servers, then the enabled plugins' (`${CLAUDE_PLUGIN_ROOT}` set to the plugin's
 * folder; a name config.yaml already uses becomes `<plugin>-<name>`).
 */
export function configuredSpecs(loaded: Pick<LoadedConfig, "config" | "env" | "configPath" | "home">): McpServerSpec[] {
  const specs = configServerSpecs(loaded.config.mcp_servers, loaded.env, loaded.configPath);
  for (const plugin of activePlugins(loaded.home).plugins) {
    const taken = new Set(specs.map((spec) => spec.name));
    const entries = Object.entries(plugin.mcpServers).map(([name, entry]) => [taken.has(name) ? `${plugin.name}-${name}` : name, entry] as const);
    const env = { ...loaded.env, CLAUDE_PLUGIN_ROOT: plugin.root, HERMES_PLUGIN_ROOT: plugin.root };
    const tools = pluginToolServer(plugin);
    if (tools) entries.push([taken.has(tools.name) ? `${plugin.name}-${tools.name}` : tools.name, tools.entry]);
    specs.push(...configServerSpecs(Object.fromEntries(entries), env, plugin.manifestPath));
  }
  return specs;
}

/** Every server of a session: the client's first (they win a name clash), then config.yaml's and the plugins'. Throws invalid params on duplicates. */
export function sessionMcpSpecs(runtime: AgentRuntime, clientServers: McpServerSpec[], log: Logger): McpServerSpec[] {
  const { loaded } = runtime;
  const configured = configuredSpecs(loaded);
  // A duplicate name throws DuplicateMcpServerError: invalid params for the client to fix.
  return mergeServerSpecs(clientServers, configured, (name) =>
    log.info(`MCP server "${name}" is both in the request and in config.yaml; using the client's`, { server: name }),
  );
}

/**
 * Starts the session's servers in parallel and waits for them at most `mcp.connect_wait`
 * seconds; slower ones keep connecting and their tools appear when ready. No servers, no
 * bridge (and the MCP SDK is never loaded).
 */
export async function openMcpBridge(
  runtime: AgentRuntime,
  specs: McpServerSpec[],
  cwd: string,
  log: Logger,
  elicitation?: ElicitationModes,
): Promise<McpBridge | undefined> {
  if (specs.length === 0) return undefined;
  const { McpBridge } = await import("../mcp/bridge");
  const bridge = new McpBridge(specs, cwd, log, elicitation);
  await bridge.settle(runtime.loaded.config.mcp.connect_wait * 1000);
  return bridge;
}

/**
 * /reload-mcp: config.yaml's mcp_servers read again, merged with the editor's, and a new bridge
 * in place of the session's (the old servers are stopped once it is in). The session and its
 * frozen prompt stay: MCP tools are listed per request, never in the prompt. Returns the /mcp text.
 */
export async function reloadMcp(runtime: AgentRuntime, session: LiveSession, log: Logger): Promise<string> {
  const [{ loadConfig }, { describeServers }] = await Promise.all([import("../config/load"), import("../mcp/bridge")]);
  const fresh = loadConfig({ home: runtime.loaded.home });
  if (fresh.error) return `config.yaml could not be read, so the MCP servers were left as they are: ${fresh.error}`;
  let specs: McpServerSpec[];
  try {
    specs = mergeServerSpecs(session.mcpServers, configuredSpecs(fresh), () => {});
  } catch (error) {
    return `The MCP servers were left as they are: ${(error as Error).message}`;
  }
  const bridge = await openMcpBridge(runtime, specs, session.agent.cwd, log, session.mcp?.elicitation);
  await session.setMcp(bridge);
  return `Reconnected the MCP servers.\n${describeServers(bridge?.states() ?? [])}`;
}

/** `/mcp:<server>:<prompt>` for every prompt of the session's ready servers. */
export function mcpPromptCommands(bridge: McpBridge | undefined): CommandInfo[] {
  return (bridge?.prompts() ?? []).map(({ server, prompt }) => {
    const hint = argumentHint(prompt);
    return {
      name: mcpPromptCommandName(server, prompt.name),
      description: prompt.description?.trim() || `MCP prompt ${prompt.name} from ${server}`,
      ...(hint ? { hint } : {}),
    };
  });
}
