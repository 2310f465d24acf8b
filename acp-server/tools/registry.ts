// The tool registry. Each tool file calls defineTool() at import time with its whole
// definition; tools/index.ts imports the files. Nothing else lists tools by name.
import { z } from "zod";
import type { DisplayContent, ImagePart, Location, ToolContext } from "./context";

/** ACP tool kinds (the editor picks an icon from them). */
export type ToolKind = "read" | "edit" | "delete" | "move" | "search" | "execute" | "think" | "fetch" | "other";

export interface ToolResult {
  /** Sent to the model as JSON text. */
  output: unknown;
  /** Shown in the editor's tool call card. Defaults to the output as text. */
  content?: DisplayContent[];
  locations?: Location[];
  /** The call failed: the card ends "failed"; the model still reads `output`. */
  isError?: boolean;
  /** Images for the model beside the text (MCP tools); providers that cannot take them get `output` only. */
  images?: ImagePart[];
}

/** An error the model should read as the tool's result (bad path, no match, ...). */
export class ToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ToolError";
  }
}

export interface ToolDefinition<S extends z.ZodType = z.ZodType> {
  name: string;
  /** Group name used for enabling tools in bulk (file, terminal, planning, ...). */
  toolset: string;
  description: string;
  schema: S;
  kind: ToolKind;
  /** Read-only tools may run concurrently with each other. */
  readOnly: boolean;
  /** Cap on the JSON text the model receives. */
  maxResultChars?: number;
  /** true, or a reason the tool is unavailable on this machine. */
  isAvailable?: () => true | string;
  /** JSON Schema sent to the model instead of one generated from `schema` (MCP tools bring their own). */
  inputJsonSchema?: Record<string, unknown>;
  /** Human title for the tool call card, e.g. "read src/app.ts". */
  title: (args: z.infer<S>, cwd: string) => string;
  locations?: (args: z.infer<S>, cwd: string) => Location[];
  handler: (args: z.infer<S>, ctx: ToolContext) => Promise<ToolResult>;
}

export const DEFAULT_MAX_RESULT_CHARS = 100_000;

const tools = new Map<string, ToolDefinition>();

export function defineTool<S extends z.ZodType>(definition: ToolDefinition<S>): ToolDefinition<S> {
  if (tools.has(definition.name)) throw new Error(`Tool ${definition.name} is defined twice`);
  tools.set(definition.name, definition as unknown as ToolDefinition);
  sortedTools = undefined;
  return definition;
}

/** Every defined tool by name; sorted again only when a tool is defined (see listTools). */
let sortedTools: ToolDefinition[] | undefined;

export function getTool(name: string): ToolDefinition | undefined {
  return tools.get(name);
}

/** Available tools in a stable (name) order, so requests stay byte-identical for prompt caching. */
export function listTools(): ToolDefinition[] {
  // The sort (localeCompare) is paid once per tool set, not per turn; availability can
  // change at any time, so it is still asked on every call. A fresh array each time.
  sortedTools ??= [...tools.values()].sort((a, b) => a.name.localeCompare(b.name));
  return sortedTools.filter((tool) => (tool.isAvailable?.() ?? true) === true);
}

/**
 * Tools a session has beyond the registry's (its MCP servers'), in a stable order. They are
 * listed per request, never in the frozen system prompt, so servers may come and go.
 */
export interface SessionToolSource {
  list(): ToolDefinition[];
}

/** A session's tools: the registry's (by name), then its own (by name), so the order is stable. */
export function sessionTools(extra?: SessionToolSource): ToolDefinition[] {
  const own = extra?.list() ?? [];
  return own.length === 0 ? listTools() : [...listTools(), ...own];
}

/** A tool by name among the registry's and then the session's own. */
export function findSessionTool(name: string, extra?: SessionToolSource): ToolDefinition | undefined {
  return tools.get(name) ?? extra?.list().find((tool) => tool.name === name);
}

const jsonSchemaCache = new WeakMap<ToolDefinition, Record<string, unknown>>();

/** JSON Schema of a tool's arguments, generated from its zod schema. */
export function toolJsonSchema(tool: ToolDefinition): Record<string, unknown> {
  if (tool.inputJsonSchema) return tool.inputJsonSchema;
  let schema = jsonSchemaCache.get(tool);
  if (!schema) {
    const { $schema: _ignored, ...rest } = z.toJSONSchema(tool.schema, { io: "input" }) as Record<string, unknown>;
    schema = rest;
    jsonSchemaCache.set(tool, schema);
  }
  return schema;
}

/** Serializes a result for the model, cutting it at the cap with an explicit note. */
export function resultText(output: unknown, maxChars: number = DEFAULT_MAX_RESULT_CHARS): string {
  const text = typeof output === "string" ? output : JSON.stringify(output);
  if (text.length <= maxChars) return text;
  const dropped = text.length - maxChars;
  return `${text.slice(0, maxChars)}\n[truncated: ${dropped} more characters not shown; narrow the request (offset/limit, a tighter pattern) to see them]`;
}
