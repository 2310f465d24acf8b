// The MCP side of an ACP session: the servers the client passed (ACP's shapes) merged with
// config.yaml's, the session's bridge started within the connect budget, and MCP prompts as
// slash commands. The bridge itself (acp-server/mcp/) knows nothing about ACP.
import type * as acp from "@agentclientprotocol/sdk/unstable";
import type { AgentRuntime } from "./agent-runtime";
import type { McpBridge } from "../mcp/bridge";
import { clientServerSpec, configServerSpecs, mergeServerSpecs, type McpServerSpec } from "../mcp/server-spec";
import { argumentHint, mcpPromptCommandName } from "../mcp/prompt-command";
import type { Logger } from "../util/log";

/** The client's servers in Hermes' terms (stdio has no `type`; env and headers are name/value lists). */
export function clientMcpSpecs(servers: acp.McpServer[]): McpServerSpec[] {
  const pairs = (list: { name: string; value: string }[] | undefined) => Object.fromEntries((list ?? []).map((pair) => [pair.name, pair.value]));
  return servers.map((server) => {
    if ("type" in server && (server.type === "http" || server.type === "sse")) {
      return clientServerSpec(server.name, { kind: server.type, url: server.url, headers: pairs(server.headers) });
    }
    const stdio = server as acp.McpServerStdio;
    return clientServerSpec(stdio.name, { kind: "stdio", command: stdio.command, args: stdio.args ?? [], env: pairs(stdio.env) });
  });
}

/** Every server of a session: the client's first (they win a name clash), then config.yaml's. Throws invalid params on duplicates. */
export function sessionMcpSpecs(runtime: AgentRuntime, servers: acp.McpServer[], log: Logger): McpServerSpec[] {
  const { loaded } = runtime;
  const configured = configServerSpecs(loaded.config.mcp_servers, loaded.env, loaded.configPath);
  // A duplicate name throws DuplicateMcpServerError: invalid params for the client to fix.
  return mergeServerSpecs(clientMcpSpecs(servers), configured, (name) =>
    log.info(`MCP server "${name}" is both in the request and in config.yaml; using the client's`, { server: name }),
  );
}

/**
 * Starts the session's servers in parallel and waits for them at most `mcp.connect_wait`
 * seconds; slower ones keep connecting and their tools appear when ready. No servers, no
 * bridge (and the MCP SDK is never loaded).
 */
export async function openMcpBridge(runtime: AgentRuntime, specs: McpServerSpec[], cwd: string, log: Logger): Promise<McpBridge | undefined> {
  if (specs.length === 0) return undefined;
  const { McpBridge } = await import("../mcp/bridge");
  const bridge = new McpBridge(specs, cwd, log);
  await bridge.settle(runtime.loaded.config.mcp.connect_wait * 1000);
  return bridge;
}

/** `/mcp:<server>:<prompt>` for every prompt of the session's ready servers. */
export function mcpPromptCommands(bridge: McpBridge | undefined): acp.AvailableCommand[] {
  return (bridge?.prompts() ?? []).map(({ server, prompt }) => {
    const hint = argumentHint(prompt);
    return {
      name: mcpPromptCommandName(server, prompt.name),
      description: prompt.description?.trim() || `MCP prompt ${prompt.name} from ${server}`,
      ...(hint ? { input: { hint } } : {}),
    };
  });
}
