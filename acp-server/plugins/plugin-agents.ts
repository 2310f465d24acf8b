// A plugin's `agents/*.md` as agents delegate_task can run: in Claude Code's format, frontmatter
// `name`, `description`, `tools` (Claude's tool names, comma-separated or a list) and `model`,
// and the body is the agent's own instructions. Hermes runs one as an in-process subagent whose
// system prompt starts with those instructions and whose tools are the toolsets those names
// map to (never more than the parent has). `model` is read and shown; the subagent uses the
// session's model.
import { readMarkdownFile } from "./markdown-file";
import type { PluginContents } from "./plugin-manifest";

export interface PluginAgent {
  /** The name delegate_task's `agent` takes: the frontmatter's name, else the file's. */
  name: string;
  plugin: string;
  description: string;
  instructions: string;
  /** Hermes toolsets for the listed tools; undefined: the subagent's default set. */
  toolsets?: string[];
  model?: string;
  file: string;
}

/** Claude Code's tool names → the Hermes toolset holding the equivalent tool. */
const TOOLSET_OF: Record<string, string> = {
  bash: "terminal",
  bashoutput: "terminal",
  killshell: "terminal",
  read: "file",
  write: "file",
  edit: "file",
  multiedit: "file",
  glob: "file",
  grep: "file",
  ls: "file",
  notebookedit: "file",
  webfetch: "web",
  websearch: "web",
  todowrite: "planning",
  task: "delegation",
};

export function pluginAgents(plugins: readonly PluginContents[]): PluginAgent[] {
  const agents: PluginAgent[] = [];
  for (const plugin of plugins) {
    for (const file of plugin.agents) {
      const agent = readAgent(file.file, file.name, plugin.name);
      if (!agent) continue;
      // A name another plugin's agent already has becomes `<plugin>:<name>`, as commands and
      // skills do: installing a second plugin never silently hides one of its agents.
      if (taken(agents, agent.name)) agent.name = `${plugin.name}:${agent.name}`;
      if (!taken(agents, agent.name)) agents.push(agent);
    }
  }
  return agents;
}

const taken = (agents: readonly PluginAgent[], name: string): boolean => agents.some((other) => other.name === name);

function readAgent(file: string, fallbackName: string, plugin: string): PluginAgent | undefined {
  // A file removed since the plugin was read is not offered.
  const read = readMarkdownFile(file);
  if (!read) return undefined;
  const { data } = read;
  const body = read.body.trim();
  const name = typeof data.name === "string" && /^[a-z0-9][\w-]*$/i.test(data.name) ? data.name : fallbackName.replace(/:/g, "-");
  const toolsets = toolsetsOf(data.tools);
  return {
    name,
    plugin,
    description: typeof data.description === "string" ? data.description.trim() : "",
    instructions: body,
    ...(toolsets ? { toolsets } : {}),
    ...(typeof data.model === "string" && data.model !== "inherit" ? { model: data.model } : {}),
    file,
  };
}

/** The toolsets of `tools` (a string "Read, Grep" or a list); undefined when absent or naming nothing known. */
function toolsetsOf(tools: unknown): string[] | undefined {
  const names = typeof tools === "string" ? tools.split(",") : Array.isArray(tools) ? tools.map(String) : [];
  const toolsets = new Set<string>();
  for (const name of names) {
    const key = name.trim().toLowerCase();
    const toolset = TOOLSET_OF[key] ?? (key.startsWith("mcp__") ? "mcp" : undefined);
    if (toolset) toolsets.add(toolset);
  }
  return toolsets.size > 0 ? [...toolsets].sort() : undefined;
}
