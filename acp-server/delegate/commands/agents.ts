// /agents: the agents delegate_task can hand tasks to, and which are installed.
import { defineCommand } from "../../runtime/slash-command";
import { agentCatalog, describeAgents } from "../agents";

export const agentsCommand = defineCommand({
  name: "agents",
  description: "Agents delegate_task can hand tasks to, and which are installed",
  run: ({ runtime, output }) => output.say(describeAgents(agentCatalog(runtime.loaded.config.delegation.acp_agents))),
});
