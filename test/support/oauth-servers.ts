// A real OAuth 2.1 authorization server (oidc-provider, from npm) and a protected MCP server
// (the MCP SDK's own server classes over streamable HTTP) on 127.0.0.1, for the sign-in tests.
// The authorization server allows dynamic client registration and resource indicators (RFC
// 8707), requires PKCE, issues refresh tokens, and signs "alice" in and consents on her behalf
// without a page (its interaction URL finishes at once), so a client that follows the link with
// a cookie jar, as a browser would, comes back with a code. The MCP server checks every request's
// bearer token with the authorization server's own token store (audience included), answers 401
// with its protected-resource metadata, and 403 insufficient_scope on `admin_report` without
// `mcp:admin` (a step-up).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import Provider from "oidc-provider";

export const RESOURCE_SCOPES = ["mcp:read", "mcp:admin"];

export interface OAuthWorld {
  issuer: string;
  /** The MCP endpoint (the protected resource). */
  mcpUrl: string;
  provider: Provider;
  /** Bearer tokens the MCP server has accepted, in order. */
  acceptedTokens: string[];
  /** Token requests the authorization server answered, by grant type. */
  grants: string[];
  /** Clients registered dynamically. */
  registrations: Record<string, unknown>[];
  /** Revokes every access token issued so far (the next request gets 401; a refresh recovers). */
  revokeAccessTokens(): Promise<void>;
  close(): Promise<void>;
}

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export async function startOAuthWorld(options: { preRegistered?: { client_id: string; client_secret?: string; redirect_uris: string[] } } = {}): Promise<OAuthWorld> {
  const asServer = http.createServer();
  const issuer = await listen(asServer);
  const mcpServer = http.createServer();
  const mcpBase = await listen(mcpServer);
  const mcpUrl = `${mcpBase}/mcp`;
  const issuedAccessTokens: string[] = [];
  const grants: string[] = [];
  const registrations: Record<string, unknown>[] = [];

  const provider = new Provider(issuer, {
    clients: options.preRegistered
      ? [
          {
            ...options.preRegistered,
            grant_types: ["authorization_code", "refresh_token"],
            response_types: ["code"],
            token_endpoint_auth_method: options.preRegistered.client_secret ? "client_secret_basic" : "none",
          },
        ]
      : [],
    features: {
      registration: { enabled: true },
      devInteractions: { enabled: false },
      resourceIndicators: {
        enabled: true,
        // No default: a token carries the MCP server's audience only when the client sent `resource`.
        defaultResource: () => undefined,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, resource: string) => {
          if (resource !== mcpUrl) throw new Error(`unknown resource ${resource}`);
          return { scope: RESOURCE_SCOPES.join(" "), audience: mcpUrl, accessTokenFormat: "opaque", accessTokenTTL: 3600 };
        },
      },
    },
    scopes: ["openid", "email", "offline_access", ...RESOURCE_SCOPES],
    claims: { openid: ["sub"], email: ["email"] },
    findAccount: (_ctx: unknown, id: string) => ({ accountId: id, claims: () => ({ sub: id, email: `${id}@example.test` }) }),
    issueRefreshToken: () => true,
    pkce: { required: () => true },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    cookies: { keys: ["hermes-test-cookie-key"] },
  });
  provider.on("grant.success", (ctx) => grants.push(String((ctx.oidc.params as { grant_type?: string }).grant_type)));
  provider.on("registration_create.success", (_ctx, client) => registrations.push(client.metadata()));
  provider.on("access_token.saved", (token) => issuedAccessTokens.push(token.jti));
  provider.on("access_token.issued", (token) => issuedAccessTokens.push(token.jti));

  const callback = provider.callback();
  asServer.on("request", (req, res) => {
    if (req.url?.startsWith("/interaction/")) {
      void finishInteraction(provider, req, res).catch((error: unknown) => {
        res.writeHead(500).end(String(error));
      });
      return;
    }
    void callback(req, res);
  });

  const acceptedTokens: string[] = [];
  const metadataUrl = `${mcpBase}/.well-known/oauth-protected-resource/mcp`;
  const challenge = `Bearer resource_metadata="${metadataUrl}"`;
  mcpServer.on("request", (req, res) => {
    void (async () => {
      if (req.url?.startsWith("/.well-known/oauth-protected-resource")) {
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ resource: mcpUrl, authorization_servers: [issuer], scopes_supported: ["mcp:read"], bearer_methods_supported: ["header"] }));
        return;
      }
      if (!req.url?.startsWith("/mcp")) return res.writeHead(404).end();
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
      const token = bearer ? await provider.AccessToken.find(bearer) : undefined;
      const audience = token ? [token.aud ?? []].flat() : [];
      if (!bearer || !token || token.isExpired || !audience.includes(mcpUrl)) {
        return res.writeHead(401, { "www-authenticate": challenge, "content-type": "application/json" }).end(JSON.stringify({ error: "invalid_token" }));
      }
      const body = req.method === "POST" ? await readJson(req) : undefined;
      const scopes = new Set(String(token.scope ?? "").split(" "));
      const calls = [body].flat().filter((message) => (message as { method?: string } | undefined)?.method === "tools/call") as { params?: { name?: string } }[];
      if (calls.some((call) => call.params?.name === "admin_report") && !scopes.has("mcp:admin")) {
        return res
          .writeHead(403, { "www-authenticate": `Bearer error="insufficient_scope", scope="mcp:read mcp:admin", resource_metadata="${metadataUrl}"`, "content-type": "application/json" })
          .end(JSON.stringify({ error: "insufficient_scope" }));
      }
      acceptedTokens.push(bearer);
      const server = new McpServer({ name: "protected", version: "1.0.0" });
      server.registerTool("whoami", { description: "Who the token belongs to" }, () => ({ content: [{ type: "text", text: `account ${token.accountId}` }] }));
      server.registerTool("admin_report", { description: "Needs the mcp:admin scope" }, () => ({ content: [{ type: "text", text: "admin report: all systems nominal" }] }));
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on("close", () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    });
  });

  return {
    issuer,
    mcpUrl,
    provider,
    acceptedTokens,
    grants,
    registrations,
    revokeAccessTokens: async () => {
      for (const jti of issuedAccessTokens) {
        const token = await provider.AccessToken.find(jti);
        await token?.destroy();
      }
    },
    close: async () => {
      asServer.closeAllConnections();
      mcpServer.closeAllConnections();
      await Promise.all([new Promise((resolve) => asServer.close(resolve)), new Promise((resolve) => mcpServer.close(resolve))]);
    },
  };
}

