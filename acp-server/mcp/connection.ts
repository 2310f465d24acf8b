// One MCP server as a session sees it: connects (stdio, streamable HTTP, or SSE, with HTTP
// falling back to SSE), lists its tools, prompts and whether it has resources, follows
// `notifications/tools/list_changed`, and reconnects with backoff when it drops. The MCP SDK
// loads on the first connection, never before.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { ElicitationModes, UserElicitation } from "../tools/elicitation";
import { ToolError } from "../tools/registry";
import type { Logger } from "../util/log";
import { VERSION } from "../version";
import { answerServerElicitation, scopedElicitationId, type McpElicitParams } from "./elicitation";
import type { McpCallResult, McpResourceContents } from "./results";
import type { McpServerSpec } from "./server-spec";

export type McpServerStatus = "connecting" | "ready" | "reconnecting" | "failed" | "closed";

export interface McpToolInfo {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: { title?: string; readOnlyHint?: boolean };
}

export interface McpPromptInfo {
  name: string;
  description?: string;
  arguments?: { name: string; description?: string; required?: boolean }[];
}

export interface McpResourceInfo {
  uri: string;
  name: string;
  mimeType?: string;
  description?: string;
}

export interface McpPromptMessage {
  role: "user" | "assistant";
  content: { type: string; text?: string; data?: string; mimeType?: string; resource?: McpResourceContents; uri?: string; name?: string };
}

const CONNECT_TIMEOUT_MS = 30_000;
const RECONNECT_DELAYS_MS = [1_000, 2_000, 4_000, 8_000, 16_000];
/** MCP error codes (the SDK's ErrorCode). */
const CONNECTION_CLOSED = -32000;
const REQUEST_TIMEOUT = -32001;

type Sdk = Awaited<ReturnType<typeof loadSdk>>;
let sdk: Promise<Sdk> | undefined;
function loadSdk() {
  return (async () => {
    const [client, streamable, sse, types, stdio] = await Promise.all([
      import("@modelcontextprotocol/sdk/client/index.js"),
      import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
      import("@modelcontextprotocol/sdk/client/sse.js"),
      import("@modelcontextprotocol/sdk/types.js"),
      import("./stdio-transport"),
    ]);
    return {
      Client: client.Client,
      StreamableHTTPClientTransport: streamable.StreamableHTTPClientTransport,
      SSEClientTransport: sse.SSEClientTransport,
      ToolListChanged: types.ToolListChangedNotificationSchema,
      PromptListChanged: types.PromptListChangedNotificationSchema,
      ElicitRequest: types.ElicitRequestSchema,
      ElicitationComplete: types.ElicitationCompleteNotificationSchema,
      GroupStdioTransport: stdio.GroupStdioTransport,
    };
  })();
}

export class McpConnection {
  status: McpServerStatus = "connecting";
  /** Why it is failed or reconnecting. */
  error?: string;
  tools: McpToolInfo[] = [];
  prompts: McpPromptInfo[] = [];
  hasResources = false;
  /** Bumped whenever `tools` changes (the bridge rebuilds its tool list from it). */
  toolsVersion = 0;
  private client?: Client;
  private transport?: Transport;
  private retries = 0;
  private retryTimer?: NodeJS.Timeout;
  private closed = false;
  /** The tool calls in flight that can ask the user, latest last: a server's elicitation goes to the latest. */
  private readonly askers: UserElicitation[] = [];
  /** URL-mode elicitations still open, by the server's id: its completion notice goes to the same user. */
  private readonly openUrlElicitations = new Map<string, UserElicitation>();

  constructor(
    readonly spec: McpServerSpec,
    /** Working directory for a stdio server without its own. */
    private readonly cwd: string,
    private readonly log: Logger,
    private readonly changed: () => void,
    /** Which elicitations the session's front end answers: the client declares only those to the server. */
    private readonly elicitation: ElicitationModes = { form: false, url: false },
  ) {}

  get name(): string {
    return this.spec.name;
  }

  /** The process id of a stdio server while it runs (for tests and logs). */
  get pid(): number | undefined {
    return (this.transport as { pid?: number } | undefined)?.pid;
  }

