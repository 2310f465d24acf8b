// /mcp: the session's MCP servers, their status and tool counts.
import { defineCommand } from "../../runtime/slash-command";
import { describeServers } from "../bridge";

export const mcpCommand = defineCommand({
  name: "mcp",
  description: "MCP servers: status and tool counts (their prompts are /mcp:<server>:<prompt>)",
  run: ({ session, output }) => output.say(describeServers(session.mcp?.states() ?? [])),
});
