// `oauth.grant: client_credentials` (or `enterprise`, enterprise-sign-in.ts): a server signed in
// to by a machine, not a person. The MCP
// SDK's own providers do it (a client secret sent as HTTP Basic, or a JWT client assertion
// signed with the configured private key); tokens live in memory only, since getting a new one
// needs nobody. Loaded on first use with the SDK.
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { McpOAuthSettings } from "../../config/mcp-schema";

export async function machineProvider(settings: McpOAuthSettings): Promise<OAuthClientProvider> {
  if (settings.grant === "enterprise") return new (await import("./enterprise-sign-in")).EnterpriseProvider(settings);
  const { ClientCredentialsProvider, PrivateKeyJwtProvider } = await import("@modelcontextprotocol/sdk/client/auth-extensions.js");
  const scope = Array.isArray(settings.scopes) ? settings.scopes.join(" ") : settings.scopes;
  const common = { clientId: settings.client_id!, clientName: "Hermes", ...(scope ? { scope } : {}), ...(settings.issuer ? { expectedIssuer: settings.issuer } : {}) };
  if (settings.private_key_pem) return new PrivateKeyJwtProvider({ ...common, privateKey: settings.private_key_pem, algorithm: settings.signing_algorithm });
  return new ClientCredentialsProvider({ ...common, clientSecret: settings.client_secret! });
}
