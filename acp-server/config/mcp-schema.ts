// One entry of `mcp_servers` in config.yaml, in the shape users already write for Claude
// Desktop and VS Code `mcp.json`: `command`/`args`/`env` (stdio) or `url`/`headers` (HTTP).
// Entries are validated one by one (see mcp/server-spec.ts), so a broken server entry costs
// that server only, never the rest of the configuration. Built on first use (z.lazy): a first
// session/new imports this and, without MCP servers in config.yaml, validates nothing with it.
import * as z from "zod";

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