  /** First connection; resolves once the server is ready or has failed (never rejects). */
  async start(): Promise<void> {
    if (this.spec.problem) return this.fail(this.spec.problem);
    try {
      await this.connect();
    } catch (error) {
      this.fail(this.describe(error));
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.retryTimer);
    this.status = "closed";
    const client = this.client;
    this.client = undefined;
    await client?.close().catch((error: unknown) => this.log.warn("closing an MCP server failed", { server: this.name, error }));
    await this.transport?.close().catch((error: unknown) => this.log.warn("closing an MCP server's transport failed", { server: this.name, error }));
  }

  /** `asker`: who answers the server's elicitations while the call runs (absent: they are declined). */
  async callTool(name: string, args: Record<string, unknown>, signal: AbortSignal, asker?: UserElicitation): Promise<McpCallResult> {
    const client = this.readyClient();
    if (asker) this.askers.push(asker);
    try {
      return (await client.callTool({ name, arguments: args }, undefined, { signal, timeout: this.spec.timeoutMs })) as McpCallResult;
    } catch (error) {
      throw this.callError(error, `${name}`);
    } finally {
      if (asker) this.askers.splice(this.askers.lastIndexOf(asker), 1);
    }
  }

  async listResources(): Promise<McpResourceInfo[]> {
    const client = this.readyClient();
    const resources: McpResourceInfo[] = [];
    let cursor: string | undefined;
    try {
      do {
        const page = await client.listResources(cursor ? { cursor } : undefined, { timeout: this.spec.timeoutMs });
        resources.push(...page.resources);
        cursor = page.nextCursor;
      } while (cursor && resources.length < 1_000);
    } catch (error) {
      throw this.callError(error, "resources/list");
    }
    return resources;
  }

  async readResource(uri: string, signal: AbortSignal): Promise<McpResourceContents[]> {
    const client = this.readyClient();
    try {
      return (await client.readResource({ uri }, { signal, timeout: this.spec.timeoutMs })).contents as McpResourceContents[];
    } catch (error) {
      throw this.callError(error, `resources/read ${uri}`);
    }
  }

  async getPrompt(name: string, args: Record<string, string>, signal: AbortSignal): Promise<McpPromptMessage[]> {
    const client = this.readyClient();
    try {
      return (await client.getPrompt({ name, arguments: args }, { signal, timeout: this.spec.timeoutMs })).messages as McpPromptMessage[];
    } catch (error) {
      throw this.callError(error, `prompt ${name}`);
    }
  }

  private readyClient(): Client {
    if (this.status === "ready" && this.client) return this.client;
    const why = this.error ? `: ${this.error}` : "";
    switch (this.status) {
      case "connecting":
        throw new ToolError(`MCP server "${this.name}" is still connecting; try again in a moment.`);
      case "reconnecting":
        throw new ToolError(`MCP server "${this.name}" is disconnected${why}. Hermes is reconnecting; try again shortly.`);
      default:
        throw new ToolError(`MCP server "${this.name}" is not available${why}.`);
    }
  }

  private async connect(): Promise<void> {
    const loaded = await (sdk ??= loadSdk());
    const transport = this.spec.transport;
    if (transport.kind === "stdio") {
      await this.connectWith(loaded, () => new loaded.GroupStdioTransport({ command: transport.command, args: transport.args, env: transport.env, cwd: transport.cwd ?? this.cwd }));
      return;
    }
    const connectSse = () =>
      this.connectWith(loaded, () => new loaded.SSEClientTransport(new URL(transport.url), { requestInit: { headers: transport.headers }, eventSourceInit: { fetch: withHeaders(transport.headers) } }));
    if (transport.kind === "sse") {
      try {
        await connectSse();
      } catch (error) {
        throw needsSignIn(error) ? this.signInError() : error;
      }
      return;
    }
    let streamableError: unknown;
    try {
      await this.connectWith(loaded, () => new loaded.StreamableHTTPClientTransport(new URL(transport.url), { requestInit: { headers: transport.headers } }));
      return;
    } catch (error) {
      if (this.closed || codeOf(error) === REQUEST_TIMEOUT) throw error;
      // A server that wants a token answers 401 on every transport: trying SSE would only
      // replace "sign in" with a misleading SSE error (issue 30, item 5).
      if (needsSignIn(error)) throw this.signInError();
      streamableError = error;
      this.log.info("MCP server did not take streamable HTTP; trying SSE", { server: this.name, error: this.describe(error) });
    }
    try {
      await connectSse();
    } catch (sseError) {
      if (this.closed) throw sseError;
      if (needsSignIn(sseError)) throw this.signInError();
      // The first transport's error is usually the real one (the SSE try is a guess for old
      // servers), so it leads and the fallback's failure follows.
      throw new Error(`${errorMessage(streamableError)} (and the SSE fallback failed too: ${errorMessage(sseError)})`, { cause: sseError });
    }
  }

