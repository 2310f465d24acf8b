// What Hermes needs to reach one MCP server, whoever named it: the editor (session/new) or
// config.yaml (`mcp_servers`). Config entries are checked one by one and `${ENV}` is
// expanded here; a broken entry becomes a server that is "failed" with the reason, so
// /mcp shows it and nothing else is affected.
import { describeIssues } from "../config/config-issues";
import { McpServerEntrySchema, type McpOAuthSettings } from "../config/mcp-schema";
import { AgentError } from "../util/agent-error";

export type McpTransportSpec =
  | { kind: "stdio"; command: string; args: string[]; env: Record<string, string>; cwd?: string }
  | { kind: "http" | "sse"; url: string; headers: Record<string, string>; oauth?: McpOAuthSettings | false };

export interface McpServerSpec {
  name: string;
  source: "client" | "config";
  transport: McpTransportSpec;
  /** Milliseconds a tool call may take. */
  timeoutMs: number;
  /** Server tool names to keep (all when undefined) and to drop. */
  includeTools?: string[];
  excludeTools: string[];
  /** Server tool names that ask the user before every call. */
  requireConfirmation: string[];
  /** Set when the entry cannot be used (bad config): the server is shown as failed with this. */
  problem?: string;
}

export const DEFAULT_TOOL_TIMEOUT_MS = 120_000;

/** A server the editor passed: nothing to filter or confirm, the default timeout. */
export function clientServerSpec(name: string, transport: McpTransportSpec): McpServerSpec {
  return { name, source: "client", transport, timeoutMs: DEFAULT_TOOL_TIMEOUT_MS, excludeTools: [], requireConfirmation: [] };
}

/** The `mcp_servers` entries of config.yaml that are enabled, each usable or carrying its problem. */
export function configServerSpecs(entries: Record<string, unknown>, env: Record<string, string | undefined>, configPath: string): McpServerSpec[] {
  const specs: McpServerSpec[] = [];
  for (const [name, raw] of Object.entries(entries)) {
    const broken = (problem: string): McpServerSpec => ({
      name,
      source: "config",
      transport: { kind: "stdio", command: "", args: [], env: {} },
      timeoutMs: DEFAULT_TOOL_TIMEOUT_MS,
      excludeTools: [],
      requireConfirmation: [],
      problem,
    });
    const parsed = McpServerEntrySchema.safeParse(raw ?? {});
    if (!parsed.success) {
      specs.push(broken(describeIssues(configPath, parsed.error.issues.map((issue) => ({ ...issue, path: ["mcp_servers", name, ...issue.path] }))).join("; ")));
      continue;
    }
    const entry = parsed.data;
    if (!entry.enabled) continue;
    const missing = new Set<string>();
    const expand = (text: string) => expandEnv(text, env, missing);
    const expandAll = (record: Record<string, string>) => Object.fromEntries(Object.entries(record).map(([key, value]) => [key, expand(value)]));
    const type = entry.type ?? (entry.command ? "stdio" : "http");
    const transport: McpTransportSpec =
      type === "stdio"
        ? { kind: "stdio", command: expand(entry.command ?? ""), args: entry.args.map(expand), env: expandAll(entry.env), ...(entry.cwd ? { cwd: expand(entry.cwd) } : {}) }
        : { kind: type, url: expand(entry.url ?? ""), headers: expandAll(entry.headers), ...oauthSettings(entry.oauth, expand) };
    if (missing.size > 0) {
      specs.push(broken(`${configPath}: mcp_servers.${name}: ${[...missing].map((v) => `\${${v}}`).join(", ")} ${missing.size > 1 ? "are" : "is"} not set in the environment or $HERMES_HOME/.env`));
      continue;
    }
    if (transport.kind !== "stdio" && !URL.canParse(transport.url)) {
      specs.push(broken(`${configPath}: mcp_servers.${name}.url: "${transport.url}" is not a URL`));
      continue;
    }
    specs.push({
      name,
      source: "config",
      transport,
      timeoutMs: entry.timeout * 1000,
      ...(entry.include_tools ? { includeTools: entry.include_tools } : {}),
      excludeTools: entry.exclude_tools,
      requireConfirmation: entry.require_confirmation,
    });
  }
  return specs;
}

/** `${NAME}` (and `${NAME:-default}`) from the environment; unknown names are collected in `missing`. */
export function expandEnv(text: string, env: Record<string, string | undefined>, missing: Set<string>): string {
  return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_match, name: string, fallback: string | undefined) => {
    const value = env[name];
    if (value !== undefined && value !== "") return value;
    if (fallback !== undefined) return fallback;
    missing.add(name);
    return "";
  });
}

/** Two servers with one name in a single request: the client must fix its request. */
export class DuplicateMcpServerError extends AgentError<"invalid_params"> {
  constructor(readonly serverName: string) {
    super("invalid_params", `Two MCP servers are named "${serverName}" in this request; server names must be unique.`, { mcpServers: serverName });
    this.name = "DuplicateMcpServerError";
  }
}

/**
 * The session's servers: the client's, then config.yaml's. A name used by both resolves to
 * the client's server (reported through `onShadowed`); a name repeated within the client's
 * list is an error.
 */
export function mergeServerSpecs(client: McpServerSpec[], config: McpServerSpec[], onShadowed: (name: string) => void): McpServerSpec[] {
  const names = new Set<string>();
  for (const spec of client) {
    if (names.has(spec.name)) throw new DuplicateMcpServerError(spec.name);
    names.add(spec.name);
  }
  const merged = [...client];
  for (const spec of config) {
    if (names.has(spec.name)) onShadowed(spec.name);
    else merged.push(spec);
  }
  return merged;
}

/** Same servers, same settings: a session reloaded with them keeps its connections. */
export function sameServers(a: McpServerSpec[], b: McpServerSpec[]): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The entry's `oauth`, its id and secret expanded (`${ENV}`); nothing when absent. */
function oauthSettings(oauth: McpOAuthSettings | false | undefined, expand: (text: string) => string): { oauth?: McpOAuthSettings | false } {
  if (oauth === undefined) return {};
  if (oauth === false) return { oauth: false };
  return {
    oauth: {
      ...oauth,
      ...(oauth.client_id ? { client_id: expand(oauth.client_id) } : {}),
      ...(oauth.client_secret ? { client_secret: expand(oauth.client_secret) } : {}),
      ...(oauth.private_key_pem ? { private_key_pem: expand(oauth.private_key_pem) } : {}),
      ...(oauth.idp_client_id ? { idp_client_id: expand(oauth.idp_client_id) } : {}),
      ...(oauth.idp_client_secret ? { idp_client_secret: expand(oauth.idp_client_secret) } : {}),
      ...(oauth.idp_id_token ? { idp_id_token: expand(oauth.idp_id_token) } : {}),
    },
  };
}
