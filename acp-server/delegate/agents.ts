// The external ACP agents delegate_task may start: built-in defaults for Claude Code, Gemini CLI
// and Codex, merged with delegation.acp_agents from config.yaml. The model names an agent; the
// command line always comes from here. An agent is offered once its command is installed.
import type { AcpAgentConfig } from "../config/schema";
import { findExecutable } from "../util/find-executable";

/** The in-process subagent's name (reserved: a config entry cannot take it). */
export const HERMES_AGENT = "hermes";

/** Built-in entries; a config entry of the same name replaces one (`enabled: false` hides it). */
export const DEFAULT_ACP_AGENTS: Record<string, AcpAgentConfig> = {
  // @zed-industries/claude-agent-acp (Node 20) and @agentclientprotocol/claude-agent-acp (Node 22+) install this bin.
  claude: { command: "claude-agent-acp", args: [], env: {}, enabled: true },
  gemini: { command: "gemini", args: ["--acp"], env: {}, enabled: true },
  codex: { command: "codex-acp", args: [], env: {}, enabled: true },
};

export interface AgentEntry {
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  /** Where the command was found (absolute), or undefined when it is not installed. */
  resolved?: string;
  /** From config.yaml (else a built-in default). */
  configured: boolean;
}

/** Every enabled external agent, installed or not, by name. */
export function agentCatalog(configured: Record<string, AcpAgentConfig>, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): AgentEntry[] {
  const merged = new Map<string, { entry: AcpAgentConfig; configured: boolean }>();
  for (const [name, entry] of Object.entries(DEFAULT_ACP_AGENTS)) merged.set(name, { entry, configured: false });
  for (const [name, entry] of Object.entries(configured)) if (name !== HERMES_AGENT) merged.set(name, { entry, configured: true });
  const entries: AgentEntry[] = [];
  for (const [name, { entry, configured: fromConfig }] of merged) {
    if (!entry.enabled) continue;
    entries.push({ name, command: entry.command, args: entry.args, env: entry.env, resolved: findCommand(entry.command, env, cwd), configured: fromConfig });
  }
  return entries.sort((a, b) => a.name.localeCompare(b.name));
}

/** The absolute path of an executable: as given when it has a slash, else the first on PATH. */
export function findCommand(command: string, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string | undefined {
  return findExecutable(command, { searchPath: env.PATH ?? "", cwd });
}

/** What /agents shows. */
export function describeAgents(entries: AgentEntry[]): string {
  const lines = [`- \`${HERMES_AGENT}\`: subagents in this process (always available)`];
  for (const entry of entries) {
    const commandLine = [entry.command, ...entry.args].join(" ");
    const where = entry.resolved ? `found at \`${entry.resolved}\`` : "not found (install it, or set its command in delegation.acp_agents)";
    lines.push(`- \`${entry.name}\`: \`${commandLine}\`, ${where}${entry.configured ? "" : " (built-in default)"}`);
  }
  return `**Agents delegate_task can use**\n${lines.join("\n")}`;
}