/** Signs "alice" in and grants what the client asked for (OIDC scopes and the resource's), as a person clicking through would. */
async function finishInteraction(provider: Provider, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  if (details.prompt.name === "login") {
    await provider.interactionFinished(req, res, { login: { accountId: "alice" } }, { mergeWithLastSubmission: false });
    return;
  }
  const params = details.params as { client_id: string };
  const grant = details.grantId ? await provider.Grant.find(details.grantId) : new provider.Grant({ accountId: details.session!.accountId, clientId: params.client_id });
  const missing = details.prompt.details as { missingOIDCScope?: string[]; missingResourceScopes?: Record<string, string[]> };
  if (missing.missingOIDCScope) grant!.addOIDCScope(missing.missingOIDCScope.join(" "));
  for (const [resource, scopes] of Object.entries(missing.missingResourceScopes ?? {})) grant!.addResourceScope(resource, scopes.join(" "));
  const grantId = await grant!.save();
  await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
}

async function readJson(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text ? JSON.parse(text) : undefined;
}

/** A browser stand-in: follows `url` and its redirects with a cookie jar until a page answers without one. */
export async function followLikeABrowser(url: string): Promise<Response> {
  const cookies = new Map<string, string>();
  let next = new URL(url);
  for (let hop = 0; hop < 20; hop++) {
    const response = await fetch(next, { redirect: "manual", headers: cookies.size ? { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join("; ") } : {} });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const at = pair.indexOf("=");
      if (at > 0) cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
    const location = response.headers.get("location");
    if (!location) return response;
    await response.body?.cancel();
    next = new URL(location, next);
  }
  throw new Error(`too many redirects following ${url}`);
}