  /** What a server that answered 401 tells the user: who needs what, and how to do it. */
  private signInError(): ToolError {
    // Hermes cannot run the OAuth sign-in itself yet (issue 30): say what works today.
    return new ToolError(`MCP server "${this.name}" needs you to sign in (it answered 401). Hermes cannot sign in to MCP servers with OAuth yet: give it a token in the server's \`headers\` (for example \`Authorization: Bearer …\`) in config.yaml or in your editor's MCP settings.`);
  }

  private async connectWith(loaded: Sdk, makeTransport: () => Transport): Promise<void> {
    const client = new loaded.Client({ name: "hermes", version: VERSION }, { capabilities: this.clientCapabilities() });
    if (this.elicitation.form || this.elicitation.url) this.answerElicitations(loaded, client);
    const transport = makeTransport();
    this.transport = transport;
    try {
      await client.connect(transport, { timeout: CONNECT_TIMEOUT_MS });
      const capabilities = client.getServerCapabilities() ?? {};
      const tools = capabilities.tools ? await this.listTools(client) : [];
      const prompts = capabilities.prompts ? (await client.listPrompts(undefined, { timeout: CONNECT_TIMEOUT_MS })).prompts : [];
      if (this.closed) throw new Error("closed while connecting");
      this.client = client;
      client.onclose = () => this.lost(client);
      client.setNotificationHandler(loaded.ToolListChanged, () => this.refreshTools(client));
      client.setNotificationHandler(loaded.PromptListChanged, () => this.refreshPrompts(client));
      this.tools = tools;
      this.toolsVersion++;
      this.prompts = prompts;
      this.hasResources = !!capabilities.resources;
      this.status = "ready";
      this.error = undefined;
      this.retries = 0;
      this.log.info("MCP server ready", { server: this.name, source: this.spec.source, tools: tools.length, prompts: prompts.length, resources: this.hasResources });
      this.changed();
    } catch (error) {
      // The connect error is what matters (thrown below); failures while cleaning up are only logged.
      await client.close().catch((closeError: unknown) => this.log.debug("closing a half-connected MCP client failed", { server: this.name, error: closeError }));
      await transport.close().catch((closeError: unknown) => this.log.debug("closing a half-connected MCP transport failed", { server: this.name, error: closeError }));
      throw error;
    }
  }

  /** Elicitation is declared only in the modes the user's front end answers (MCP: `form`, `url`). */
  private clientCapabilities(): Record<string, unknown> {
    const { form, url } = this.elicitation;
    if (!form && !url) return {};
    return { elicitation: { ...(form ? { form: { applyDefaults: true } } : {}), ...(url ? { url: {} } : {}) } };
  }

  private answerElicitations(loaded: Sdk, client: Client): void {
    client.setRequestHandler(loaded.ElicitRequest, async (request, extra) => {
      const params = request.params as McpElicitParams;
      const asker = this.askers.at(-1);
      const result = await answerServerElicitation(this.name, params, asker, extra.signal, this.log);
      if (params.mode === "url" && result.action === "accept" && asker) this.openUrlElicitations.set(params.elicitationId, asker);
      return result;
    });
    client.setNotificationHandler(loaded.ElicitationComplete, (notification) => {
      const id = notification.params.elicitationId;
      const asker = this.openUrlElicitations.get(id);
      this.openUrlElicitations.delete(id);
      return asker?.complete(scopedElicitationId(this.name, id));
    });
  }

