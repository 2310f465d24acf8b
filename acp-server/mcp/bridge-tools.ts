// An MCP server's tool as a Hermes tool: `mcp_<server>_<tool>` in the toolset `mcp-<server>`,
// with the server's own JSON schema. Arguments go to the server as they are (it validates);
// tools listed in `require_confirmation` ask the user first.
import * as z from "zod";
import { stringsOf } from "../security/outbound-secrets";
import { guardOutbound } from "../tools/outbound-guard";
import { ToolError, type ToolDefinition } from "../tools/registry";
import type { McpConnection, McpToolInfo } from "./connection";
import { toolResultFromMcp } from "./results";
import { mcpToolset } from "./tool-names";

const ArgumentsSchema = z.record(z.string(), z.unknown());

export function mcpToolDefinition(connection: McpConnection, tool: McpToolInfo, name: string): ToolDefinition<typeof ArgumentsSchema> {
  const server = connection.name;
  const confirm = connection.spec.requireConfirmation.includes(tool.name);
  const label = tool.title ?? tool.annotations?.title ?? tool.name;
  return {
    name,
    toolset: mcpToolset(server),
    description: `${tool.description?.trim() || label} (MCP server "${server}", tool "${tool.name}")`,
    schema: ArgumentsSchema,
    inputJsonSchema: modelSchema(tool.inputSchema),
    kind: tool.annotations?.readOnlyHint ? "read" : "other",
    readOnly: tool.annotations?.readOnlyHint === true && !confirm,
    title: () => `${server}: ${label}`,
    handler: async (args, ctx) => {
      // Every call goes through the policy: plan mode refuses tools not marked read-only, and
      // `require_confirmation` ones ask (an "allow for this session" covers this tool only).
      const allowed = await ctx.requestPermission({
        action: "other",
        title: `Run ${label} (MCP server ${server})`,
        content: [{ type: "text", text: JSON.stringify(args, null, 2) }],
        mcp: { server, tool: tool.name, readOnly: tool.annotations?.readOnlyHint === true, confirm },
      });
      if (!allowed) throw new ToolError(`The user did not allow running ${tool.name} on the MCP server "${server}".`);
      // The arguments leave for the server's process (and wherever it sends them): a known secret
      // in any spelling is asked about, in every mode.
      await guardOutbound(ctx, { tool: `${tool.name} (MCP)`, destination: `the MCP server "${server}"`, texts: stringsOf(args) });
      return toolResultFromMcp(await connection.callTool(tool.name, args, ctx.signal, ctx.elicitation));
    },
  };
}

/** The server's input schema as providers accept it: an object schema, without `$schema`. */
export function modelSchema(schema: Record<string, unknown> | undefined): Record<string, unknown> {
  const { $schema: _dropped, ...rest } = schema ?? {};
  return { ...rest, type: "object", properties: (rest.properties as Record<string, unknown> | undefined) ?? {} };
}
