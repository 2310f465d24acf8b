// The parts of oidc-provider (v9, which ships no types) that test/support/oauth-servers.ts uses.
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  interface Token {
    jti: string;
    aud?: string | string[];
    scope?: string;
    accountId?: string;
    isExpired: boolean;
    destroy(): Promise<void>;
  }
  interface Grant {
    addOIDCScope(scope: string): void;
    addResourceScope(resource: string, scope: string): void;
    save(): Promise<string>;
  }
  interface InteractionDetails {
    prompt: { name: string; details: Record<string, unknown> };
    params: Record<string, unknown>;
    grantId?: string;
    session?: { accountId: string };
  }
  interface Context {
    oidc: { params?: Record<string, unknown> };
  }
  interface RegisteredClient {
    metadata(): Record<string, unknown>;
  }

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(req: IncomingMessage, res: ServerResponse, result: Record<string, unknown>, options?: { mergeWithLastSubmission?: boolean }): Promise<void>;
    on(event: "grant.success", listener: (ctx: Context) => void): this;
    on(event: "registration_create.success", listener: (ctx: Context, client: RegisteredClient) => void): this;
    on(event: "access_token.saved" | "access_token.issued", listener: (token: Token) => void): this;
    on(event: string, listener: (...args: unknown[]) => void): this;
    AccessToken: { find(value: string): Promise<Token | undefined> };
    Grant: { new (fields: { accountId: string; clientId: string }): Grant; find(id: string): Promise<Grant | undefined> };
  }
}
