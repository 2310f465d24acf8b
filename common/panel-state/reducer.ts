// The one pure function that changes ChatState. Immutable updates: an action returns a new
// state object and replaces only the items it touched, so the panel re-renders just those.
import type * as acp from "@agentclientprotocol/sdk";
import type { ChatAction } from "./actions";
import { appendTerminalOutput, markTerminalExited } from "./terminals";
import type { AttachmentSummary, ChatState, PermissionItem, QuestionItem, ReviewItem, TranscriptItem } from "./types";
import { LEARNED_META } from "../learned-note";
import { noticeOf } from "../notice-meta";
import { learnedNoteSchema } from "./schemas";

export function initialState(): ChatState {
  return {
    connection: { status: "starting" },
    sessionId: null,
    loading: false,
    items: [],
    index: {},
    turn: { running: false },
    queue: [],
    attachments: [],
    configOptions: [],
    commands: [],
    plan: [],
    history: { open: false, loading: false, sessions: [] },
    terminals: {},
    seq: 0,
  };
}

export function reduce(state: ChatState, action: ChatAction): ChatState {
  switch (action.type) {
    case "connection":
      return { ...state, connection: { status: action.status, message: action.message }, agent: action.agent ?? state.agent };
    case "sessionOpened":
      return {
        ...state,
        sessionId: action.sessionId,
        title: action.title,
        loading: action.loading,
        items: [],
        index: {},
        turn: { running: false },
        queue: [],
        modes: action.modes ?? undefined,
        configOptions: action.configOptions ?? [],
        plan: [],
        usage: undefined,
        history: { ...state.history, open: false },
        ...(state.knowledge?.open ? { knowledge: { ...state.knowledge, open: false } } : {}),
        terminals: {},
        checkpoints: undefined,
      };
    case "sessionLoaded":
      return { ...state, loading: false, modes: action.modes ?? state.modes, configOptions: action.configOptions ?? state.configOptions };
    case "sessionClosed":
      return { ...state, sessionId: null, items: [], index: {}, turn: { running: false }, queue: [], plan: [], usage: undefined, terminals: {}, checkpoints: undefined };
    case "update":
      return applyUpdate(state, action.update);
    case "userPrompt": {
      const turn = state.items.reduce((n, item) => (item.kind === "user" && item.turn > n ? item.turn : n), 0);
      return append(state, {
        kind: "user",
        id: localId("user", state),
        text: action.text,
        attachments: action.attachments,
        turn: action.isCommand ? turn : turn + 1,
        ...(action.isCommand ? { command: true } : {}),
      });
    }
    case "turnStarted":
      return { ...state, turn: { running: true, startedAt: action.at } };
    case "turnEnded": {
      const ended = { ...cancelPending(state), turn: { running: false, lastStopReason: action.stopReason } };
      // A stopped turn says so where it stopped, and the mark stays (a spinner just vanishing reads as a glitch).
      if (action.stopReason !== "cancelled" || !state.turn.running) return ended;
      return appendMarker(ended, { kind: "stopped" });
    }
    case "notice":
      return append(state, { kind: "notice", id: localId("notice", state), severity: action.severity, text: action.text, ...(action.action ? { action: action.action } : {}) });
    case "permissionRequested":
      return append(state, {
        kind: "permission",
        id: action.id,
        toolCallId: action.toolCall.toolCallId,
        title: action.toolCall.title ?? titleOf(state, action.toolCall.toolCallId) ?? "Permission needed",
        options: action.options,
        content: action.toolCall.content ?? undefined,
        // An edit decided by hunk shows in its tool call's card: one card per edit.
        ...(action.hunks ? { hunks: action.hunks, embedded: isEditCard(state, action.toolCall.toolCallId) } : {}),
      });
    case "permissionHunkDecided":
      return patch(state, action.id, (item) =>
        item.kind === "permission" && item.hunks
          ? { ...item, hunks: item.hunks.map((hunk, i) => (i === action.hunk ? { ...hunk, decision: action.decision } : hunk)) }
          : item,
      );
    case "permissionResolved": {
      const answered = patch(state, action.id, (item) =>
        item.kind === "permission" ? { ...item, outcome: action.outcome, reason: action.reason, ...(action.note ? { note: action.note } : {}) } : item,
      );
      const at = answered.index[action.id];
      const asked = at === undefined ? undefined : answered.items[at];
      if (!action.optionKind?.startsWith("reject") || asked?.kind !== "permission") return answered;
      return patch(answered, asked.toolCallId, (item) => (item.kind === "tool" ? { ...item, rejected: true } : item));
    }
    case "questionAsked":
      return append(state, { kind: "question", ...action.question });
    case "questionResolved":
      return patch(state, action.id, (item) =>
        item.kind === "question" ? { ...item, outcome: { answered: action.answered, text: action.text }, ...(action.note ? { note: action.note } : {}) } : item,
      );
    case "reviewRequested": {
      // A write nobody asked about (accept_edits, an edit allowed for the session) shows in its edit's card too.
      const tool = runningEditFor(state, action.review.path);
      return append(state, { kind: "review", status: "pending", ...action.review, ...(tool ? { toolCallId: tool, embedded: true } : {}) });
    }
    case "reviewHunkDecided":
      return patch(state, action.id, (item) =>
        item.kind === "review"
          ? { ...item, hunks: item.hunks.map((hunk, i) => (i === action.hunk ? { ...hunk, decision: action.decision } : hunk)) }
          : item,
      );
    case "reviewResolved":
      return patch(state, action.id, (item) => (item.kind === "review" ? { ...item, status: action.status } : item));
    case "queueChanged":
      return { ...state, queue: action.queue };
    case "attachmentAdded":
      if (state.attachments.some((a) => a.id === action.attachment.id)) return state;
      return { ...state, attachments: [...state.attachments, action.attachment] };
    case "attachmentRemoved":
      return { ...state, attachments: state.attachments.filter((a) => a.id !== action.id) };
    case "attachmentsCleared":
      return { ...state, attachments: [] };
    case "terminalOutput":
      return appendTerminalOutput(state, action.terminalId, action.text, action.truncated);
    case "terminalExited":
      return markTerminalExited(state, action.terminalId, action.exitCode, action.signal);
    case "configOptions":
      return { ...state, configOptions: action.configOptions };
    case "checkpoints":
      return { ...state, checkpoints: action.checkpoints };
    case "userTurn":
      // The agent ran it as a turn: it is one (a skill invocation looked like a command).
      return patch(state, action.id, (item) => (item.kind === "user" && (item.turn !== action.turn || item.command) ? { ...item, turn: action.turn, command: undefined } : item));
    case "knowledge": {
      const previous = state.knowledge ?? { open: false, loading: false };
      const open = action.open ?? previous.open;
      return {
        ...state,
        // One screen at a time: opening this one closes the history.
        ...(open && state.history.open ? { history: { ...state.history, open: false } } : {}),
        knowledge: { open, loading: action.loading ?? false, data: action.data ?? previous.data, error: action.error, outcome: action.outcome },
      };
    }
    case "history":
      return {
        ...state,
        ...(action.open && state.knowledge?.open ? { knowledge: { ...state.knowledge, open: false } } : {}),
        history: {
          open: action.open ?? state.history.open,
          loading: action.loading ?? false,
          sessions: action.sessions ?? state.history.sessions,
          error: action.error,
        },
      };
  }
}

