// The shape of a journal record on disk, as a zod schema: what a reader accepts is what the
// rest of the program may rely on (types.ts's JournalRecord: journal-parse.ts assigns what this
// accepts to that type, so the two cannot drift apart without a compile error). Objects are loose: fields a later version adds are kept, not rejected, so a
// newer journal stays readable and a fork copies it whole.
//
// Built on first use, not at import: constructing zod schemas costs milliseconds that the
// first session/new should not pay.
import * as z from "zod";

function build() {
  const at = z.number();
  const text = z.string();
  const imageData = { mimeType: z.string(), data: z.string() };

  const session = z.looseObject({
    id: z.string(),
    cwd: z.string(),
    createdAt: z.number(),
    parentId: z.string().optional(),
    source: z.string(),
    mode: z.string().optional(),
    modelId: z.string().optional(),
    provider: z.string().optional(),
    model: z.string().optional(),
  });

  const userPart = z.discriminatedUnion("type", [z.looseObject({ type: z.literal("text"), text }), z.looseObject({ type: z.literal("image"), ...imageData })]);
  const toolCallRequest = z.looseObject({ id: z.string(), name: z.string(), arguments: z.string() });
  const replayBlock = z.looseObject({ format: z.enum(["chat_completions", "anthropic_messages", "codex_responses"]), data: z.unknown() });
  const message = z.discriminatedUnion("role", [
    z.looseObject({ role: z.literal("system"), content: text }),
    z.looseObject({ role: z.literal("user"), content: z.array(userPart) }),
    z.looseObject({
      role: z.literal("assistant"),
      content: text,
      reasoning: text.optional(),
      toolCalls: z.array(toolCallRequest).optional(),
      replay: z.array(replayBlock).optional(),
      id: z.string().optional(),
    }),
    z.looseObject({ role: z.literal("tool"), toolCallId: z.string(), name: z.string(), content: text, images: z.array(z.looseObject(imageData)).optional() }),
  ]);

  const location = z.looseObject({ path: z.string(), line: z.number().optional() });
  const displayContent = z.discriminatedUnion("type", [
    z.looseObject({ type: z.literal("text"), text }),
    z.looseObject({ type: z.literal("diff"), path: z.string(), oldText: z.string().nullable(), newText: z.string() }),
    z.looseObject({ type: z.literal("terminal"), terminalId: z.string() }),
    z.looseObject({ type: z.literal("image"), ...imageData }),
    z.looseObject({
      type: z.literal("resource_link"),
      uri: z.string(),
      name: z.string(),
      mimeType: z.string().optional(),
      title: z.string().optional(),
      description: z.string().optional(),
    }),
    z.looseObject({ type: z.literal("resource"), uri: z.string(), mimeType: z.string().optional(), text: z.string().optional(), blob: z.string().optional() }),
  ]);
  const toolCall = z.looseObject({
    id: z.string(),
    requestId: z.string().optional(),
    name: z.string(),
    title: z.string(),
    kind: z.string(),
    locations: z.array(location),
    rawInput: z.unknown(),
    status: z.enum(["completed", "failed"]),
    content: z.array(displayContent),
    rawOutput: z.unknown(),
    fullOutput: z.looseObject({ path: z.string(), bytes: z.number() }).optional(),
    cancelled: z.boolean().optional(),
    parentId: z.string().optional(),
  });
  const todo = z.looseObject({ id: z.string(), content: z.string(), status: z.enum(["pending", "in_progress", "completed", "cancelled"]) });

  const redaction = z.number().optional();
  return z.discriminatedUnion("t", [
    z.looseObject({ t: z.literal("meta"), v: z.literal(1), at, session, redaction }),
    z.looseObject({ t: z.literal("message"), seq: z.number(), at, message, tokens: z.number(), redaction }),
    z.looseObject({ t: z.literal("tool_call"), at, call: toolCall, redaction }),
    z.looseObject({ t: z.literal("plan"), at, todos: z.array(todo), redaction }),
    z.looseObject({
      t: z.literal("update"),
      at,
      title: z.string().optional(),
      titleSource: z.enum(["auto", "user", "first_line"]).optional(),
      mode: z.string().optional(),
      modelId: z.string().optional(),
      thinking: z.boolean().optional(),
      additionalDirectories: z.array(z.string()).optional(),
      toolToggles: z.record(z.string(), z.boolean()).optional(),
      loadedTools: z.array(z.string()).optional(),
      tokens: z.number().optional(),
      systemPrompt: z.string().optional(),
      reset: z.boolean().optional(),
      compaction: z.looseObject({ head: z.number(), tail: z.number(), summary: z.string() }).optional(),
      turn: z.enum(["start", "end"]).optional(),
      stopReason: z.string().optional(),
      permission: z
        .looseObject({
          call: z.looseObject({ id: z.string(), requestId: z.string().optional(), name: z.string(), title: z.string(), kind: z.string(), locations: z.array(location), rawInput: z.unknown() }),
          title: z.string(),
          action: z.string(),
          content: z.array(displayContent),
        })
        .optional(),
      permissionAnswer: z.looseObject({ toolCallId: z.string(), outcome: z.enum(["answered", "shutdown"]) }).optional(),
      learned: z.looseObject({ id: z.string(), kind: z.enum(["memory", "skill"]), what: z.string(), where: z.string() }).optional(),
      hook: z
        .looseObject({ event: z.string(), command: z.string(), origin: z.string(), exit: z.number().nullable(), timedOut: z.boolean(), ms: z.number(), decision: z.string() })
        .optional(),
      notice: z.string().optional(),
      redaction,
    }),
  ]);
}

