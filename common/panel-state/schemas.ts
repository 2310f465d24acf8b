// What the host may send the panel, as zod schemas: every ChatAction and the ChatState of a
// snapshot. Each schema is typed `z.ZodType<T>` against the hand-written type in ./types and
// ./actions, so the two cannot drift apart without a compile error.
//
// Hermes's own fields are checked in full. ACP payloads (updates, options, commands) are checked
// for the fields the reducer reads and otherwise passed through as they are: the SDK validated
// them on the wire, and checking the whole protocol here would put its schemas in the panel's
// bundle. An update of a kind this panel does not know passes too (the reducer ignores it), but
// a known kind with a bad field does not.
import type * as acp from "@agentclientprotocol/sdk";
import * as z from "zod";
import type { ChatAction } from "./actions";
import { checkpointTurnSchema } from "../checkpoint-list";
import type { LearnedNote } from "../learned-note";
import type { CheckpointState } from "./checkpoints";
import { knowledgeOutcomeSchema, knowledgeSchema, knowledgeStateSchema } from "./knowledge";
import type {
  Attachment,
  AttachmentSummary,
  ChatState,
  ConnectionStatus,
  QueuedPrompt,
  ReviewHunk,
  ReviewItem,
  SessionSummary,
  TerminalOutput,
  TranscriptItem,
} from "./types";

/** An ACP payload: `shape` (the fields Hermes reads) is checked, the rest passes as it came. */
function acpPayload<T>(shape: z.ZodRawShape): z.ZodType<T> {
  // The one cast: a payload whose read fields were checked is taken as the type the SDK checked.
  return z.looseObject(shape).transform((value) => value as T);
}

const text = z.string();
const optionalText = z.string().nullish();

const contentBlock = acpPayload<acp.ContentBlock>({ type: z.string() });
const toolCallContent = acpPayload<acp.ToolCallContent>({ type: z.enum(["content", "diff", "terminal"]) });
const location = acpPayload<acp.ToolCallLocation>({ path: text });
const permissionOption = acpPayload<acp.PermissionOption>({ optionId: text, name: text, kind: text });
const configOption = acpPayload<acp.SessionConfigOption>({ id: text, name: text, type: text });
const modeState = acpPayload<acp.SessionModeState>({ currentModeId: text, availableModes: z.array(acpPayload<acp.SessionMode>({ id: text, name: text })) });
const command = acpPayload<acp.AvailableCommand>({ name: text, description: text });
const planEntry = acpPayload<acp.PlanEntry>({ content: text, status: text });
const toolCallFields = {
  toolCallId: text,
  kind: optionalText,
  status: optionalText,
  content: z.array(toolCallContent).nullish(),
  locations: z.array(location).nullish(),
};

/** The updates the reducer shows, each with the fields it reads. */
const update = <K extends string>(kind: K, shape: z.ZodRawShape) => z.looseObject({ sessionUpdate: z.literal(kind), ...shape });
const chunk = { content: contentBlock, messageId: optionalText };
const knownUpdates = z.discriminatedUnion("sessionUpdate", [
  update("user_message_chunk", chunk),
  update("agent_message_chunk", chunk),
  update("agent_thought_chunk", chunk),
  update("tool_call", { ...toolCallFields, title: text }),
  update("tool_call_update", { ...toolCallFields, title: optionalText }),
  update("plan", { entries: z.array(planEntry) }),
  update("available_commands_update", { availableCommands: z.array(command) }),
  update("current_mode_update", { currentModeId: text }),
  update("config_option_update", { configOptions: z.array(configOption) }),
  update("session_info_update", { title: optionalText }),
  update("usage_update", { used: z.number(), size: z.number(), cost: z.object({ amount: z.number(), currency: text }).nullish() }),
  update("notice", { title: text, description: optionalText, severity: optionalText }),
  update("compaction_update", { compactionId: text, status: text, summary: z.array(contentBlock).nullish() }),
]);
const knownKinds = new Set<string>(knownUpdates.options.map((option) => option.shape.sessionUpdate.value));

const sessionUpdate: z.ZodType<acp.SessionUpdate> = z
  .union([
    knownUpdates,
    // A kind from a newer protocol: shown by nothing, harmless.
    z.looseObject({ sessionUpdate: z.string().refine((kind) => !knownKinds.has(kind), "a known update kind with invalid fields") }),
  ])
  .transform((value) => value as acp.SessionUpdate);

const toolCallUpdate = acpPayload<acp.ToolCallUpdate>({ ...toolCallFields, title: optionalText });

