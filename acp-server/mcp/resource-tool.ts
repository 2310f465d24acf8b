// read_mcp_resource: lists and reads the resources of the session's MCP servers. Offered
// only while some connected server has resources.
import * as z from "zod";
import type { DisplayContent, ImagePart } from "../tools/context";
import { ToolError, type ToolDefinition } from "../tools/registry";
import type { McpConnection } from "./connection";
import { resourceText } from "./results";

export const READ_MCP_RESOURCE = "read_mcp_resource";

const ResourceArgsSchema = z.object({
  action: z.enum(["list", "read"]).default("read").describe("list: the resources each server offers; read: one resource's contents"),
  server: z.string().optional().describe("MCP server name (needed to read when several servers have resources; filters list)"),
  uri: z.string().optional().describe("resource URI to read, as listed"),
});

export function readMcpResourceTool(servers: () => McpConnection[]): ToolDefinition<typeof ResourceArgsSchema> {
  const withResources = () => servers().filter((connection) => connection.hasResources);
  return {
    name: READ_MCP_RESOURCE,
    toolset: "mcp",
    description: "Lists the resources of the connected MCP servers (action: list) or reads one by URI (action: read, with server when several have resources).",
    schema: ResourceArgsSchema,
    kind: "read",
    readOnly: true,
    title: (args) => (args.action === "list" ? `list MCP resources${args.server ? ` of ${args.server}` : ""}` : `read ${args.uri ?? "resource"}`),
    handler: async (args, ctx) => {
      const candidates = withResources().filter((connection) => !args.server || connection.name === args.server);
      if (args.server && candidates.length === 0) throw new ToolError(`No connected MCP server named "${args.server}" has resources. Servers with resources: ${names(withResources())}.`);
      if (args.action === "list") {
        const sections: string[] = [];
        for (const connection of candidates) {
          const resources = await connection.listResources();
          const lines = resources.map((r) => `- ${r.uri}${r.name ? ` (${r.name})` : ""}${r.mimeType ? ` [${r.mimeType}]` : ""}${r.description ? `: ${r.description}` : ""}`);
          sections.push(`${connection.name}:\n${lines.join("\n") || "(no resources)"}`);
        }
        return { output: sections.join("\n\n") || "No connected MCP server has resources." };
      }
      if (!args.uri) throw new ToolError("read needs `uri` (use action: list to see them).");
      if (candidates.length > 1) throw new ToolError(`Several MCP servers have resources (${names(candidates)}); say which with \`server\`.`);
      const connection = candidates[0];
      if (!connection) throw new ToolError("No connected MCP server has resources.");
      const contents = await connection.readResource(args.uri, ctx.signal);
      const images: ImagePart[] = [];
      const content: DisplayContent[] = contents.map((item) => {
        if (typeof item.blob === "string" && item.mimeType?.startsWith("image/")) images.push({ mimeType: item.mimeType, data: item.blob });
        return { type: "resource", uri: item.uri, ...(item.mimeType ? { mimeType: item.mimeType } : {}), ...(typeof item.blob === "string" ? { blob: item.blob } : { text: item.text ?? "" }) };
      });
      return { output: contents.map(resourceText).join("\n\n") || "(empty resource)", content, ...(images.length ? { images } : {}) };
    },
  };
}

function names(connections: McpConnection[]): string {
  return connections.map((connection) => connection.name).join(", ") || "none";
}
