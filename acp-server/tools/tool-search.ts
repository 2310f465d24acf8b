// tool_search: loads deferred tools (tools/tool-deferral.ts) for the rest of the session. Its
// description ends with the list of what can be loaded (built with the session's tools, stable
// while they are); the answer gives each loaded tool's description and parameters, so the model
// can call it in its very next step, and from then on the tool is sent with every call.
import * as z from "zod";
import type { ToolContext } from "./context";
import { defineTool, ToolError } from "./registry";

const schema = z.object({
  names: z.array(z.string().min(1)).max(30).optional().describe("Tools to load, by exact name."),
  query: z.string().min(1).max(200).optional().describe("Words to find tools by (in their names and descriptions); the best few are loaded."),
});

export const TOOL_SEARCH_BASE_DESCRIPTION =
  "Load tools that are not sent with every request until needed; once loaded they stay for the session. Load by exact name (several at once) or find by words.";

export const toolSearchTool = defineTool({
  name: "tool_search",
  toolset: "tool_search",
  kind: "search",
  readOnly: true,
  description: TOOL_SEARCH_BASE_DESCRIPTION,
  schema,
  title: (args) => `Load tools: ${args.names?.join(", ") ?? args.query ?? ""}`,
  handler: async (args, ctx: ToolContext) => {
    const catalog = ctx.toolCatalog;
    if (!catalog) throw new ToolError("No tools can be loaded here.");
    if (!args.names?.length && !args.query) throw new ToolError("Give `names` (exact tool names from this tool's description) or `query`.");
    const unknown = catalog.unknown(args.names ?? []);
    const loaded = catalog.load({ ...(args.names ? { names: args.names } : {}), ...(args.query ? { query: args.query } : {}) });
    if (loaded.length === 0) throw new ToolError(`No deferred tool matches${unknown.length ? `: no tool is named ${unknown.join(", ")}` : ` "${args.query}"`}. The names are listed in this tool's description.`);
    return {
      output: { loaded, ...(unknown.length ? { unknown } : {}), note: "Loaded for the rest of this session: call them as any tool." },
      content: [{ type: "text", text: `Loaded ${loaded.map((tool) => tool.name).join(", ")}` }],
    };
  },
});
