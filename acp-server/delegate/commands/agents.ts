// /agents: the agents delegate_task can hand tasks to, and which are installed.
import { pluginAgents } from "../../plugins/plugin-agents";
import { activePlugins } from "../../plugins/plugin-store";
import { defineCommand } from "../../runtime/slash-command";
import { agentCatalog, describeAgents } from "../agents";

export const agentsCommand = defineCommand({
  name: "agents",
  description: "Agents delegate_task can hand tasks to, and which are installed",
  run: ({ runtime, output }) => {
    const fromPlugins = pluginAgents(activePlugins(runtime.loaded.home).plugins);
    const pluginLines = fromPlugins.map((agent) => `- \`${agent.name}\` (plugin ${agent.plugin}, a subagent with its own instructions)${agent.description ? `: ${agent.description}` : ""}`);
    output.say([describeAgents(agentCatalog(runtime.loaded.config.delegation.acp_agents)), ...pluginLines].join("\n"));
  },
});