function applyUpdate(state: ChatState, update: acp.SessionUpdate): ChatState {
  switch (update.sessionUpdate) {
    case "user_message_chunk": {
      // A /steer note where the turn applied it (live or replayed): guidance inside the turn, not a prompt.
      if (update._meta?.["hermes/steer"] === true) {
        return append(state, { kind: "steer", id: localId("steer", state), text: blockText(update.content) });
      }
      // Only replays (session/load) echo user messages; live prompts were added by userPrompt.
      const text = blockText(update.content);
      const attachments = attachmentsOf(update.content);
      const last = state.items[state.items.length - 1];
      // A replayed prompt arrives as one chunk per content block: text, then its attachments.
      if (last?.kind === "user" && (attachments.length > 0 || update.messageId)) {
        if (attachments.length > 0 || (update.messageId && last.messageId === update.messageId)) {
          return patch(state, last.id, () => ({ ...last, text: last.text + text, attachments: [...last.attachments, ...attachments] }));
        }
      }
      const isCommand = /^\/[a-z][\w-]*/i.test(text) && state.commands.some((c) => text.startsWith(`/${c.name}`));
      // A replayed prompt names its turn (`_meta["hermes/turn"]`): the agent's count wins over the panel's guess.
      const turn = metaOf(update)?.["hermes/turn"];
      const next = reduce(state, { type: "userPrompt", text, attachments, isCommand: isCommand && typeof turn !== "number" });
      const added = next.items[next.items.length - 1];
      if (added?.kind !== "user") return next;
      const numbered = typeof turn === "number" && Number.isInteger(turn) && turn >= 0 ? turn : added.turn;
      if (!update.messageId && numbered === added.turn) return next;
      return patch(next, added.id, () => ({ ...added, turn: numbered, ...(update.messageId ? { messageId: update.messageId } : {}) }));
    }
    case "agent_message_chunk":
    case "agent_thought_chunk": {
      const marker = turnMarker(update);
      if (marker) return appendMarker(state, marker);
      const notice = update.sessionUpdate === "agent_thought_chunk" ? noticeOf(metaOf(update)) : undefined;
      if (notice !== undefined) return append(state, { kind: "notice", id: localId("notice", state), severity: "warning", text: notice });
      const learned = learnedNote(update);
      if (learned) return append(state, { kind: "learned", id: localId("learned", state), ...learned });
      const kind = update.sessionUpdate === "agent_message_chunk" ? "agent" : "thought";
      const text = blockText(update.content);
      const last = state.items[state.items.length - 1];
      if (last?.kind === kind && (kind === "thought" || sameMessage((last as { messageId?: string }).messageId, update.messageId))) {
        return patch(state, last.id, () => ({ ...last, text: last.text + text }));
      }
      const id = localId(kind, state);
      return append(state, kind === "agent" ? { kind, id, text, messageId: update.messageId ?? undefined } : { kind, id, text });
    }
    case "tool_call": {
      const question = cancelledQuestion(update);
      const item: TranscriptItem = {
        kind: "tool",
        id: update.toolCallId,
        title: update.title,
        toolKind: update.kind ?? "other",
        status: update.status ?? "pending",
        // A replayed unanswered question: its card below says what happened, once.
        content: question ? [] : (update.content ?? []),
        locations: update.locations ?? [],
        rawInput: update.rawInput,
        ...(isCancelled(update) ? { cancelled: true } : {}),
        ...fullOutputOf(update),
        ...parentOf(update),
      };
      if (state.index[update.toolCallId] !== undefined) return patch(state, update.toolCallId, (old) => (old.kind === "tool" && old.rejected ? { ...item, rejected: true } : item));
      const added = append(state, item);
      return question && added.index[question.id] === undefined ? append(added, question) : added;
    }
    case "tool_call_update": {
      if (state.index[update.toolCallId] === undefined) {
        return applyUpdate(state, { ...update, sessionUpdate: "tool_call", title: update.title ?? "Tool call" } as acp.SessionUpdate);
      }
      return patch(state, update.toolCallId, (item) =>
        item.kind !== "tool"
          ? item
          : {
              ...item,
              title: update.title ?? item.title,
              toolKind: update.kind ?? item.toolKind,
              status: update.status ?? item.status,
              content: update.content ?? item.content,
              locations: update.locations ?? item.locations,
              rawInput: update.rawInput ?? item.rawInput,
              ...(isCancelled(update) ? { cancelled: true } : {}),
              ...fullOutputOf(update),
            },
      );
    }
    case "plan":
      return { ...state, plan: update.entries };
    case "available_commands_update":
      return { ...state, commands: update.availableCommands };
    case "current_mode_update":
      return state.modes ? { ...state, modes: { ...state.modes, currentModeId: update.currentModeId } } : state;
    case "config_option_update":
      return { ...state, configOptions: update.configOptions };
    case "session_info_update":
      return update.title !== undefined ? { ...state, title: update.title ?? undefined } : state;
    case "usage_update":
      return { ...state, usage: { used: update.used, size: update.size, cost: update.cost ?? undefined } };
    case "notice":
      return append(state, {
        kind: "notice",
        id: localId("notice", state),
        severity: update.severity === "error" ? "error" : update.severity === "warning" ? "warning" : "info",
        text: update.description ? `${update.title}: ${update.description}` : update.title,
      });
    case "compaction_update": {
      const id = `c:${update.compactionId}`;
      const summary = update.summary?.map(blockText).join("");
      if (state.index[id] !== undefined) {
        return patch(state, id, (item) => (item.kind === "compaction" ? { ...item, status: update.status, summary: summary ?? item.summary } : item));
      }
      return append(state, { kind: "compaction", id, status: update.status, summary });
    }
    default:
      // Updates this panel does not show (new protocol additions) change nothing.
      return state;
  }
}

