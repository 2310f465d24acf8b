// A session's MCP servers: connects them all in parallel, offers their tools to the loop
// (SessionToolSource: listed per request in a stable order, never in the system prompt),
// their prompts to the slash-command layer, and closes them with the session.
import type { ElicitationModes } from "../tools/elicitation";
import type { ToolDefinition } from "../tools/registry";
import type { SessionToolSource } from "../tools/tool-set";
import type { Logger } from "../util/log";
import { mcpToolDefinition } from "./bridge-tools";
import { McpConnection, type McpPromptInfo, type McpServerStatus } from "./connection";
import { describeSignIn } from "./oauth/auth-state";
import { readMcpResourceTool } from "./resource-tool";
import type { McpServerSpec } from "./server-spec";
import { mcpToolName, uniqueName } from "./tool-names";

export interface McpServerState {
  name: string;
  source: "client" | "config";
  transport: string;
  status: McpServerStatus;
  error?: string;
  tools: number;
  prompts: number;
  pid?: number;
  /** OAuth: "signed in as …", "needs sign-in", a token past its lifetime (absent: the server did not ask for a sign-in). */
  signIn?: string;
  /** The link a sign-in waits on. */
  signInUrl?: string;
}

export class McpBridge implements SessionToolSource {
  readonly connections: McpConnection[];
  private readonly started: Promise<void>;
  private cached?: { key: string; tools: ToolDefinition[] };
  private readonly listeners = new Set<() => void>();

  constructor(
    readonly specs: McpServerSpec[],
    cwd: string,
    private readonly log: Logger,
    /** The elicitations the session's front end answers (declared to every server). */
    readonly elicitation: ElicitationModes = { form: false, url: false },
  ) {
    this.connections = specs.map((spec) => new McpConnection(spec, cwd, log, () => this.notify(), elicitation));
    this.started = Promise.all(this.connections.map((connection) => connection.start())).then(() => undefined);
  }

  /** Waits until every server is ready or failed, or `ms` passed (slower ones go on in the background). */
  async settle(ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.started, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
    clearTimeout(timer);
  }

  /** The tools of every usable server, by name (stable for prompt caching), plus read_mcp_resource when offered. */
  list(): ToolDefinition[] {
    const usable = this.connections.filter((connection) => connection.status === "ready" || connection.status === "reconnecting");
    const key = usable.map((connection) => `${connection.name}@${connection.toolsVersion}:${connection.hasResources}`).join("|");
    if (this.cached?.key === key) return this.cached.tools;
    const taken = new Set<string>();
    const tools: ToolDefinition[] = [];
    for (const connection of usable) {
      const { includeTools, excludeTools } = connection.spec;
      for (const tool of connection.tools) {
        if (includeTools && !includeTools.includes(tool.name)) continue;
        if (excludeTools.includes(tool.name)) continue;
        tools.push(mcpToolDefinition(connection, tool, uniqueName(mcpToolName(connection.name, tool.name), taken)) as unknown as ToolDefinition);
      }
    }
    if (usable.some((connection) => connection.hasResources)) tools.push(readMcpResourceTool(() => this.usable()) as unknown as ToolDefinition);
    tools.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    this.cached = { key, tools };
    return tools;
  }

  states(): McpServerState[] {
    return this.connections.map((connection) => ({
      name: connection.name,
      source: connection.spec.source,
      transport: connection.spec.transport.kind,
      status: connection.status,
      ...(connection.error ? { error: connection.error } : {}),
      tools: this.toolCount(connection),
      prompts: connection.prompts.length,
      ...(connection.pid !== undefined ? { pid: connection.pid } : {}),
      ...signInFields(connection),
    }));
  }

  /** Prompts of ready servers, for `/mcp:<server>:<prompt>`. */
  prompts(): { server: string; prompt: McpPromptInfo }[] {
    return this.usable().flatMap((connection) => connection.prompts.map((prompt) => ({ server: connection.name, prompt })));
  }

  connection(name: string): McpConnection | undefined {
    return this.connections.find((connection) => connection.name === name);
  }

  /** Called when a server's status, tools or prompts change. Returns an unsubscribe. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.listeners.clear();
    await Promise.all(this.connections.map((connection) => connection.close()));
  }

  private usable(): McpConnection[] {
    return this.connections.filter((connection) => connection.status === "ready");
  }

  private toolCount(connection: McpConnection): number {
    if (connection.status !== "ready" && connection.status !== "reconnecting") return 0;
    const { includeTools, excludeTools } = connection.spec;
    return connection.tools.filter((tool) => (!includeTools || includeTools.includes(tool.name)) && !excludeTools.includes(tool.name)).length;
  }

  private notify(): void {
    for (const listener of this.listeners) {
      try {
        listener();
      } catch (error) {
        this.log.warn("MCP change listener failed", { error });
      }
    }
  }
}

function signInFields(connection: McpConnection): Pick<McpServerState, "signIn" | "signInUrl"> {
  const oauth = connection.signIn;
  if (!oauth) return {};
  const url = connection.signInUrl;
  const signIn = describeSignIn(oauth.store.read(), connection.status === "needs_sign_in");
  return { ...(signIn ? { signIn } : {}), ...(url ? { signInUrl: url.href } : {}) };
}

/** `/mcp`: every server, its status and its tool count. */
export function describeServers(states: McpServerState[]): string {
  if (states.length === 0) return "No MCP servers in this session. Editors pass theirs with the session; add your own under `mcp_servers` in config.yaml.";
  const lines = states.map((state) => {
    const tools = state.status === "ready" || state.status === "reconnecting" ? `, ${state.tools} tool${state.tools === 1 ? "" : "s"}${state.prompts ? `, ${state.prompts} prompt${state.prompts === 1 ? "" : "s"}` : ""}` : "";
    const error = state.error ? `: ${state.error}` : "";
    const signIn = state.signIn && state.status !== "needs_sign_in" ? ` (${state.signIn})` : "";
    const link = state.signInUrl ? `\n  [Sign in to ${state.name}](${state.signInUrl})` : "";
    return `- **${state.name}** (${state.source === "client" ? "from the editor" : "config.yaml"}, ${state.transport}): ${state.status.replaceAll("_", " ")}${signIn}${tools}${error}${link}`;
  });
  return `MCP servers:\n${lines.join("\n")}`;
}