const connectionStatus: z.ZodType<ConnectionStatus> = z.enum(["starting", "ready", "restarting", "failed", "stopped"]);
const severity = z.enum(["info", "warning", "error"]);
const noticeAction = z.enum(["signIn"]);
const agentInfo = z.object({ name: text, version: text.optional() });
const hunkDecision = z.enum(["pending", "accepted", "rejected"]);

const attachment: z.ZodType<Attachment> = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("file"), id: text, uri: text, name: text, embed: z.boolean().optional() }),
  z.object({ kind: z.literal("selection"), id: text, uri: text, name: text, text, startLine: z.number(), endLine: z.number(), languageId: text.optional() }),
  z.object({ kind: z.literal("image"), id: text, name: text, mimeType: text, data: text }),
]);
const attachmentSummary: z.ZodType<AttachmentSummary> = z.object({ kind: z.enum(["file", "selection", "image"]), name: text });
const queuedPrompt: z.ZodType<QueuedPrompt> = z.object({ id: text, text, attachments: z.array(attachment) });
export const sessionSummarySchema: z.ZodType<SessionSummary> = z.object({
  sessionId: text,
  title: text.optional(),
  cwd: text,
  updatedAt: text.optional(),
  firstPrompt: text.optional(),
  snippet: text.optional(),
});
const reviewHunk: z.ZodType<ReviewHunk> = z.object({
  oldStart: z.number(),
  oldLines: z.number(),
  newStart: z.number(),
  newLines: z.number(),
  lines: z.array(z.object({ op: z.enum([" ", "-", "+"]), text })),
  decision: hunkDecision,
});
const reviewStatus = z.enum(["pending", "applied", "rejected", "cancelled"]);
const reviewFields = { id: text, path: text, displayPath: text, isNewFile: z.boolean(), hunks: z.array(reviewHunk) };

export const checkpointStateSchema: z.ZodType<CheckpointState> = z.object({
  supported: z.boolean(),
  enabled: z.boolean(),
  reason: text.optional(),
  turns: z.array(checkpointTurnSchema),
});

const questionFields = {
  id: text,
  message: text,
  field: text,
  choices: z.array(z.object({ value: text, title: text, description: text.optional() })).optional(),
};

const transcriptItem: z.ZodType<TranscriptItem> = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("user"), id: text, text, attachments: z.array(attachmentSummary), messageId: text.optional(), turn: z.number(), command: z.boolean().optional() }),
  z.object({ kind: z.literal("agent"), id: text, text, messageId: text.optional() }),
  z.object({ kind: z.literal("thought"), id: text, text }),
  z.object({
    kind: z.literal("tool"),
    id: text,
    title: text,
    toolKind: z.custom<acp.ToolKind>((value) => typeof value === "string"),
    status: z.custom<acp.ToolCallStatus>((value) => typeof value === "string"),
    content: z.array(toolCallContent),
    locations: z.array(location),
    rawInput: z.unknown().optional(),
    rejected: z.boolean().optional(),
    cancelled: z.boolean().optional(),
    fullOutput: text.optional(),
    parentId: text.optional(),
  }),
  z.object({
    kind: z.literal("permission"),
    id: text,
    toolCallId: text,
    title: text,
    options: z.array(permissionOption),
    content: z.array(toolCallContent).optional(),
    outcome: text.optional(),
    reason: text.optional(),
    note: text.optional(),
    hunks: z.array(reviewHunk).optional(),
    embedded: z.boolean().optional(),
  }),
  z.object({ kind: z.literal("review"), ...reviewFields, status: reviewStatus, toolCallId: text.optional(), embedded: z.boolean().optional() }),
  z.object({ kind: z.literal("notice"), id: text, severity, text, action: noticeAction.optional(), marker: z.enum(["stopped", "interrupted"]).optional() }),
  z.object({ kind: z.literal("compaction"), id: text, status: text, summary: text.optional() }),
  z.object({ kind: z.literal("question"), ...questionFields, outcome: z.object({ answered: z.boolean(), text }).optional(), note: text.optional() }),
  z.object({ kind: z.literal("steer"), id: text, text }),
  z.object({ kind: z.literal("learned"), id: text, changeId: text, learned: z.enum(["memory", "skill"]), what: text, where: text }),
]);

const terminalOutput: z.ZodType<TerminalOutput> = z.object({
  output: text,
  exitCode: z.number().nullable().optional(),
  signal: text.nullable().optional(),
  truncated: z.boolean().optional(),
});

