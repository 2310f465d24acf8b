// What an outbound tool calls before its request leaves: the one check of security/outbound-secrets.ts
// (secrets the session has seen and Hermes's own keys, in any spelling), with the refusal as the
// tool's error. web_fetch, web_search and MCP tools call it; so must any new tool that sends out.
import { checkOutbound, type OutboundRequest } from "../security/outbound-secrets";
import type { ToolContext } from "./context";
import { ToolError } from "./registry";

export async function guardOutbound(ctx: ToolContext, request: OutboundRequest): Promise<void> {
  const refusal = await checkOutbound(ctx, request);
  if (refusal !== undefined) throw new ToolError(refusal);
}
