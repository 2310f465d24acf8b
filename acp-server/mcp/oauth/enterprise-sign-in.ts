// `oauth.grant: enterprise`: enterprise-managed authorization (MCP SEP-990). The company's
// identity provider already vouches for the user (an ID token); Hermes exchanges it there for an
// identity assertion meant for the MCP server's authorization server (RFC 8693 token exchange,
// requested type id-jag, audience that server, resource the MCP server), then presents the
// assertion as a JWT bearer grant (RFC 7523) with its own client credentials. The MCP SDK runs the
// rest (discovery, the token request with client authentication and `resource`); this provider
// supplies the grant. Tokens stay in memory: getting another needs nobody.
import type { OAuthClientProvider, OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import * as z from "zod";
import type { McpOAuthSettings } from "../../config/mcp-schema";
import { VERSION } from "../../version";

const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";

/** What the identity provider answers a token exchange with (untrusted input). */
const ExchangeAnswer = z.object({ access_token: z.string().min(1), issued_token_type: z.string().optional() });

export class EnterpriseProvider implements OAuthClientProvider {
  readonly redirectUrl = undefined;
  private saved?: OAuthTokens;
  private discovery?: OAuthDiscoveryState;

  constructor(private readonly settings: McpOAuthSettings) {}

  get clientMetadata(): OAuthClientMetadata {
    return { client_name: "Hermes", software_version: VERSION, redirect_uris: [], grant_types: [JWT_BEARER], token_endpoint_auth_method: "client_secret_basic" };
  }

  clientInformation(): OAuthClientInformationMixed {
    return { client_id: this.settings.client_id!, client_secret: this.settings.client_secret!, ...(this.settings.issuer ? { issuer: this.settings.issuer } : {}) };
  }

  tokens(): OAuthTokens | undefined {
    return this.saved;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.saved = tokens;
  }

  redirectToAuthorization(): never {
    throw new Error("an enterprise-managed sign-in never sends anyone to a browser");
  }

  saveCodeVerifier(): void {
    // expected: no authorization code flow here, so no PKCE verifier to keep
  }

  codeVerifier(): never {
    throw new Error("an enterprise-managed sign-in has no PKCE code verifier");
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): void {
    if (scope === "all" || scope === "tokens") this.saved = undefined;
    if (scope === "all" || scope === "discovery") this.discovery = undefined;
  }

  /** The JWT bearer grant, its assertion fresh from the identity provider. */
  async prepareTokenRequest(scope?: string): Promise<URLSearchParams> {
    const discovery = this.discovery;
    const audience = (discovery?.authorizationServerMetadata?.issuer as string | undefined) ?? discovery?.authorizationServerUrl;
    const resource = discovery?.resourceMetadata?.resource;
    if (!audience || !resource) throw new Error("the MCP server's authorization server or resource is unknown (its metadata was not found)");
    const assertion = await this.exchangeIdToken(audience, resource, scope);
    return new URLSearchParams({ grant_type: JWT_BEARER, assertion, ...(scope ? { scope } : {}) });
  }

  private async exchangeIdToken(audience: string, resource: string, scope: string | undefined): Promise<string> {
    const { idp_token_endpoint: endpoint, idp_client_id: clientId, idp_client_secret: secret, idp_id_token: idToken } = this.settings;
    const body = new URLSearchParams({
      grant_type: TOKEN_EXCHANGE,
      subject_token: idToken!,
      subject_token_type: "urn:ietf:params:oauth:token-type:id_token",
      requested_token_type: "urn:ietf:params:oauth:token-type:id-jag",
      audience,
      resource,
      ...(scope ? { scope } : {}),
      ...(secret ? {} : { client_id: clientId! }),
    });
    const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded", accept: "application/json" };
    if (secret) headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(clientId!)}:${encodeURIComponent(secret)}`).toString("base64")}`;
    const response = await fetch(endpoint!, { method: "POST", headers, body, signal: AbortSignal.timeout(30_000) });
    const text = await response.text();
    if (!response.ok) throw new Error(`the identity provider refused the token exchange (HTTP ${response.status}): ${text.slice(0, 300)}`);
    let parsed: z.ZodSafeParseResult<z.infer<typeof ExchangeAnswer>>;
    try {
      parsed = ExchangeAnswer.safeParse(JSON.parse(text));
    } catch (error) {
      throw new Error("the identity provider's token exchange answer is not JSON", { cause: error });
    }
    if (!parsed.success) throw new Error("the identity provider's token exchange answer has no access_token");
    return parsed.data.access_token;
  }
}