/**
 * Ids for items the panel makes itself. Tool calls and compactions use the agent's ids, so these
 * carry a prefix no agent id is expected to have (a bare "t5" could be an agent's tool call id).
 */
function localId(kind: string, state: ChatState): string {
  return `hermes:${kind}:${state.seq}`;
}

/** Adds an item at the end and bumps the id sequence. */
function append(state: ChatState, item: TranscriptItem): ChatState {
  return { ...state, items: [...state.items, item], index: { ...state.index, [item.id]: state.items.length }, seq: state.seq + 1 };
}

/** Replaces one item; every other item keeps its identity (so it does not re-render). */
function patch(state: ChatState, id: string, change: (item: TranscriptItem) => TranscriptItem): ChatState {
  const at = state.index[id];
  const current = at === undefined ? undefined : state.items[at];
  if (at === undefined || current === undefined) return state;
  const next = change(current);
  if (next === current) return state;
  const items = state.items.slice();
  items[at] = next;
  return { ...state, items };
}

/**
 * When a turn ends, prompts it left unanswered can no longer be answered, and a tool call still
 * shown running will not finish (the agent went away before its last update): it was cut, so it
 * reads as cancelled, not as a spinner forever or a failure.
 */
function cancelPending(state: ChatState): ChatState {
  let next = state;
  for (const item of state.items) {
    if (item.kind === "permission" && item.outcome === undefined) next = patch(next, item.id, () => ({ ...item, outcome: "cancelled" }));
    if (item.kind === "question" && item.outcome === undefined) next = patch(next, item.id, () => ({ ...item, outcome: { answered: false, text: "cancelled" } }));
    if (item.kind === "tool" && (item.status === "pending" || item.status === "in_progress")) next = patch(next, item.id, () => ({ ...item, status: "failed", cancelled: true }));
  }
  return next;
}

