// /tools: the session's tools by toolset with their state, and toggles for this session
// (`/tools enable <name>`, `/tools disable <name>`, `/tools reset`). A name is a tool or a
// toolset (tools/tool-selection.ts); the change is journaled with the session.
import type { AgentSession } from "../../agent/session";
import { selectorsOf } from "../tool-selection";
import { defineCommand } from "../../runtime/slash-command";

const USAGE = "Use `/tools` to list, `/tools enable <tool or toolset>`, `/tools disable <tool or toolset>`, or `/tools reset` (back to config.yaml's tools.enabled / tools.disabled).";

/** Names that are neither a tool nor a toolset of the session. */
function unknownSelectors(agent: AgentSession, names: readonly string[]): string[] {
  const known = agent.tools.known();
  return names.filter((name) => !known.some((tool) => { const s = selectorsOf(tool); return s.name === name || s.sets.includes(name); }));
}

/** Switches tools off for the session (a script's --disallowed-tools), as `/tools disable` does; the unknown names when there are any (nothing is changed then). */
export function disableTools(agent: AgentSession, names: readonly string[]): string[] {
  const unknown = unknownSelectors(agent, names);
  if (unknown.length === 0) for (const name of names) agent.toggleTools(name, false);
  return unknown;
}

/** The answer to `/tools <argument>`, after applying any toggle it asks for. */
export function toolsAnswer(agent: AgentSession, argument: string): string {
  const [verb = "", ...rest] = argument.split(/\s+/).filter(Boolean);
  if (!verb) return toolsListing(agent);
  if (verb === "reset") {
    if (agent.tools.toggles.size === 0) return `No tool was toggled in this session.\n\n${toolsListing(agent)}`;
    agent.resetToolToggles();
    return `Tools are back to config.yaml's selection.\n\n${toolsListing(agent)}`;
  }
  if ((verb !== "enable" && verb !== "disable") || rest.length === 0) return USAGE;
  const on = verb === "enable";
  const unknown = unknownSelectors(agent, rest);
  if (unknown.length > 0) return `Unknown tool or toolset: ${unknown.map((name) => `\`${name}\``).join(", ")}. \`/tools\` lists them.`;
  let changed = false;
  for (const name of rest) changed = agent.toggleTools(name, on) || changed;
  const what = rest.map((name) => `\`${name}\``).join(", ");
  const note = changed ? `${on ? "Enabled" : "Disabled"} ${what} for this session (from the next model call).` : `${what}: no change (already ${on ? "on" : "off"}).`;
  return `${note}\n\n${toolsListing(agent)}`;
}

/** Every tool the session knows, grouped by toolset, with ✓ (on) or ✗ (off). */
export function toolsListing(agent: AgentSession): string {
  const groups = new Map<string, string[]>();
  for (const tool of agent.tools.known()) {
    const line = `${agent.tools.allows(tool) ? "✓" : "✗"} \`${tool.name}\``;
    groups.set(tool.toolset, [...(groups.get(tool.toolset) ?? []), line]);
  }
  if (groups.size === 0) return "This session has no tools.";
  const sections = [...groups].sort(([a], [b]) => a.localeCompare(b)).map(([toolset, lines]) => `**${toolset}**: ${lines.join(", ")}`);
  return `${sections.join("\n")}\n\n${USAGE}`;
}

export const toolsCommand = defineCommand({
  name: "tools",
  description: "Tools by toolset, on or off; /tools enable|disable <tool or toolset> toggles them for this session",
  hint: "enable|disable <name> (empty: list)",
  run: ({ argument, session, output }) => output.say(toolsAnswer(session.agent, argument)),
});
