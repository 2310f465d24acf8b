// Hermes's side of the MCP SDK's OAuth client (OAuthClientProvider): the SDK does discovery
// (protected-resource metadata, then authorization-server metadata or OIDC), dynamic client
// registration or a client ID metadata document, PKCE, the resource parameter, scope choice,
// step-up and refresh; this class only keeps what it hands over (auth-store.ts) and says where
// the browser goes (`onRedirect`: the connection starts the loopback listener and shows the
// link). The PKCE verifier and state never leave memory: the redirect comes back to this process.
import { randomBytes } from "node:crypto";
import type { OAuthClientProvider, OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { McpOAuthSettings } from "../../config/mcp-schema";
import { randomPickedPort, settleFreePort } from "../../util/loopback-port";
import { VERSION } from "../../version";
import { accountOf, type McpAuthStore } from "./auth-store";
import { redirectUrlFor } from "./loopback-redirect";

export class HermesOAuthProvider implements OAuthClientProvider {
  /** The loopback redirect port: configured, the one the stored registration names, or picked. */
  port: number;
  readonly clientMetadataUrl?: string;
  private verifier?: string;
  /**
   * Scopes a 403 insufficient_scope asked for (seen by `watchScopeChallenges`). A refresh can
   * never widen a grant (RFC 6749, section 6), so while the stored token lacks one of them the
   * refresh token is held back and the SDK goes to the browser with the wider scope.
   */
  private requiredScopes?: Set<string>;
  /** Sign-ins the SDK began (it reads the discovery state first, and only after a 401 or 403): a failure after one is a sign-in failure. */
  authAttempts = 0;
  /** The state of the latest authorization request: the loopback listener accepts only it. */
  currentState = "";

  constructor(
    private readonly store: McpAuthStore,
    private readonly settings: McpOAuthSettings | undefined,
    /** The browser must go to `url` (the connection shows it and waits on the redirect). */
    private readonly onRedirect: (url: URL, provider: HermesOAuthProvider) => Promise<void>,
  ) {
    this.port = settings?.redirect_port ?? store.read().redirect_port ?? randomPickedPort();
    if (settings?.client_metadata_url) this.clientMetadataUrl = settings.client_metadata_url;
  }

  /** Whether the port is Hermes's choice (not configured, and no registration names it yet). */
  private get portIsOpen(): boolean {
    return !this.settings?.redirect_port && this.store.read().client_information === undefined;
  }

  /**
   * Before a sign-in that will register a client: a port Hermes picked is one that is free now,
   * so the redirect URI it registers can be listened on.
   */
  async settlePort(): Promise<void> {
    if (!this.portIsOpen) return;
    this.port = await settleFreePort(this.port);
  }

  /**
   * The picked port was taken before the browser could come back to it: the registration that
   * names it is dropped and another port is picked, so the next sign-in registers afresh.
   * Returns false for a configured port, which only the user can free.
   */
  releaseTakenPort(): boolean {
    if (this.settings?.redirect_port) return false;
    this.store.update((record) => {
      const next = { ...record };
      delete next.client_information;
      delete next.redirect_port;
      return next;
    });
    this.port = randomPickedPort();
    return true;
  }

  get redirectUrl(): string {
    return redirectUrlFor(this.port);
  }

  get clientMetadata(): OAuthClientMetadata {
    const scopes = this.settings?.scopes;
    const secret = this.settings?.client_secret;
    return {
      client_name: "Hermes",
      software_id: "hermes-agent-editors",
      software_version: VERSION,
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: secret ? "client_secret_basic" : "none",
      ...(scopes ? { scope: Array.isArray(scopes) ? scopes.join(" ") : scopes } : {}),
    };
  }

  /** A fresh state for each authorization request (the SDK asks once per request). */
  state(): string {
    this.currentState = randomBytes(24).toString("base64url");
    return this.currentState;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    const record = this.store.read();
    const configured = this.settings?.client_id;
    if (configured) {
      // A configured client, bound to the authorization server it was first used with.
      const bound = this.settings?.issuer ?? (record.client_information?.client_id === configured ? (record.client_information.issuer as string | undefined) : undefined);
      return { client_id: configured, ...(this.settings?.client_secret ? { client_secret: this.settings.client_secret } : {}), ...(bound ? { issuer: bound } : {}) };
    }
    const registered = record.client_information as (OAuthClientInformationMixed & { scope?: string }) | undefined;
    // Registered for fewer scopes than a step-up needs: servers hold a client to its registered
    // scopes, so it registers again for the wider ones (this registration is replaced).
    if (registered && this.requiredScopes && typeof registered.scope === "string") {
      const allowed = new Set(registered.scope.split(" "));
      if (![...this.requiredScopes].every((scope) => allowed.has(scope))) return undefined;
    }
    return registered;
  }

  saveClientInformation(information: OAuthClientInformationMixed): void {
    // A configured client's secret stays in config.yaml: only its id and issuer are kept.
    const kept = this.settings?.client_id ? { client_id: information.client_id, ...(information.issuer ? { issuer: information.issuer } : {}) } : information;
    this.store.update((record) => ({ ...record, client_information: kept as typeof record.client_information, redirect_port: this.port }));
  }

  tokens(): OAuthTokens | undefined {
    const tokens = this.store.read().tokens as OAuthTokens | undefined;
    if (!tokens?.refresh_token || !this.requiredScopes) return tokens;
    const granted = new Set((tokens.scope ?? "").split(" "));
    if ([...this.requiredScopes].every((scope) => granted.has(scope))) return tokens;
    const { refresh_token: _held, ...withoutRefresh } = tokens;
    return withoutRefresh;
  }

  /** A fetch for the transports that notes the scopes a 403 insufficient_scope names (see `requiredScopes`). */
  watchScopeChallenges(inner: typeof fetch = fetch): typeof fetch {
    return async (input, init) => {
      const response = await inner(input, init);
      if (response.status === 403) {
        const challenge = response.headers.get("www-authenticate") ?? "";
        if (/error="?insufficient_scope/.test(challenge)) {
          const scope = /scope="([^"]*)"/.exec(challenge)?.[1];
          if (scope) this.requiredScopes = new Set(scope.split(" ").filter(Boolean));
        }
      }
      return response;
    };
  }

  saveTokens(tokens: OAuthTokens): void {
    this.store.update((record) => {
      // A refresh answer may leave out the refresh token and the ID token: the old ones still hold.
      const refresh = tokens.refresh_token ?? (record.tokens?.issuer === tokens.issuer ? record.tokens?.refresh_token : undefined);
      const account = accountOf(tokens.id_token) ?? record.account;
      return { ...record, tokens: { ...tokens, ...(refresh ? { refresh_token: refresh } : {}) }, tokens_saved_at: Date.now(), ...(account ? { account } : {}) };
    });
    this.requiredScopes = undefined;
  }

  redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    return this.onRedirect(authorizationUrl, this);
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new Error("no sign-in was started in this process (no PKCE code verifier)");
    return this.verifier;
  }

  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): void {
    if (scope === "verifier") {
      this.verifier = undefined;
      return;
    }
    this.store.update((record) => {
      const next = { ...record };
      if (scope === "all" || scope === "client") delete next.client_information;
      if (scope === "all" || scope === "tokens") {
        delete next.tokens;
        delete next.tokens_saved_at;
      }
      if (scope === "all" || scope === "discovery") delete next.discovery_state;
      return next;
    });
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.store.update((record) => ({ ...record, discovery_state: state as unknown as Record<string, unknown> }));
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    this.authAttempts++;
    return this.store.read().discovery_state as OAuthDiscoveryState | undefined;
  }
}