export type JournalRecordSchema = ReturnType<typeof build>;

let schema: JournalRecordSchema | undefined;

/** The schema, built once. */
export function journalRecordSchema(): JournalRecordSchema {
  schema ??= build();
  return schema;
}

/** The record types a reader knows (an unknown one is reported as such, not as a shape error). */
export const RECORD_TYPES: ReadonlySet<string> = new Set(["meta", "message", "tool_call", "plan", "update"]);

// The fast path. At 10,000 messages zod costs ~60 ms in a fresh process (its parsers are not
// yet optimized and copy every object), more than the whole load's budget. Each line is first
// checked by this hand-written guard, which accepts a subset of what the schema accepts (never
// more: test/unit/journal-schema.test.ts mutates every field of every record kind and checks
// that); a line it rejects goes through the schema, which accepts it (an unusual but valid
// record) or says what is wrong. Keep the two in step: a field added to the schema is added
// here, or the guard rejects and the schema decides.

type Obj = Record<string, unknown>;

const isObj = (value: unknown): value is Obj => typeof value === "object" && value !== null && !Array.isArray(value);
const isStr = (value: unknown): value is string => typeof value === "string";
const isNum = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);
const optStr = (value: unknown) => value === undefined || isStr(value);
const optNum = (value: unknown) => value === undefined || isNum(value);

function every(value: unknown, check: (item: unknown) => boolean): boolean {
  if (!Array.isArray(value)) return false;
  for (const item of value) if (!check(item)) return false;
  return true;
}

const isImage = (value: Obj) => isStr(value.mimeType) && isStr(value.data);
const isUserPart = (value: unknown) => isObj(value) && (value.type === "text" ? isStr(value.text) : value.type === "image" && isImage(value));
const isToolCallRequest = (value: unknown) => isObj(value) && isStr(value.id) && isStr(value.name) && isStr(value.arguments);
const REPLAY_FORMATS = new Set(["chat_completions", "anthropic_messages", "codex_responses"]);
const isReplayBlock = (value: unknown) => isObj(value) && REPLAY_FORMATS.has(value.format as string) && "data" in value;

function isMessage(value: unknown): boolean {
  if (!isObj(value)) return false;
  switch (value.role) {
    case "system":
      return isStr(value.content);
    case "user":
      return every(value.content, isUserPart);
    case "assistant":
      return (
        isStr(value.content) &&
        optStr(value.reasoning) &&
        (value.toolCalls === undefined || every(value.toolCalls, isToolCallRequest)) &&
        (value.replay === undefined || every(value.replay, isReplayBlock))
      );
    case "tool":
      return isStr(value.toolCallId) && isStr(value.name) && isStr(value.content) && (value.images === undefined || every(value.images, (image) => isObj(image) && isImage(image)));
    default:
      return false;
  }
}

const isLocation = (value: unknown) => isObj(value) && isStr(value.path) && optNum(value.line);

function isDisplayContent(value: unknown): boolean {
  if (!isObj(value)) return false;
  switch (value.type) {
    case "text":
      return isStr(value.text);
    case "diff":
      return isStr(value.path) && (value.oldText === null || isStr(value.oldText)) && isStr(value.newText);
    case "terminal":
      return isStr(value.terminalId);
    case "image":
      return isImage(value);
    case "resource_link":
      return isStr(value.uri) && isStr(value.name) && optStr(value.mimeType) && optStr(value.title) && optStr(value.description);
    case "resource":
      return isStr(value.uri) && optStr(value.mimeType) && optStr(value.text) && optStr(value.blob);
    default:
      return false;
  }
}

