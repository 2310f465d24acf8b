// One entry of `mcp_servers` in config.yaml, in the shape users already write for Claude
// Desktop and VS Code `mcp.json`: `command`/`args`/`env` (stdio) or `url`/`headers` (HTTP).
// Entries are validated one by one (see mcp/server-spec.ts), so a broken server entry costs
// that server only, never the rest of the configuration. Built on first use (z.lazy): a first
// session/new imports this and, without MCP servers in config.yaml, validates nothing with it.
import * as z from "zod";

/** A pre-registered OAuth client, or what a sign-in asks for. */
const McpOAuthSchema = z.lazy(() =>
  z
    .object({
      /** The client id the authorization server issued (skips dynamic registration). */
      client_id: z.string().min(1).optional(),
      /** Its secret, for confidential clients (use `${ENV}`; never written anywhere by Hermes). */
      client_secret: z.string().min(1).optional(),
      /** Scopes to ask for when the server does not say which it needs. */
      scopes: z.union([z.string().min(1), z.array(z.string().min(1))]).optional(),
      /** The loopback port of the redirect URI registered for `client_id` (http://127.0.0.1:PORT/callback). */
      redirect_port: z.number().int().min(1024).max(65535).optional(),
      /** An https URL of a client ID metadata document, used where the authorization server supports them. */
      client_metadata_url: z.string().url().optional(),
      /**
       * `client_credentials`: a machine signs in with `client_id` and `client_secret`, or with a
       * private key (`private_key_pem`, JWT client assertion signed with `signing_algorithm`); no
       * browser. Default: the user signs in in the browser (authorization code with PKCE).
       */
      grant: z.enum(["authorization_code", "client_credentials", "enterprise"]).default("authorization_code"),
      /**
       * `enterprise` (enterprise-managed authorization, SEP-990): your identity provider's ID token
       * is exchanged at its token endpoint for an identity assertion (RFC 8693), which the MCP
       * server's authorization server takes as a JWT bearer grant (RFC 7523) from `client_id` /
       * `client_secret`; no browser. The ID token usually comes from the environment (`${IDP_ID_TOKEN}`).
       */
      idp_token_endpoint: z.string().url().optional(),
      idp_client_id: z.string().min(1).optional(),
      idp_client_secret: z.string().min(1).optional(),
      idp_id_token: z.string().min(1).optional(),
      private_key_pem: z.string().min(1).optional(),
      signing_algorithm: z.string().min(1).default("RS256"),
      /** The authorization server configured credentials belong to (they are presented to no other). */
      issuer: z.string().url().optional(),
    })
    .strict()
    .superRefine((entry, context) => {
      if (entry.grant !== "authorization_code" && !entry.client_id) context.addIssue({ code: "custom", message: `${entry.grant} needs client_id`, path: ["client_id"] });
      if (entry.grant === "enterprise") {
        for (const key of ["client_secret", "idp_token_endpoint", "idp_client_id", "idp_id_token"] as const) {
          if (!entry[key]) context.addIssue({ code: "custom", message: `enterprise needs ${key}`, path: [key] });
        }
      }
      if (entry.grant === "client_credentials" && !entry.client_secret && !entry.private_key_pem) {
        context.addIssue({ code: "custom", message: "client_credentials needs client_secret or private_key_pem", path: ["client_secret"] });
      }
    }),
);

export type McpOAuthSettings = z.infer<typeof McpOAuthSchema>;

export const McpServerEntrySchema = z.lazy(() =>
  z
    .object({
      /** stdio: the program to run, with its arguments and extra environment. */
      command: z.string().min(1).optional(),
      args: z.array(z.string()).default([]),
      env: z.record(z.string(), z.string()).default({}),
      /** Working directory of a stdio server (default: the session's). */
      cwd: z.string().min(1).optional(),
      /** HTTP: the endpoint, and headers sent with every request. */
      url: z.string().min(1).optional(),
      headers: z.record(z.string(), z.string()).default({}),
      /** Transport; inferred from `command` / `url` when absent. `http` falls back to SSE when the server only speaks that. */
      type: z.enum(["stdio", "http", "sse"]).optional(),
      enabled: z.boolean().default(true),
      /** Seconds a tool call may take. */
      timeout: z.number().positive().default(120),
      /** Only these tools (by the server's names); all when absent. */
      include_tools: z.array(z.string().min(1)).optional(),
      exclude_tools: z.array(z.string().min(1)).default([]),
      /** Tools that ask the user (an ACP permission request) before every call. */
      require_confirmation: z.array(z.string().min(1)).default([]),
      /**
       * HTTP servers: OAuth sign-in (on by default; a server that never answers 401 never uses
       * it). `false` turns it off (a token in `headers` instead); an object names a client the
       * authorization server already knows, when it does not allow dynamic registration.
       */
      oauth: z.union([z.literal(false), McpOAuthSchema]).optional(),
    })
    .strict()
    .superRefine((entry, context) => {
      const type = entry.type ?? (entry.command ? "stdio" : "http");
      if (type === "stdio" && !entry.command) context.addIssue({ code: "custom", message: "a stdio server needs `command`", path: ["command"] });
      if (type !== "stdio" && !entry.url) context.addIssue({ code: "custom", message: "needs `command` (stdio) or `url` (http, sse)", path: ["url"] });
      if (entry.command && entry.url) context.addIssue({ code: "custom", message: "has both `command` and `url`; keep one", path: ["url"] });
    }),
);

export const McpSettingsSchema = z.lazy(() =>
  z
    .object({
      /** Seconds session/new waits for MCP servers to connect; slower ones finish in the background. */
      connect_wait: z.number().min(0).max(60).default(3),
    })
    .strict(),
);

