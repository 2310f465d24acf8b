// /reload-mcp: config.yaml's mcp_servers read again, merged with the editor's, and a new bridge
// in place of the session's (the old servers stop once it is in). The session and its frozen
// prompt stay: MCP tools are listed per request, never in the prompt.
import { defineCommand } from "../../runtime/slash-command";
import { reloadMcp } from "../../runtime/session-mcp";

export const reloadMcpCommand = defineCommand({
  name: "reload-mcp",
  description: "Reconnect the MCP servers (config.yaml read again) and refresh their tools, in this session",
  run: async ({ runtime, session, output, log }) => output.say(await reloadMcp(runtime, session, log)),
});
