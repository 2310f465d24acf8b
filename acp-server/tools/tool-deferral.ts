// Tools that cost nothing until used (issue 34): outside a core set, a tool's schema is not sent
// with every model call. The browser, web and vision toolsets and skill_manage are deferred, and MCP
// tools beyond `tools.eager_budget_tokens` of schemas (in their stable order, so the same ones
// stay eager from call to call). The model sees their names in tool_search's description and
// loads the ones it needs; a loaded tool is sent from then on, after the others, so what came
// before in the request stays byte for byte the same.
import { toolJsonSchema, type ToolDefinition } from "./registry";

/** Built-in toolsets sent only once loaded. */
export const DEFERRED_TOOLSETS: ReadonlySet<string> = new Set(["browser", "web", "vision"]);
/** Built-in tools sent only once loaded (skills management: creating a skill is rare; viewing one is not). */
export const DEFERRED_TOOLS: ReadonlySet<string> = new Set(["skill_manage"]);

/** Default schema budget (tokens, ~4 characters each) of MCP tools sent with every call. */
export const DEFAULT_EAGER_BUDGET_TOKENS = 500;

export function isDeferredBuiltin(tool: Pick<ToolDefinition, "name" | "toolset">): boolean {
  return DEFERRED_TOOLS.has(tool.name) || DEFERRED_TOOLSETS.has(tool.toolset);
}

/** What one tool's schema costs a call, as the model receives it (name, description, parameters). */
export function schemaTokens(tool: ToolDefinition): number {
  return Math.ceil(JSON.stringify({ name: tool.name, description: tool.description, parameters: toolJsonSchema(tool) }).length / 4);
}

/** The MCP (session) tools, in order, split where their schemas pass the budget: the rest are deferred. */
export function splitByBudget(tools: readonly ToolDefinition[], budgetTokens: number): { eager: ToolDefinition[]; deferred: ToolDefinition[] } {
  const eager: ToolDefinition[] = [];
  const deferred: ToolDefinition[] = [];
  let spent = 0;
  for (const tool of tools) {
    const cost = schemaTokens(tool);
    if (deferred.length === 0 && spent + cost <= budgetTokens) {
      eager.push(tool);
      spent += cost;
    } else deferred.push(tool);
  }
  return { eager, deferred };
}

/** A deferred tool as tool_search's listing names it: its name and the first sentence of its description. */
export function oneLine(tool: Pick<ToolDefinition, "name" | "description">): string {
  const first = tool.description.split(/(?<=[.!?])\s|\n/)[0]?.trim() ?? "";
  return `${tool.name}: ${first.length > 90 ? `${first.slice(0, 87)}…` : first}`;
}
