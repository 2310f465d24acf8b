// Which tools are on: config.yaml's `tools.enabled` / `tools.disabled` (tool or toolset names;
// a name that is both, like `terminal`, covers the toolset) and a session's own toggles (/tools). A tool's name is more specific than its toolset, and the
// session's choice beats the config's, so "/tools disable file" then "/tools enable read_file"
// leaves read_file as the one file tool on. MCP tools are in the toolset `mcp-<server>`, and all
// of them also answer to `mcp`. Pure: no zod, no I/O.
import type { ToolDefinition } from "./registry";

export interface ToolSelection {
  /** When non-empty, only these tools / toolsets are on (before `disabled`). */
  enabled?: readonly string[];
  disabled?: readonly string[];
  /** Tokens of MCP tool schemas sent with every call; the rest wait for tool_search (tools.eager_budget_tokens). */
  eager_budget_tokens?: number;
}

/** The names a tool answers to in a selection: its own, its toolset, and `mcp` for an MCP tool. */
export function selectorsOf(tool: Pick<ToolDefinition, "name" | "toolset">): { name: string; sets: string[] } {
  const sets = [tool.toolset];
  if (tool.toolset.startsWith("mcp-") || tool.toolset === "mcp") sets.push("mcp");
  return { name: tool.name, sets: [...new Set(sets)] };
}

/** Whether `tool` is on under the config's selection and the session's toggles (name or toolset → on/off). */
export function toolIsOn(tool: Pick<ToolDefinition, "name" | "toolset">, config: ToolSelection, toggles: ReadonlyMap<string, boolean> = new Map()): boolean {
  const { name, sets } = selectorsOf(tool);
  const byName = toggles.get(name);
  if (byName !== undefined) return byName;
  for (const set of sets) {
    const bySet = toggles.get(set);
    if (bySet !== undefined) return bySet;
  }
  const disabled = config.disabled ?? [];
  const enabled = config.enabled ?? [];
  if (disabled.includes(name)) return false;
  if (enabled.includes(name)) return true;
  if (sets.some((set) => disabled.includes(set))) return false;
  // An opt-in toolset is on only when named; naming it does not narrow the others.
  if (sets.some((set) => OPT_IN_TOOLSETS.has(set))) return sets.some((set) => enabled.includes(set));
  const narrowing = enabled.filter((selector) => !OPT_IN_TOOLSETS.has(selector));
  if (narrowing.length > 0) return sets.some((set) => narrowing.includes(set));
  return true;
}

/**
 * Toolsets that are off until config.yaml's `tools.enabled` names them (or `/tools enable`): each
 * costs every model call its schemas (the browser's 15 tools, about 2k tokens), so until tools can
 * be loaded on demand (issue 34) only those who use them pay for them.
 */
export const OPT_IN_TOOLSETS: ReadonlySet<string> = new Set(["browser"]);

/**
 * The session's toggles after turning `selector` on or off. Turning a toolset on or off drops
 * the name toggles of its tools (`tools`: every tool the session knows), so the set's state is
 * what the user just said.
 */
export function withToggle(toggles: ReadonlyMap<string, boolean>, selector: string, on: boolean, tools: readonly Pick<ToolDefinition, "name" | "toolset">[]): Map<string, boolean> {
  const next = new Map(toggles);
  // A name that is both a toolset and a tool (`terminal`) means the toolset, as in config.yaml.
  const isToolset = tools.some((tool) => selectorsOf(tool).sets.includes(selector));
  if (isToolset) for (const tool of tools) if (selectorsOf(tool).sets.includes(selector)) next.delete(tool.name);
  // `mcp` covers every server's set: their own toggles would otherwise win over it.
  if (selector === "mcp") for (const key of [...next.keys()]) if (key.startsWith("mcp-")) next.delete(key);
  next.set(selector, on);
  return next;
}
