// One MCP server's OAuth sign-in as its connection drives it. The SDK decides when the browser
// must go to the authorization server (HermesOAuthProvider.redirectToAuthorization); then this
// starts the loopback listener, keeps the link for whoever shows it (the editor as a URL-mode
// elicitation or a message, the terminal, `hermes mcp login`), and hands the code that comes
// back to the transport (`finishAuth`). `HERMES_MCP_SIGN_IN=fetch` follows the link itself with
// plain GETs: for authorization servers that approve without a person (the MCP conformance
// suite, CI), never for a real one, which shows a login page and goes nowhere.
import type { McpOAuthSettings } from "../../config/mcp-schema";
import type { Logger } from "../../util/log";
import { McpAuthStore } from "./auth-store";
import { listenForRedirect, SignInFailedError, type LoopbackRedirect } from "./loopback-redirect";
import { HermesOAuthProvider } from "./oauth-provider";

/** How long a shown sign-in link stays good: the user may be reading the consent page. */
export const SIGN_IN_TIMEOUT_MS = 10 * 60_000;

/** A sign-in waiting for the browser. */
export interface PendingSignIn {
  url: URL;
  redirect: LoopbackRedirect;
  /** The code traded for tokens, once someone waits for it (one trade per link, however many wait). */
  completion?: Promise<void>;
}

/** What can finish a sign-in: the transport whose request was refused (the SDK keeps the scope and metadata it learnt). */
export interface FinishesAuth {
  finishAuth(authorizationCode: string): Promise<void>;
}

/** The loopback port Hermes picked was taken; another is picked, and signing in again works. */
export class RedirectPortTakenError extends SignInFailedError {
  constructor(message: string) {
    super(message);
    this.name = "RedirectPortTakenError";
  }
}

export class ServerSignIn {
  readonly provider: HermesOAuthProvider;
  readonly store: McpAuthStore;
  pending?: PendingSignIn;
  private readonly watchers = new Set<(pending: PendingSignIn) => void>();

  constructor(
    serverUrl: string,
    private readonly serverName: string,
    settings: McpOAuthSettings | undefined,
    private readonly log: Logger,
    /** HERMES_MCP_SIGN_IN=fetch: the link is followed here, not shown. */
    readonly followsLinks = process.env.HERMES_MCP_SIGN_IN === "fetch",
  ) {
    this.store = new McpAuthStore(serverUrl, serverName, log);
    this.provider = new HermesOAuthProvider(this.store, settings, (url) => this.browserNeeded(url));
  }

  /** Called with every new sign-in link (the session shows it); returns the unsubscribe. */
  onLink(watcher: (pending: PendingSignIn) => void): () => void {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }

  /** Waits for the browser, then lets the transport trade the code for tokens (once per link). */
  async finish(transport: FinishesAuth, signal?: AbortSignal): Promise<void> {
    const pending = this.pending;
    if (!pending) throw new SignInFailedError(`No sign-in to the MCP server "${this.serverName}" is under way: run /mcp login ${this.serverName}.`);
    pending.completion ??= pending.redirect.code
      .then((code) => transport.finishAuth(code))
      .then(() => this.log.info("signed in to an MCP server", { server: this.serverName }))
      .finally(() => {
        if (this.pending === pending) this.pending = undefined;
      });
    if (!signal) return pending.completion;
    await Promise.race([
      pending.completion,
      new Promise<never>((_, reject) => {
        const stop = () => reject(new SignInFailedError(`Waiting for the sign-in to the MCP server "${this.serverName}" was cancelled.`));
        if (signal.aborted) stop();
        else signal.addEventListener("abort", stop, { once: true });
      }),
    ]);
  }

  /** Forgets the tokens (the next connection signs in again); the registered client stays. */
  forgetTokens(): void {
    this.provider.invalidateCredentials("tokens");
  }

  close(): void {
    this.pending?.redirect.close();
    this.pending = undefined;
  }

  private async browserNeeded(url: URL): Promise<void> {
    this.pending?.redirect.close();
    this.pending = undefined;
    let redirect: LoopbackRedirect;
    try {
      redirect = await listenForRedirect({ port: this.provider.port, state: this.provider.currentState, serverName: this.serverName, timeoutMs: SIGN_IN_TIMEOUT_MS });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw error;
      const taken = this.provider.port;
      if (!this.provider.releaseTakenPort()) {
        throw new SignInFailedError(`Port ${taken} (oauth.redirect_port of the MCP server "${this.serverName}") is in use by another program: free it and sign in again.`);
      }
      throw new RedirectPortTakenError(`The sign-in port ${taken} is in use by another program; sign in to the MCP server "${this.serverName}" again (Hermes has picked another).`);
    }
    const pending = { url, redirect };
    this.pending = pending;
    this.log.info("an MCP server needs a sign-in in the browser", { server: this.serverName, authorizationServer: url.origin });
    if (this.followsLinks) void this.followLink(url);
    for (const watcher of this.watchers) watcher(pending);
  }

  /**
   * HERMES_MCP_SIGN_IN=fetch: GET the link and its redirects as a browser would (keeping the
   * cookies the authorization server sets between its own pages) until the loopback answers.
   */
  private async followLink(url: URL): Promise<void> {
    const cookies = new Map<string, Map<string, string>>();
    let next: URL | undefined = url;
    try {
      for (let hop = 0; next && hop < 20; hop++) {
        const jar = cookies.get(next.origin) ?? new Map<string, string>();
        cookies.set(next.origin, jar);
        const headers: Record<string, string> = jar.size ? { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join("; ") } : {};
        const response: Response = await fetch(next, { redirect: "manual", headers, signal: AbortSignal.timeout(30_000) });
        for (const line of response.headers.getSetCookie()) {
          const [pair = ""] = line.split(";");
          const at = pair.indexOf("=");
          if (at > 0) jar.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
        }
        const location = response.headers.get("location");
        await response.body?.cancel();
        next = location ? new URL(location, next) : undefined;
      }
    } catch (error) {
      this.log.warn("following an MCP sign-in link failed", { server: this.serverName, error });
    }
  }
}
