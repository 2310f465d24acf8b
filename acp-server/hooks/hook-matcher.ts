// Whether a hook group's matcher selects a tool call. A matcher is Claude Code's: empty or `*`
// for every tool, a name, `A|B`, or a regular expression, matched against the whole name. A
// tool answers to its Hermes name, its Claude Code names (Bash for terminal, Edit|MultiEdit for
// patch, …: tools/tool-aliases.ts) and, for an MCP tool, `mcp__<server>__<tool>` as Claude Code
// spells it, so a hooks file written for Claude Code selects the same calls here.
import { claudeNamesOf } from "../tools/tool-aliases";

export interface ToolIdentity {
  name: string;
  toolset: string;
}

export function toolNamesFor(tool: ToolIdentity): string[] {
  const names = [tool.name, ...claudeNamesOf(tool.name)];
  if (tool.toolset.startsWith("mcp-")) {
    const server = tool.toolset.slice("mcp-".length);
    const prefix = `mcp_${server}_`;
    if (tool.name.startsWith(prefix)) names.push(`mcp__${server}__${tool.name.slice(prefix.length)}`);
  }
  return names;
}

/** Whether `matcher` selects any of `names` (empty or `*`: everything). */
export function matcherSelects(matcher: string, names: readonly string[]): boolean {
  const pattern = matcher.trim();
  if (pattern === "" || pattern === "*") return true;
  let regex: RegExp | undefined;
  try {
    regex = new RegExp(`^(?:${pattern})$`);
  } catch {
    // expected: a matcher that is not a valid regex is compared as a plain name
  }
  return names.some((name) => (regex ? regex.test(name) : name === pattern));
}
