// The events `hermes -p … --output-format stream-json` prints, one JSON object per line, and the
// one object `--output-format json` prints at the end (the `result` event). Declared with zod:
// this is the contract scripts rely on, and the tests validate every line against it.
import * as z from "zod";

const base = { session_id: z.string() };

export const InitEvent = z.object({ type: z.literal("system"), subtype: z.literal("init"), ...base, cwd: z.string(), hermes_version: z.string() });
export const MessageChunkEvent = z.object({ type: z.literal("message_chunk"), ...base, text: z.string() });
export const ThoughtChunkEvent = z.object({ type: z.literal("thought_chunk"), ...base, text: z.string() });
export const ToolCallEvent = z.object({
  type: z.literal("tool_call"),
  ...base,
  tool_call_id: z.string(),
  title: z.string(),
  kind: z.string().optional(),
  status: z.string().optional(),
  input: z.unknown().optional(),
});
export const ToolCallUpdateEvent = z.object({
  type: z.literal("tool_call_update"),
  ...base,
  tool_call_id: z.string(),
  status: z.string().optional(),
  title: z.string().optional(),
  /** The text content the tool produced, when it has any. */
  output: z.string().optional(),
});
export const PermissionEvent = z.object({
  type: z.literal("permission"),
  ...base,
  tool_call_id: z.string(),
  tool: z.string().optional(),
  title: z.string(),
  decision: z.enum(["allowed", "rejected"]),
  /** Why: --yes, --allowed-tools, a question answered on the terminal, or no terminal to ask on. */
  by: z.enum(["yes_flag", "allowed_tools", "terminal", "no_terminal"]),
});
export const PlanEvent = z.object({ type: z.literal("plan"), ...base, entries: z.array(z.object({ content: z.string(), status: z.string(), priority: z.string().optional() })) });
export const UsageEvent = z.object({ type: z.literal("usage"), ...base, used: z.number(), size: z.number(), cost_usd: z.number().optional() });
export const ResultEvent = z.object({
  type: z.literal("result"),
  ...base,
  subtype: z.enum(["success", "error", "cancelled", "max_turns", "max_tokens", "refusal"]),
  is_error: z.boolean(),
  stop_reason: z.string().optional(),
  /** Everything the agent said in the turn. */
  result: z.string(),
  duration_ms: z.number(),
  usage: z.object({ input_tokens: z.number(), output_tokens: z.number(), cached_input_tokens: z.number().optional(), thought_tokens: z.number().optional() }).optional(),
  error: z.string().optional(),
});

export const StreamJsonEvent = z.discriminatedUnion("type", [InitEvent, MessageChunkEvent, ThoughtChunkEvent, ToolCallEvent, ToolCallUpdateEvent, PermissionEvent, PlanEvent, UsageEvent, ResultEvent]);
export type StreamJsonEvent = z.infer<typeof StreamJsonEvent>;
export type ResultEvent = z.infer<typeof ResultEvent>;
export type PermissionEvent = z.infer<typeof PermissionEvent>;
