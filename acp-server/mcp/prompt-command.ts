// MCP prompts as slash commands: `/mcp:<server>:<prompt> [arguments]`. Arguments are
// `name=value` pairs, or plain words given to the prompt's arguments in order (the last one
// takes the rest). The prompt's messages become the user's prompt for a normal turn.
import type { UserPart } from "../providers/types";
import type { McpPromptInfo, McpPromptMessage } from "./connection";
import { resourceText } from "./results";

export interface McpPromptCommand {
  server: string;
  prompt: string;
  argument: string;
}

const PATTERN = /^\/mcp:([^:\s]+):(\S+)(?:\s+([\s\S]*))?$/;

export function parseMcpPromptCommand(text: string): McpPromptCommand | undefined {
  const [, server, prompt, argument = ""] = PATTERN.exec(text.trim()) ?? [];
  return server !== undefined && prompt !== undefined ? { server, prompt, argument: argument.trim() } : undefined;
}

/** The command's name as advertised (without the slash). */
export function mcpPromptCommandName(server: string, prompt: string): string {
  return `mcp:${server}:${prompt}`;
}

/** Maps the typed text to the prompt's arguments; says which required ones are missing. */
export function promptArguments(prompt: McpPromptInfo, text: string): { args: Record<string, string> } | { missing: string[] } {
  const declared = prompt.arguments ?? [];
  const args: Record<string, string> = {};
  const pairs = [...text.matchAll(/(\w[\w-]*)=("([^"]*)"|'([^']*)'|\S+)/g)];
  if (pairs.length > 0 && declared.some((a) => pairs.some((p) => p[1] === a.name))) {
    for (const [, name = "", raw = "", doubleQuoted, singleQuoted] of pairs) args[name] = doubleQuoted ?? singleQuoted ?? raw;
  } else if (text) {
    const words = text.split(/\s+/);
    declared.forEach((argument, index) => {
      if (index >= words.length) return;
      args[argument.name] = index === declared.length - 1 ? words.slice(index).join(" ") : (words[index] ?? "");
    });
  }
  const missing = declared.filter((a) => a.required && !args[a.name]).map((a) => a.name);
  return missing.length ? { missing } : { args };
}

/** The hint shown with the command: its arguments, required ones first. */
export function argumentHint(prompt: McpPromptInfo): string | undefined {
  const declared = prompt.arguments ?? [];
  if (declared.length === 0) return undefined;
  return declared.map((a) => (a.required ? a.name : `${a.name}?`)).join(" ");
}

/** The prompt's messages as the parts of one user prompt (assistant turns are marked as such). */
export function promptMessagesToParts(messages: McpPromptMessage[]): UserPart[] {
  const parts: UserPart[] = [];
  for (const message of messages) {
    const prefix = message.role === "assistant" ? "[assistant] " : "";
    const content = message.content;
    if (content.type === "text" && content.text !== undefined) parts.push({ type: "text", text: prefix + content.text });
    else if (content.type === "image" && content.data && content.mimeType) parts.push({ type: "image", mimeType: content.mimeType, data: content.data });
    else if (content.type === "resource" && content.resource) parts.push({ type: "text", text: prefix + resourceText(content.resource) });
    else if (content.type === "resource_link" && content.uri) parts.push({ type: "text", text: `${prefix}[resource link: ${content.uri}]` });
  }
  return parts;
}
