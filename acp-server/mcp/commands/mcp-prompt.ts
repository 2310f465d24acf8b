// `/mcp:<server>:<prompt> [arguments]`: fetches the MCP prompt and turns its messages into
// the user's prompt for a normal turn. Problems (unknown server or prompt, missing
// arguments, a failing server) are answered as text, without the model.
import { parseMcpPromptCommand, promptArguments, promptMessagesToParts, type McpPromptCommand } from "../prompt-command";
import type { UserPart } from "../../providers/types";
import type { LiveSession } from "../../runtime/live-session";

/** The MCP prompt a prompt's whole text (when it is one text block) invokes, if any. */
export function mcpPromptOf(onlyText: string | undefined): McpPromptCommand | undefined {
  return onlyText === undefined ? undefined : parseMcpPromptCommand(onlyText);
}

export async function expandMcpPrompt(command: McpPromptCommand, session: LiveSession, signal: AbortSignal): Promise<{ ok: true; parts: UserPart[] } | { ok: false; message: string }> {
  const connection = session.mcp?.connection(command.server);
  if (!connection) return { ok: false, message: `No MCP server "${command.server}" in this session. \`/mcp\` lists them.` };
  const prompt = connection.prompts.find((p) => p.name === command.prompt);
  if (!prompt) {
    const known = connection.prompts.map((p) => `\`/mcp:${command.server}:${p.name}\``).join(", ");
    return { ok: false, message: `MCP server "${command.server}" has no prompt "${command.prompt}"${connection.status === "ready" ? `. Its prompts: ${known || "none"}.` : ` (it is ${connection.status}).`}` };
  }
  const mapped = promptArguments(prompt, command.argument);
  if ("missing" in mapped) return { ok: false, message: `\`/mcp:${command.server}:${command.prompt}\` needs ${mapped.missing.map((name) => `\`${name}\``).join(", ")}: write \`name=value\` pairs or the values in order.` };
  try {
    const parts = promptMessagesToParts(await connection.getPrompt(command.prompt, mapped.args, signal));
    if (parts.length === 0) return { ok: false, message: `The MCP prompt "${command.prompt}" came back empty.` };
    return { ok: true, parts };
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
}
