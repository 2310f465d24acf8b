// What the permission policy decides on: the action a tool is about to take. Tools ask with a
// PermissionAsk (tools/context.ts), which adds what the prompt shows to the user; the policy sits
// below the tools and reads only this part, so it needs nothing from the tools' layer.

export type PermissionAction = "read" | "edit" | "execute" | "delete" | "other";

export interface PolicyAsk {
  action: PermissionAction;
  /** Absolute paths the action touches (used by policy and shown to the user). */
  paths?: string[];
  /**
   * The real paths a file tool will actually open (resolved once before asking: tools/pinned-target.ts).
   * Judged like `paths`, so a name that flips between a file and a link is judged as the I/O will use it.
   */
  resolved?: string[];
  /** The path resolves elsewhere than when it was approved (or judged): asked each time; refused in dont_ask and plan mode. */
  moved?: boolean;
  command?: string;
  /** The absolute folder a command runs in, when it is not the session folder (the terminal tool's workdir). */
  workdir?: string;
  /** An MCP server's tool: plan mode runs only read-only ones; `confirm` ones always ask. */
  mcp?: { server: string; tool: string; readOnly: boolean; confirm: boolean };
  /** web_fetch reaching a host: asked per host (plan mode too), remembered per host. */
  web?: { host: string; url: string };
  /**
   * An outbound tool would send a secret (security/outbound-secrets.ts): asked in every mode,
   * dont_ask and plan included, never remembered. `names` say which secret and how it was spelled.
   */
  outboundSecret?: { names: string[]; destination: string };
  /** Files (`paths`) handed to a web page on `destination` (browser_upload): security/upload-policy.ts decides. */
  upload?: { destination: string };
  /** Run a command once outside the OS sandbox: always asked, never granted by dont_ask or plan mode. */
  unsandboxed?: boolean;
  /** Why it must run outside the sandbox (the model's words, shown to the user). */
  unsandboxedReason?: string;
}
