// Model-facing names of MCP tools: `mcp_<server>_<tool>`, within every provider's rules
// (letters, digits, `_` and `-`; at most 64 characters), unique within the session.
import { createHash } from "node:crypto";

export const MAX_TOOL_NAME = 64;

export function sanitizeNamePart(text: string): string {
  const cleaned = text.replace(/[^A-Za-z0-9_-]+/g, "_").replace(/^_+|_+$/g, "");
  return cleaned || "x";
}

/** `mcp_<server>_<tool>`; a long one keeps its start and ends in a short hash of the whole. */
export function mcpToolName(server: string, tool: string): string {
  const full = `mcp_${sanitizeNamePart(server)}_${sanitizeNamePart(tool)}`;
  if (full.length <= MAX_TOOL_NAME) return full;
  const hash = createHash("sha256").update(`${server}\u0000${tool}`).digest("hex").slice(0, 8);
  return `${full.slice(0, MAX_TOOL_NAME - hash.length - 1)}_${hash}`;
}

/** The name, or the name with `_2`, `_3`… when `taken` already has it (kept within 64 characters). */
export function uniqueName(name: string, taken: Set<string>): string {
  let candidate = name;
  for (let n = 2; taken.has(candidate); n++) {
    const suffix = `_${n}`;
    candidate = `${name.slice(0, MAX_TOOL_NAME - suffix.length)}${suffix}`;
  }
  taken.add(candidate);
  return candidate;
}

/** The toolset an MCP server's tools belong to. */
export function mcpToolset(server: string): string {
  return `mcp-${sanitizeNamePart(server)}`;
}