export const chatStateSchema: z.ZodType<ChatState> = z.object({
  connection: z.object({ status: connectionStatus, message: text.optional() }),
  agent: agentInfo.optional(),
  sessionId: text.nullable(),
  title: text.optional(),
  loading: z.boolean(),
  items: z.array(transcriptItem),
  index: z.record(z.string(), z.number().int().min(0)),
  turn: z.object({ running: z.boolean(), startedAt: z.number().optional(), lastStopReason: text.optional() }),
  queue: z.array(queuedPrompt),
  attachments: z.array(attachment),
  modes: modeState.optional(),
  configOptions: z.array(configOption),
  commands: z.array(command),
  plan: z.array(planEntry),
  usage: z.object({ used: z.number(), size: z.number(), cost: z.object({ amount: z.number(), currency: text }).optional() }).optional(),
  history: z.object({ open: z.boolean(), loading: z.boolean(), sessions: z.array(sessionSummarySchema), error: text.optional() }),
  terminals: z.record(z.string(), terminalOutput),
  knowledge: knowledgeStateSchema.optional(),
  checkpoints: checkpointStateSchema.optional(),
  seq: z.number(),
});

export const chatActionSchema: z.ZodType<ChatAction> = z.discriminatedUnion("type", [
  z.object({ type: z.literal("connection"), status: connectionStatus, message: text.optional(), agent: agentInfo.optional() }),
  z.object({ type: z.literal("sessionOpened"), sessionId: text, title: text.optional(), loading: z.boolean(), modes: modeState.nullish(), configOptions: z.array(configOption).nullish() }),
  z.object({ type: z.literal("sessionLoaded"), modes: modeState.nullish(), configOptions: z.array(configOption).nullish() }),
  z.object({ type: z.literal("sessionClosed") }),
  z.object({ type: z.literal("update"), update: sessionUpdate }),
  z.object({ type: z.literal("userPrompt"), text, attachments: z.array(attachmentSummary), isCommand: z.boolean() }),
  z.object({ type: z.literal("turnStarted"), at: z.number() }),
  z.object({ type: z.literal("turnEnded"), stopReason: text }),
  z.object({ type: z.literal("notice"), severity, text, action: noticeAction.optional() }),
  z.object({ type: z.literal("permissionRequested"), id: text, toolCall: toolCallUpdate, options: z.array(permissionOption), hunks: z.array(reviewHunk).optional() }),
  z.object({ type: z.literal("permissionHunkDecided"), id: text, hunk: z.number().int().min(0), decision: hunkDecision }),
  z.object({ type: z.literal("permissionResolved"), id: text, outcome: text, optionKind: text.optional(), reason: text.optional(), note: text.optional() }),
  z.object({ type: z.literal("questionAsked"), question: z.object(questionFields) }),
  z.object({ type: z.literal("questionResolved"), id: text, answered: z.boolean(), text, note: text.optional() }),
  z.object({ type: z.literal("reviewRequested"), review: z.object(reviewFields) }),
  z.object({ type: z.literal("reviewHunkDecided"), id: text, hunk: z.number().int().min(0), decision: hunkDecision }),
  z.object({ type: z.literal("reviewResolved"), id: text, status: z.custom<ReviewItem["status"]>((value) => reviewStatus.safeParse(value).success) }),
  z.object({ type: z.literal("queueChanged"), queue: z.array(queuedPrompt) }),
  z.object({ type: z.literal("attachmentAdded"), attachment }),
  z.object({ type: z.literal("attachmentRemoved"), id: text }),
  z.object({ type: z.literal("attachmentsCleared") }),
  z.object({ type: z.literal("terminalOutput"), terminalId: text, text, truncated: z.boolean().optional() }),
  z.object({ type: z.literal("terminalExited"), terminalId: text, exitCode: z.number().nullable(), signal: text.nullable() }),
  z.object({ type: z.literal("configOptions"), configOptions: z.array(configOption) }),
  z.object({ type: z.literal("history"), open: z.boolean().optional(), loading: z.boolean().optional(), sessions: z.array(sessionSummarySchema).optional(), error: text.optional() }),
  z.object({ type: z.literal("knowledge"), open: z.boolean().optional(), loading: z.boolean().optional(), data: knowledgeSchema.optional(), error: text.optional(), outcome: knowledgeOutcomeSchema.optional() }),
  z.object({ type: z.literal("checkpoints"), checkpoints: checkpointStateSchema }),
  z.object({ type: z.literal("userTurn"), id: text, turn: z.number().int().min(0) }),
]);

/** `_meta["hermes/learned"]` (common/learned-note.ts), checked before the panel draws its card. */
export const learnedNoteSchema: z.ZodType<LearnedNote> = z.object({
  id: text,
  kind: z.enum(["memory", "skill"]),
  what: text,
  where: text,
});