const isToolCall = (value: unknown) =>
  isObj(value) &&
  isStr(value.id) &&
  optStr(value.requestId) &&
  isStr(value.name) &&
  isStr(value.title) &&
  isStr(value.kind) &&
  every(value.locations, isLocation) &&
  "rawInput" in value &&
  (value.status === "completed" || value.status === "failed") &&
  every(value.content, isDisplayContent) &&
  "rawOutput" in value &&
  (value.fullOutput === undefined || (isObj(value.fullOutput) && isStr(value.fullOutput.path) && isNum(value.fullOutput.bytes))) &&
  (value.cancelled === undefined || typeof value.cancelled === "boolean") &&
  optStr(value.parentId);

const isAskedCall = (value: unknown) =>
  isObj(value) && isStr(value.id) && optStr(value.requestId) && isStr(value.name) && isStr(value.title) && isStr(value.kind) && every(value.locations, isLocation) && "rawInput" in value;
const isPermissionAsk = (value: unknown) => isObj(value) && isAskedCall(value.call) && isStr(value.title) && isStr(value.action) && every(value.content, isDisplayContent);
const isPermissionAnswer = (value: unknown) => isObj(value) && isStr(value.toolCallId) && (value.outcome === "answered" || value.outcome === "shutdown");

const TODO_STATUSES = new Set(["pending", "in_progress", "completed", "cancelled"]);
const isTodo = (value: unknown) => isObj(value) && isStr(value.id) && isStr(value.content) && TODO_STATUSES.has(value.status as string);
const TITLE_SOURCES = new Set(["auto", "user", "first_line"]);
const isLearned = (value: unknown) => isObj(value) && isStr(value.id) && (value.kind === "memory" || value.kind === "skill") && isStr(value.what) && isStr(value.where);

const isSession = (value: unknown) =>
  isObj(value) &&
  isStr(value.id) &&
  isStr(value.cwd) &&
  isNum(value.createdAt) &&
  optStr(value.parentId) &&
  isStr(value.source) &&
  optStr(value.mode) &&
  optStr(value.modelId) &&
  optStr(value.provider) &&
  optStr(value.model);

/** Whether the schema certainly accepts `value` (false: ask the schema). */
export function isPlainRecord(value: unknown): boolean {
  if (!isObj(value) || !isNum(value.at) || !optNum(value.redaction)) return false;
  switch (value.t) {
    case "message":
      return isNum(value.seq) && isNum(value.tokens) && isMessage(value.message);
    case "tool_call":
      return isToolCall(value.call);
    case "plan":
      return every(value.todos, isTodo);
    case "update": {
      const compaction = value.compaction;
      return (
        optStr(value.title) &&
        (value.titleSource === undefined || TITLE_SOURCES.has(value.titleSource as string)) &&
        optStr(value.mode) &&
        optStr(value.modelId) &&
        (value.thinking === undefined || typeof value.thinking === "boolean") &&
        (value.additionalDirectories === undefined || every(value.additionalDirectories, isStr)) &&
        (value.toolToggles === undefined || (isObj(value.toolToggles) && Object.values(value.toolToggles).every((on) => typeof on === "boolean"))) &&
        (value.loadedTools === undefined || every(value.loadedTools, isStr)) &&
        optNum(value.tokens) &&
        optStr(value.systemPrompt) &&
        (value.reset === undefined || typeof value.reset === "boolean") &&
        (value.turn === undefined || value.turn === "start" || value.turn === "end") &&
        optStr(value.stopReason) &&
        (value.permission === undefined || isPermissionAsk(value.permission)) &&
        (value.permissionAnswer === undefined || isPermissionAnswer(value.permissionAnswer)) &&
        (value.learned === undefined || isLearned(value.learned)) &&
        optStr(value.notice) &&
        // A hook run's record is rare: the schema checks it.
        value.hook === undefined &&
        (compaction === undefined || (isObj(compaction) && isNum(compaction.head) && isNum(compaction.tail) && isStr(compaction.summary)))
      );
    }
    case "meta":
      return value.v === 1 && isSession(value.session);
    default:
      return false;
  }
}
