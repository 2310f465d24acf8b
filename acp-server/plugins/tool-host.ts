// The process a plugin's own JavaScript tools run in: `node plugin-tool-host.mjs <module>`. It
// imports the plugin's ES module and serves its tools as an MCP server over stdio (the MCP SDK's
// server), so they reach sessions through the same MCP bridge, permission flow and journal as
// any MCP tool, and a plugin that throws, hangs or exits takes down this process, never Hermes.
//
// The module exports `tools` (or a default export with `tools`): a list of
//   { name, description?, inputSchema? (a JSON schema for the arguments), handler(args) }
// where handler returns (or resolves to) a string, an object with MCP `content`, or any JSON value.
import { pathToFileURL } from "node:url";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod";

const ToolSchema = z.object({
  name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "letters, digits, _ and - only (at most 64)"),
  description: z.string().default(""),
  inputSchema: z.record(z.string(), z.unknown()).default({ type: "object", properties: {} }),
  handler: z.custom<(args: Record<string, unknown>) => unknown>((value) => typeof value === "function", "must be a function"),
});

async function main(): Promise<void> {
  const modulePath = process.argv[2];
  if (!modulePath) throw new Error("usage: plugin-tool-host <module>");
  const loaded = (await import(pathToFileURL(modulePath).href)) as { tools?: unknown; default?: { tools?: unknown } };
  const listed = z.array(ToolSchema).safeParse(loaded.tools ?? loaded.default?.tools);
  if (!listed.success) {
    const issue = listed.error.issues[0];
    throw new Error(`${modulePath}: \`tools\` ${issue ? `${issue.path.join(".")}: ${issue.message}` : "is not a list of tools"}`);
  }
  const tools = new Map(listed.data.map((tool) => [tool.name, tool]));
  const server = new Server({ name: "plugin-tools", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [...tools.values()].map((tool) => ({ name: tool.name, description: tool.description, inputSchema: { type: "object" as const, ...tool.inputSchema } })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const tool = tools.get(request.params.name);
    if (!tool) return { isError: true, content: [{ type: "text", text: `no tool named ${request.params.name}` }] };
    try {
      return asResult(await tool.handler(request.params.arguments ?? {}));
    } catch (error) {
      return { isError: true, content: [{ type: "text", text: error instanceof Error ? error.message : String(error) }] };
    }
  });
  await server.connect(new StdioServerTransport());
}

function asResult(value: unknown): CallToolResult {
  if (typeof value === "string") return { content: [{ type: "text", text: value }] };
  if (value && typeof value === "object" && Array.isArray((value as { content?: unknown }).content)) return value as CallToolResult;
  return { content: [{ type: "text", text: JSON.stringify(value ?? null) }] };
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
