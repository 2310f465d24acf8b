// What a tool is (its definition and result) and how its arguments and results are shown to
// the model. Each tool file exports its definition; tools/all-tools.ts lists them in a
// ToolRegistry (tool-set.ts). Importing a tool file has no effect beyond defining it.
import * as z from "zod";
import type { DisplayContent, ImagePart, Location, ToolContext } from "./context";
import type { FullOutput } from "./output-spill";
import { AgentError } from "../util/agent-error";

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
  /**
   * Ends the turn after this tool, with this text as the agent's reply (clarify's free-text
   * question when the editor cannot ask mid-turn: the user's next prompt is the answer).
   */
  endTurnWith?: string;
  /** The whole output, spilled to a file when the card could show only part of it (its path goes in the card's `_meta`). */
  fullOutput?: FullOutput;
}

/** An error the model should read as the tool's result (bad path, no match, ...). */
export class ToolError extends AgentError<"tool"> {
  constructor(message: string) {
    super("tool", message, {});
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

/** Types a tool's definition against its schema. Registers nothing: tools/all-tools.ts lists the tools. */
export function defineTool<S extends z.ZodType>(definition: ToolDefinition<S>): ToolDefinition<S> {
  return definition;
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
