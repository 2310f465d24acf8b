// One MCP server as a session sees it: connects (stdio, streamable HTTP, or SSE, with HTTP
// falling back to SSE), lists its tools, prompts and whether it has resources, follows
// `notifications/tools/list_changed`, and reconnects with backoff when it drops. The MCP SDK
// loads on the first connection, never before.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { McpOAuthSettings } from "../config/mcp-schema";
import { randomUUID } from "node:crypto";
import type { ElicitationModes, UserElicitation } from "../tools/elicitation";
import { ToolError } from "../tools/registry";
import type { Logger } from "../util/log";
import { VERSION } from "../version";
import { answerServerElicitation, scopedElicitationId, type McpElicitParams } from "./elicitation";
import type { McpCallResult, McpResourceContents } from "./results";
import { SignInFailedError } from "./oauth/loopback-redirect";
import { RedirectPortTakenError, ServerSignIn, type FinishesAuth } from "./oauth/server-sign-in";
import type { McpServerSpec } from "./server-spec";

export type McpServerStatus = "connecting" | "ready" | "reconnecting" | "needs_sign_in" | "failed" | "closed";

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
  /** OAuth for an HTTP server that may ask for it (made on first connection; absent for stdio, `oauth: false` or a configured Authorization header). */
  private oauth?: ServerSignIn;
  private machine?: Promise<OAuthClientProvider | undefined>;
  private readonly statusWatchers = new Set<() => void>();

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
      this.failOrAwaitSignIn(error);
    }
    // A link followed here (HERMES_MCP_SIGN_IN=fetch) finishes within moments: the session waits for it like any slow server.
    if (this.status === "needs_sign_in" && this.oauth?.followsLinks) await this.waitForSignIn(AbortSignal.timeout(CONNECT_TIMEOUT_MS)).catch(() => false); // expected: a slow link leaves the server "needs sign-in", which /mcp shows
  }

  /** The server's OAuth sign-in, when it may use one. */
  get signIn(): ServerSignIn | undefined {
    return this.oauth;
  }

  /** The link a sign-in waits on (status needs_sign_in), if one is open. */
  get signInUrl(): URL | undefined {
    return this.oauth?.pending?.url;
  }

  /**
   * Signs in afresh (/mcp login, hermes mcp login): the stored tokens are dropped, the server is
   * asked again, and a sign-in link is opened when it wants one; `show` gets the link. Resolves
   * when the server is ready again, throws when signing in failed or the signal ended it.
   */
  async login(show: (url: URL) => Promise<void> | void, signal: AbortSignal): Promise<void> {
    const oauth = this.oauthFor();
    if (!oauth) throw new ToolError(`MCP server "${this.name}" does not sign in with OAuth (${this.spec.transport.kind === "stdio" ? "it runs as a local program" : "its entry has oauth: false or an Authorization header"}).`);
    oauth.forgetTokens();
    clearTimeout(this.retryTimer);
    this.retries = 0;
    await this.dropClient();
    this.status = "connecting";
    this.notify();
    try {
      await this.connect();
      return;
    } catch (error) {
      this.failOrAwaitSignIn(error);
    }
    const pending = oauth.pending;
    if ((this.status as McpServerStatus) !== "needs_sign_in" || !pending) throw new ToolError(`MCP server "${this.name}" could not start a sign-in: ${this.error ?? "unknown error"}`);
    await show(pending.url);
    await oauth.finish(this.transport as unknown as FinishesAuth, signal);
    await this.until(() => this.status !== "needs_sign_in" && this.status !== "connecting", signal);
    if ((this.status as McpServerStatus) !== "ready") throw new ToolError(`MCP server "${this.name}" did not connect after the sign-in: ${this.error ?? this.status}`);
  }

  /** Resolves once a sign-in the server waits on has ended: true when the server is ready. */
  async waitForSignIn(signal: AbortSignal): Promise<boolean> {
    await this.until(() => this.status !== "needs_sign_in" && this.status !== "connecting", signal);
    return this.status === "ready";
  }

  /** hermes mcp logout / /mcp logout: the stored sign-in is deleted and the server is left signed out. */
  async logout(): Promise<boolean> {
    const oauth = this.oauthFor();
    if (!oauth) return false;
    oauth.close();
    const had = oauth.store.remove();
    clearTimeout(this.retryTimer);
    await this.dropClient();
    this.offerNothing("needs_sign_in", `signed out: /mcp login ${this.name} signs in again`);
    this.notify();
    return had;
  }

  /** Resolves when `done()` holds (checked at every status change), or rejects when the signal ends. */
  private until(done: () => boolean, signal: AbortSignal): Promise<void> {
    if (done()) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!done()) return;
        cleanup();
        resolve();
      };
      const stop = () => {
        cleanup();
        reject(new SignInFailedError(`Waiting for the MCP server "${this.name}" was cancelled.`));
      };
      const cleanup = () => {
        this.statusWatchers.delete(check);
        signal.removeEventListener("abort", stop);
      };
      this.statusWatchers.add(check);
      signal.addEventListener("abort", stop, { once: true });
    });
  }

  private notify(): void {
    this.changed();
    for (const watcher of [...this.statusWatchers]) watcher();
  }

  /** A connection that failed because the server wants a sign-in waits for it (in the background); anything else fails. */
  private failOrAwaitSignIn(error: unknown): void {
    const oauth = this.oauth;
    const pending = oauth?.pending;
    if (!needsSignIn(error) || !oauth || !pending || this.closed) {
      this.fail(error instanceof SignInFailedError ? error.message : this.describe(error));
      return;
    }
    this.offerNothing("needs_sign_in", `use /mcp login ${this.name} here, or hermes mcp login ${this.name} in a terminal`);
    this.log.info("MCP server needs a sign-in", { server: this.name });
    this.notify();
    const transport = this.transport as unknown as FinishesAuth;
    oauth
      .finish(transport)
      .then(() => {
        if (this.closed || this.status !== "needs_sign_in") return;
        this.status = "connecting";
        this.notify();
        return this.connect();
      })
      .catch((failure: unknown) => {
        if (this.closed) return;
        // A newer link (a second /mcp login) supersedes this one: it reports for itself.
        if (oauth.pending && oauth.pending !== pending) return;
        this.failOrAwaitSignIn(failure);
        if (this.status === "needs_sign_in" || this.status === "failed") this.log.warn("an MCP sign-in did not finish", { server: this.name, error: failure });
      });
  }

  /** Closes the client and transport of the current connection, if any (before connecting afresh). */
  private async dropClient(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    await client?.close().catch((error: unknown) => this.log.debug("closing an MCP client before signing in again failed", { server: this.name, error }));
  }

  /** `oauth.grant: client_credentials | enterprise`: a sign-in without a person, made once. */
  private machineAuth(): Promise<OAuthClientProvider | undefined> {
    const transport = this.spec.transport;
    if (transport.kind === "stdio" || !transport.oauth || transport.oauth.grant === "authorization_code") return Promise.resolve(undefined);
    this.machine ??= import("./oauth/machine-sign-in").then(({ machineProvider }) => machineProvider(transport.oauth as McpOAuthSettings));
    return this.machine;
  }

  /** The server's ServerSignIn, made on first use, when a person's OAuth sign-in applies to it. */
  private oauthFor(): ServerSignIn | undefined {
    const transport = this.spec.transport;
    if (transport.kind === "stdio" || transport.oauth === false || (transport.oauth && transport.oauth.grant !== "authorization_code")) return undefined;
    // A token given by hand wins: Hermes never replaces a configured Authorization header.
    if (Object.keys(transport.headers).some((name) => name.toLowerCase() === "authorization")) return undefined;
    this.oauth ??= new ServerSignIn(transport.url, this.name, transport.oauth || undefined, this.log);
    return this.oauth;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.retryTimer);
    this.oauth?.close();
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
    const call = async () => (await client.callTool({ name, arguments: args }, undefined, { signal, timeout: this.spec.timeoutMs })) as McpCallResult;
    try {
      try {
        return await call();
      } catch (error) {
        // The token no longer does (revoked, or the tool wants more scopes: a 403 step-up): once
        // the user has signed in again the call is made once more.
        if (!needsSignIn(error) || !this.oauth?.pending) throw error;
        await this.signInDuringCall(this.oauth, asker, signal);
        return await call();
      }
    } catch (error) {
      throw this.callError(error, `${name}`);
    } finally {
      if (asker) this.askers.splice(this.askers.lastIndexOf(asker), 1);
    }
  }

  /** Shows the sign-in link to whoever made the call (a URL-mode elicitation) and waits for the browser. */
  private async signInDuringCall(oauth: ServerSignIn, asker: UserElicitation | undefined, signal: AbortSignal): Promise<void> {
    const pending = oauth.pending!;
    const transport = this.transport as unknown as FinishesAuth;
    const elicitationId = `hermes-mcp-sign-in-${randomUUID()}`;
    if (asker && !oauth.followsLinks) {
      const answer = await asker.ask({ mode: "url", message: `The MCP server "${this.name}" needs you to sign in (again, or with more access) before this call can go on.`, url: pending.url.href, elicitationId }, signal);
      if (answer.action !== "accept") {
        // The link stays good for a while: signing in from it later still lets the next call through.
        oauth.finish(transport).catch((error: unknown) => this.log.info("an MCP sign-in link was not used", { server: this.name, error: errorMessage(error) }));
        throw new SignInNeededError(`MCP server "${this.name}" needs you to sign in before this call: open ${pending.url.href} in a browser (or run /mcp login ${this.name}), then try again.`);
      }
    }
    try {
      await oauth.finish(transport, AbortSignal.any([signal, AbortSignal.timeout(this.spec.timeoutMs)]));
    } finally {
      if (asker && !oauth.followsLinks) void asker.complete(elicitationId);
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
    const signIn = this.oauthFor()?.provider;
    await signIn?.settlePort();
    try {
      await this.connectOnce();
    } catch (error) {
      // The picked redirect port was taken between the check and the sign-in: another one has
      // been picked, so once more is enough (a second clash is reported, not looped on).
      if (!(error instanceof RedirectPortTakenError) || this.closed) throw error;
      this.log.info("the MCP sign-in port was taken; signing in on another", { server: this.name });
      await signIn?.settlePort();
      await this.connectOnce();
    }
  }

  private async connectOnce(): Promise<void> {
    const loaded = await (sdk ??= loadSdk());
    const transport = this.spec.transport;
    if (transport.kind === "stdio") {
      await this.connectWith(loaded, () => new loaded.GroupStdioTransport({ command: transport.command, args: transport.args, env: transport.env, cwd: transport.cwd ?? this.cwd }));
      return;
    }
    const signIn = this.oauthFor()?.provider;
    const authProvider: OAuthClientProvider | undefined = signIn ?? (await this.machineAuth());
    const watchedFetch = signIn ? { fetch: signIn.watchScopeChallenges() } : {};
    const connectSse = () =>
      this.connectWith(
        loaded,
        () =>
          new loaded.SSEClientTransport(new URL(transport.url), {
            requestInit: { headers: transport.headers },
            eventSourceInit: { fetch: withHeaders(transport.headers) },
            ...(authProvider ? { authProvider, ...watchedFetch } : {}),
          }),
      );
    const attemptsBefore = signIn?.authAttempts ?? 0;
    if (transport.kind === "sse") {
      try {
        await connectSse();
      } catch (error) {
        if (needsSignIn(error)) throw this.signInError();
        throw signIn && signIn.authAttempts > attemptsBefore ? this.oauthFailed(error) : error;
      }
      return;
    }
    let streamableError: unknown;
    try {
      await this.connectWith(
        loaded,
        () => new loaded.StreamableHTTPClientTransport(new URL(transport.url), { requestInit: { headers: transport.headers }, ...(authProvider ? { authProvider, ...watchedFetch } : {}) }),
      );
      return;
    } catch (error) {
      if (this.closed || codeOf(error) === REQUEST_TIMEOUT || error instanceof SignInFailedError) throw error;
      // A server that wants a token answers 401 on every transport: trying SSE would only
      // replace "sign in" with a misleading SSE error (issue 30, item 5).
      if (needsSignIn(error)) throw this.signInError();
      // The server asked for a sign-in and OAuth itself failed (no metadata, registration refused):
      // that is the real error, and an SSE retry would hide it.
      if (signIn && signIn.authAttempts > attemptsBefore) throw this.oauthFailed(error);
      // A machine sign-in (client credentials) that failed is that failure, not a transport problem.
      if (authProvider && !signIn && isOAuthFailure(error)) throw this.oauthFailed(error);
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

  /** Signing in was needed but the OAuth flow broke before a link could be shown. */
  private oauthFailed(error: unknown): ToolError {
    return new ToolError(
      `MCP server "${this.name}" needs you to sign in (it answered 401), but signing in with OAuth failed: ${errorMessage(error)}. If the server takes a token instead, put it in the server's \`headers\` (\`Authorization: Bearer …\`) or set \`oauth: false\`.`,
    );
  }

  /** What a server that answered 401 tells the user: who needs what, and how to do it. */
  private signInError(): ToolError {
    if (this.oauth?.pending) return new SignInNeededError(`MCP server "${this.name}" needs you to sign in: run /mcp login ${this.name} in a chat, or hermes mcp login ${this.name} in a terminal.`);
    const transport = this.spec.transport;
    const why = transport.kind !== "stdio" && transport.oauth === false ? "its entry has oauth: false" : "it rejected the Authorization header it was given";
    return new ToolError(`MCP server "${this.name}" needs you to sign in (it answered 401), and Hermes does not sign in to it with OAuth because ${why}: give it a valid token in the server's \`headers\` (for example \`Authorization: Bearer …\`), or remove that to let Hermes sign in.`);
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
      this.notify();
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
        this.notify();
      })
      .catch((error: unknown) => this.log.warn("refreshing MCP tools failed", { server: this.name, error }));
  }

  private refreshPrompts(client: Client): void {
    client
      .listPrompts(undefined, { timeout: CONNECT_TIMEOUT_MS })
      .then(({ prompts }) => {
        if (this.client !== client) return;
        this.prompts = prompts;
        this.notify();
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
    this.notify();
    this.retryTimer = setTimeout(() => {
      this.connect().catch((error: unknown) => {
        if (this.closed) return;
        if (needsSignIn(error) && this.oauth?.pending) return this.failOrAwaitSignIn(error);
        this.error = this.describe(error);
        this.log.warn("MCP server reconnection failed", { server: this.name, attempt: this.retries, error: this.error });
        this.scheduleReconnect();
      });
    }, delay);
    this.retryTimer.unref();
  }

  /** The server is unusable for now (`why` says so): none of its tools, prompts or resources are offered. */
  private offerNothing(status: "failed" | "needs_sign_in", why: string): void {
    this.status = status;
    this.error = why;
    this.tools = [];
    this.toolsVersion++;
    this.prompts = [];
    this.hasResources = false;
  }

  private fail(reason: string): void {
    if (this.closed) return;
    this.offerNothing("failed", reason);
    this.log.warn("MCP server failed", { server: this.name, source: this.spec.source, reason });
    this.notify();
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
  if (codeOf(error) === 401 || error instanceof SignInNeededError) return true;
  // UnauthorizedError sets no `name`; its class is how it is known without loading the auth module.
  return (error as object | undefined)?.constructor?.name === "UnauthorizedError";
}

/** A server refused Hermes until the user signs in (a sign-in link is open). */
export class SignInNeededError extends ToolError {
  constructor(message: string) {
    super(message);
    this.name = "SignInNeededError";
  }
}

/** An error of the SDK's OAuth client (its OAuthError classes carry an `errorCode` such as invalid_client). */
function isOAuthFailure(error: unknown): boolean {
  return typeof (error as { errorCode?: unknown } | undefined)?.errorCode === "string";
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
