// An MCP server's `elicitation/create`, answered by the user through the session's front end
// (the tool call that is running when the server asks: the server asks because of it). The
// answer goes back as the user gave it (accept with content, decline, cancel); an accepted form
// is first completed with the schema's defaults and checked against the schema the server
// asked with, so a malformed answer never reaches the server. Nobody to ask (a subagent, a
// headless run, no tool call of this session in flight) is a decline whose `_meta` says why.
import type { ElicitationAnswer, ElicitationAsk, ElicitationValue, UserElicitation } from "../tools/elicitation";
import type { Logger } from "../util/log";

/** `_meta` key of the reason Hermes declined without asking anyone. */
export const DECLINE_REASON_META = "io.hermes/declineReason";

type Field = Record<string, unknown>;
type FormSchema = Extract<ElicitationAsk, { mode: "form" }>["requestedSchema"];

/** The MCP request's params, as the SDK validated them (mode already defaulted to "form"). */
export type McpElicitParams =
  | { mode?: "form"; message: string; requestedSchema: FormSchema }
  | { mode: "url"; message: string; url: string; elicitationId: string };

export interface McpElicitResult {
  action: "accept" | "decline" | "cancel";
  content?: Record<string, ElicitationValue>;
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

export async function answerServerElicitation(
  server: string,
  params: McpElicitParams,
  asker: UserElicitation | undefined,
  signal: AbortSignal,
  log: Logger,
): Promise<McpElicitResult> {
  if (!asker) return declineWith(server, "no user can answer here (a subagent, a headless run, or no tool call of this session is running)", log);
  const ask: ElicitationAsk =
    params.mode === "url"
      ? { mode: "url", message: `${server}: ${params.message}`, url: params.url, elicitationId: scopedElicitationId(server, params.elicitationId) }
      : { mode: "form", message: `${server}: ${params.message}`, requestedSchema: params.requestedSchema };
  const answer = await asker.ask(ask, signal);
  if (answer.action !== "accept") return withReason(answer);
  if (ask.mode === "url") return { action: "accept" };
  const content = withDefaults(ask.requestedSchema, answer.content ?? {});
  const problem = formProblem(ask.requestedSchema, content);
  if (problem) {
    log.warn("an elicitation answer does not fit the MCP server's form; sent as cancelled", { server, problem });
    return { action: "cancel", _meta: { [DECLINE_REASON_META]: `the answer did not fit the form: ${problem}` } };
  }
  return { action: "accept", content };
}

/** The ACP elicitation id of an MCP server's URL elicitation (ids are per server; ours per session). */
export function scopedElicitationId(server: string, elicitationId: string): string {
  return `mcp:${server}:${elicitationId}`;
}

function declineWith(server: string, reason: string, log: Logger): McpElicitResult {
  log.info("declined an MCP server's elicitation", { server, reason });
  return { action: "decline", _meta: { [DECLINE_REASON_META]: reason } };
}

function withReason(answer: Exclude<ElicitationAnswer, { action: "accept" }>): McpElicitResult {
  return answer.reason ? { action: answer.action, _meta: { [DECLINE_REASON_META]: answer.reason } } : { action: answer.action };
}

/** MCP: a field the user left out takes the schema's default (the client declares `applyDefaults`). */
export function withDefaults(schema: FormSchema, content: Record<string, ElicitationValue>): Record<string, ElicitationValue> {
  const filled = { ...content };
  for (const [name, field] of Object.entries(schema.properties ?? {})) {
    if (filled[name] === undefined && field.default !== undefined) filled[name] = field.default as ElicitationValue;
  }
  return filled;
}

/** Why `content` does not fit the form (MCP's flat primitive fields), or undefined when it does. */
export function formProblem(schema: FormSchema, content: Record<string, ElicitationValue>): string | undefined {
  const properties = schema.properties ?? {};
  for (const name of schema.required ?? []) if (content[name] === undefined) return `"${name}" is required`;
  for (const [name, value] of Object.entries(content)) {
    const field = properties[name];
    if (!field) return `"${name}" is not a field of the form`;
    const problem = fieldProblem(field, value);
    if (problem) return `"${name}" ${problem}`;
  }
  return undefined;
}

function fieldProblem(field: Field, value: ElicitationValue): string | undefined {
  switch (field.type) {
    case "string": {
      if (typeof value !== "string") return "must be text";
      const allowed = choices(field);
      if (allowed && !allowed.includes(value)) return `must be one of ${allowed.join(", ")}`;
      if (typeof field.minLength === "number" && value.length < field.minLength) return `must be at least ${field.minLength} characters`;
      if (typeof field.maxLength === "number" && value.length > field.maxLength) return `must be at most ${field.maxLength} characters`;
      return undefined;
    }
    case "number":
    case "integer":
      if (typeof value !== "number" || !Number.isFinite(value)) return "must be a number";
      if (field.type === "integer" && !Number.isInteger(value)) return "must be a whole number";
      if (typeof field.minimum === "number" && value < field.minimum) return `must be at least ${field.minimum}`;
      if (typeof field.maximum === "number" && value > field.maximum) return `must be at most ${field.maximum}`;
      return undefined;
    case "boolean":
      return typeof value === "boolean" ? undefined : "must be true or false";
    case "array": {
      if (!Array.isArray(value) || value.some((item) => typeof item !== "string")) return "must be a list of choices";
      const allowed = choices((field.items ?? {}) as Field);
      if (allowed && value.some((item) => !allowed.includes(item))) return `must hold only ${allowed.join(", ")}`;
      if (typeof field.minItems === "number" && value.length < field.minItems) return `must hold at least ${field.minItems}`;
      if (typeof field.maxItems === "number" && value.length > field.maxItems) return `must hold at most ${field.maxItems}`;
      return undefined;
    }
    default:
      return "has a type Hermes cannot check";
  }
}

/** A field's allowed values: `enum`, or the `const`s of `oneOf` / `anyOf` (titled choices). */
function choices(field: Field): string[] | undefined {
  if (Array.isArray(field.enum)) return field.enum as string[];
  const titled = (field.oneOf ?? field.anyOf) as { const?: string }[] | undefined;
  return Array.isArray(titled) ? titled.flatMap((choice) => (typeof choice.const === "string" ? [choice.const] : [])) : undefined;
}