function titleOf(state: ChatState, toolCallId: string): string | undefined {
  const at = state.index[toolCallId];
  const item = at === undefined ? undefined : state.items[at];
  return item?.kind === "tool" ? item.title : undefined;
}

/** The tool call is an edit's own card (not, say, a delegate_task card its children ask through). */
function isEditCard(state: ChatState, toolCallId: string): boolean {
  const at = state.index[toolCallId];
  const item = at === undefined ? undefined : state.items[at];
  return item?.kind === "tool" && item.toolKind === "edit";
}

/** How far past its tool call an edit's permission card is looked for (a batch announces all its calls first). */
const DECISION_SEARCH = 200;

/** The permission card or review embedded in an edit's tool card, if any (the latest, when asked twice). */
export function embeddedDecision(state: ChatState, toolCallId: string): PermissionItem | ReviewItem | undefined {
  const at = state.index[toolCallId];
  if (at === undefined) return undefined;
  let found: PermissionItem | ReviewItem | undefined;
  for (let i = at + 1; i < state.items.length && i <= at + DECISION_SEARCH; i++) {
    const item = state.items[i];
    if ((item?.kind === "permission" || item?.kind === "review") && item.embedded && item.toolCallId === toolCallId) found = item;
  }
  return found;
}

/** The newest edit tool call still running on `path` (the one whose write a review holds). */
function runningEditFor(state: ChatState, path: string): string | undefined {
  for (let i = state.items.length - 1; i >= 0 && i >= state.items.length - DECISION_SEARCH; i--) {
    const item = state.items[i];
    if (item?.kind !== "tool" || item.toolKind !== "edit" || (item.status !== "pending" && item.status !== "in_progress")) continue;
    if (item.locations.some((location) => location.path === path)) return item.id;
  }
  return undefined;
}

function sameMessage(a: string | undefined | null, b: string | undefined | null): boolean {
  return !a || !b || a === b;
}

export function blockText(block: acp.ContentBlock): string {
  return block.type === "text" ? block.text : "";
}

function attachmentsOf(block: acp.ContentBlock): AttachmentSummary[] {
  if (block.type === "resource_link") return [{ kind: "file", name: block.name }];
  if (block.type === "resource") return [{ kind: "selection", name: block.resource.uri.split("/").pop() ?? "file" }];
  if (block.type === "image") return [{ kind: "image", name: "image" }];
  return [];
}

