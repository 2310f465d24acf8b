// The MCP servers an ACP client names in session/new, load, resume and fork, in Hermes's terms
// (stdio has no `type`; env and headers are name/value lists). runtime/session-mcp.ts does the rest.
import type * as acp from "@agentclientprotocol/sdk/unstable";
import { clientServerSpec, type McpServerSpec } from "../mcp/server-spec";

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