  private async listTools(client: Client): Promise<McpToolInfo[]> {
    const tools: McpToolInfo[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined, { timeout: CONNECT_TIMEOUT_MS });
      tools.push(...(page.tools as McpToolInfo[]));
      cursor = page.nextCursor;
    } while (cursor && tools.length < 1_000);
    return tools;
  }

  private refreshTools(client: Client): void {
    this.listTools(client)
      .then((tools) => {
        if (this.client !== client) return;
        this.tools = tools;
        this.toolsVersion++;
        this.log.info("MCP server tools changed", { server: this.name, tools: tools.length });
        this.changed();
      })
      .catch((error: unknown) => this.log.warn("refreshing MCP tools failed", { server: this.name, error }));
  }

  private refreshPrompts(client: Client): void {
    client
      .listPrompts(undefined, { timeout: CONNECT_TIMEOUT_MS })
      .then(({ prompts }) => {
        if (this.client !== client) return;
        this.prompts = prompts;
        this.changed();
      })
      .catch((error: unknown) => this.log.warn("refreshing MCP prompts failed", { server: this.name, error }));
  }

  /** The connection dropped (the server crashed or went away): reconnect with backoff. */
  private lost(client: Client): void {
    if (this.closed || this.client !== client) return;
    this.client = undefined;
    this.error = `disconnected (${this.exitDescription()})`;
    this.log.warn("MCP server disconnected", { server: this.name, reason: this.error });
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed) return;
    const delay = RECONNECT_DELAYS_MS[this.retries];
    if (delay === undefined) return this.fail(`${this.error ?? "disconnected"}; gave up after ${this.retries} reconnection attempts`);
    this.retries++;
    this.status = "reconnecting";
    this.changed();
    this.retryTimer = setTimeout(() => {
      this.connect().catch((error: unknown) => {
        if (this.closed) return;
        this.error = this.describe(error);
        this.log.warn("MCP server reconnection failed", { server: this.name, attempt: this.retries, error: this.error });
        this.scheduleReconnect();
      });
    }, delay);
    this.retryTimer.unref();
  }

  private fail(reason: string): void {
    if (this.closed) return;
    this.status = "failed";
    this.error = reason;
    this.tools = [];
    this.toolsVersion++;
    this.prompts = [];
    this.hasResources = false;
    this.log.warn("MCP server failed", { server: this.name, source: this.spec.source, reason });
    this.changed();
  }

  /** A tool call's failure, as the model should read it. */
  private callError(error: unknown, what: string): Error {
    if (error instanceof ToolError) return error;
    const code = codeOf(error);
    if (code === REQUEST_TIMEOUT) return new ToolError(`MCP server "${this.name}" did not answer ${what} within ${this.spec.timeoutMs / 1000} s.`);
    if (code === CONNECTION_CLOSED || !this.client) {
      return new ToolError(`MCP server "${this.name}" disconnected during ${what} (${this.exitDescription()}). Hermes reconnects in the background; try again shortly.`);
    }
    return new ToolError(`MCP server "${this.name}" failed ${what}: ${(error as Error)?.message ?? String(error)}`);
  }

  /** How a stdio server ended, with the end of its stderr; or the transport's last word. */
  private exitDescription(): string {
    const transport = this.transport as { exitDescription?: string; stderrTail?: () => string } | undefined;
    const exit = transport?.exitDescription ?? "connection closed";
    const stderr = transport?.stderrTail?.();
    return stderr ? `${exit}; stderr: ${stderr.split("\n").slice(-3).join(" | ").slice(0, 400)}` : exit;
  }

  private describe(error: unknown): string {
    const message = (error as Error)?.message ?? String(error);
    const transport = this.transport as { exitDescription?: string; stderrTail?: () => string } | undefined;
    if (transport?.exitDescription) return `${message} (${this.exitDescription()})`;
    return message;
  }
}

/** A 401 from either transport (their errors carry the HTTP status as `code`), or the SDK's UnauthorizedError. */
function needsSignIn(error: unknown): boolean {
  if (codeOf(error) === 401) return true;
  // UnauthorizedError sets no `name`; its class is how it is known without loading the auth module.
  return (error as object | undefined)?.constructor?.name === "UnauthorizedError";
}

function errorMessage(error: unknown): string {
  return (error as Error | undefined)?.message ?? String(error);
}

function codeOf(error: unknown): number | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === "number" ? code : undefined;
}

/** The SSE GET goes through EventSource, which takes headers only through a custom fetch. */
function withHeaders(headers: Record<string, string>): typeof fetch {
  return (input, init) => fetch(input, { ...init, headers: { ...Object.fromEntries(new Headers(init?.headers).entries()), ...headers } });
}
