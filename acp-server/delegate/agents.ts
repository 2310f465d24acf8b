// The external ACP agents delegate_task may start: built-in defaults for Claude Code, Gemini CLI
// and Codex, merged with delegation.acp_agents from config.yaml. The model names an agent; the
// command line always comes from here. An agent is offered once its command is installed.
import type { AcpAgentConfig } from "../config/schema";
import { findExecutable } from "../util/find-executable";

/** The in-process subagent's name (reserved: a config entry cannot take it). */
export const HERMES_AGENT = "hermes";

// Child agents start from the same allowlisted environment as commands (security/child-env.ts);
// each built-in one also gets the variables it authenticates with, by name, and nothing else
// of Hermes' credentials. A config entry lists its own in `env_passthrough`.
const CLAUDE_ENV = [
  "ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BASE_URL", "ANTHROPIC_MODEL", "CLAUDE_CODE_OAUTH_TOKEN", "CLAUDE_CONFIG_DIR",
  "CLAUDE_CODE_USE_BEDROCK", "CLAUDE_CODE_USE_VERTEX", "ANTHROPIC_VERTEX_PROJECT_ID", "CLOUD_ML_REGION",
  "AWS_PROFILE", "AWS_REGION", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "GOOGLE_APPLICATION_CREDENTIALS",
];
const GEMINI_ENV = ["GEMINI_API_KEY", "GOOGLE_API_KEY", "GOOGLE_APPLICATION_CREDENTIALS", "GOOGLE_CLOUD_PROJECT", "GOOGLE_CLOUD_LOCATION", "GOOGLE_GENAI_USE_VERTEXAI"];
const CODEX_ENV = ["OPENAI_API_KEY", "CODEX_API_KEY", "OPENAI_BASE_URL", "CODEX_HOME"];

/** Built-in entries; a config entry of the same name replaces one (`enabled: false` hides it). */
export const DEFAULT_ACP_AGENTS: Record<string, AcpAgentConfig> = {
  // @zed-industries/claude-agent-acp (Node 20) and @agentclientprotocol/claude-agent-acp (Node 22+) install this bin.
  claude: { command: "claude-agent-acp", args: [], env: {}, env_passthrough: CLAUDE_ENV, enabled: true },
  gemini: { command: "gemini", args: ["--acp"], env: {}, env_passthrough: GEMINI_ENV, enabled: true },
  codex: { command: "codex-acp", args: [], env: {}, env_passthrough: CODEX_ENV, enabled: true },
};

export interface AgentEntry {
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  /** Names of Hermes' environment the agent receives (its credentials), on top of the allowlist. */
  envPassthrough: string[];
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
    entries.push({ name, command: entry.command, args: entry.args, env: entry.env, envPassthrough: entry.env_passthrough, resolved: findCommand(entry.command, env, cwd), configured: fromConfig });
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