/** The agent's spill file of the whole output, when the card shows only part (`_meta["hermes/fullOutput"]`). */
function fullOutputOf(update: acp.SessionUpdate): { fullOutput?: string } {
  const full = (update as { _meta?: Record<string, unknown> | null })._meta?.["hermes/fullOutput"] as { path?: unknown } | undefined;
  return typeof full?.path === "string" && full.path ? { fullOutput: full.path } : {};
}

/** A step of another call (a tool called from execute_code's program): `_meta["hermes/parentToolCallId"]`. */
function parentOf(update: acp.SessionUpdate): { parentId?: string } {
  const parent = (update as { _meta?: Record<string, unknown> | null })._meta?.["hermes/parentToolCallId"];
  return typeof parent === "string" && parent ? { parentId: parent } : {};
}

function isCancelled(update: acp.SessionUpdate): boolean {
  return (update as { _meta?: Record<string, unknown> | null })._meta?.["hermes/cancelled"] === true;
}

/**
 * A replayed tool call whose permission question was never answered (`_meta["hermes/permission"]`):
 * the agent's process ended first. Shown as the question's card, cancelled, saying why.
 */
function cancelledQuestion(update: Extract<acp.SessionUpdate, { sessionUpdate: "tool_call" }>): PermissionItem | QuestionItem | undefined {
  const question = (update as { _meta?: Record<string, unknown> | null })._meta?.["hermes/permission"] as
    | { title?: unknown; content?: unknown; cause?: unknown; result?: unknown; action?: unknown }
    | undefined;
  if (!question || typeof question !== "object") return undefined;
  const why = question.cause === "shutdown" ? "the window reloaded" : "the agent stopped before you answered";
  if (question.action === "clarify") {
    // The clarify tool's question: its own card, closed unanswered (not "declined": nobody decided).
    return {
      kind: "question",
      id: `hermes:question:${update.toolCallId}`,
      message: typeof question.title === "string" ? question.title : update.title,
      field: "answer",
      outcome: { answered: false, text: "cancelled" },
      note: `Cancelled: ${why}; the question went unanswered`,
    };
  }
  const result = typeof question.result === "string" ? question.result : "it did not run";
  return {
    kind: "permission",
    id: `hermes:question:${update.toolCallId}`,
    toolCallId: update.toolCallId,
    title: typeof question.title === "string" ? question.title : update.title,
    options: [],
    ...(Array.isArray(question.content) ? { content: question.content as acp.ToolCallContent[] } : {}),
    outcome: "cancelled",
    note: `Cancelled: ${why}; ${result}`,
  };
}

function metaOf(update: acp.SessionUpdate): Record<string, unknown> | undefined {
  return (update as { _meta?: Record<string, unknown> | null })._meta ?? undefined;
}

type TurnMarker = { kind: "stopped" } | { kind: "interrupted"; reason: string };

/** The server's journaled marker (`_meta["hermes/marker"]` on a replayed agent message), if this chunk is one. */
function turnMarker(update: acp.SessionUpdate): TurnMarker | undefined {
  const marker = (update as { _meta?: Record<string, unknown> | null })._meta?.["hermes/marker"] as { kind?: unknown; reason?: unknown } | undefined;
  if (marker?.kind === "stopped") return { kind: "stopped" };
  if (marker?.kind === "interrupted") return { kind: "interrupted", reason: typeof marker.reason === "string" ? marker.reason : "unknown reason" };
  return undefined;
}

/** What the learning review saved (`_meta["hermes/learned"]` on an agent message, live or replayed), if this chunk is that. */
function learnedNote(update: acp.SessionUpdate): { changeId: string; learned: "memory" | "skill"; what: string; where: string } | undefined {
  const parsed = learnedNoteSchema.safeParse(metaOf(update)?.[LEARNED_META]);
  if (!parsed.success) return undefined;
  const note = parsed.data;
  return { changeId: note.id, learned: note.kind, what: note.what, where: note.where };
}

/** The rule a stopped or interrupted turn ends with: the same whether it happened here or was replayed. */
function appendMarker(state: ChatState, marker: TurnMarker): ChatState {
  const text = marker.kind === "stopped" ? "Stopped" : `Interrupted: the agent stopped (${marker.reason})`;
  return append(state, { kind: "notice", id: localId("notice", state), severity: marker.kind === "stopped" ? "info" : "warning", text, marker: marker.kind });
}
