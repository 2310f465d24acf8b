// What acting on a page must pass: plan mode allows navigating and reading only, so clicking,
// typing, pressing keys and choosing options are asked like a non-read-only MCP tool (refused in
// plan mode, allowed otherwise); JavaScript (browser_evaluate) is always asked in default mode.
import type { ToolContext } from "../context";
import { ToolError } from "../registry";

export async function gateAction(ctx: ToolContext, tool: string, title: string, options: { confirm?: boolean } = {}): Promise<void> {
  const allowed = await ctx.requestPermission({ action: "other", title, mcp: { server: "browser", tool, readOnly: false, confirm: options.confirm === true } });
  if (!allowed) throw new ToolError(`Not allowed: ${title}. In plan mode the browser only navigates and reads.`);
}
