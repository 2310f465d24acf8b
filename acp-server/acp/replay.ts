// session/load: a journal turned back into the session/update stream the client saw live
// (the user's prompts, thoughts, answers, each tool call in its final state, plans).
// Tool calls are journaled as they finish but were shown when announced, all of a reply's
// calls at once and in call order; replay restores that order. replay-send.ts writes it out.
import { promptMessageId } from "../sessions/message-ids";
import * as acp from "@agentclientprotocol/sdk/unstable";
import { existsSync } from "node:fs";
import type { UserPart } from "../providers/types";
import type { JournalRecord, PermissionAskRecord, ToolCallRecord } from "../sessions/types";
import type { TodoItem } from "../tools/context";
import { redactLoadedRecords } from "../sessions/redact-record";
import { cancelledPermissionUpdate, waitingCallUpdate } from "./replay-permission";
import { learnedChunk, markerChunk, noticeChunk, planUpdate, steerChunk, toLocations, toolCallMeta, toToolCallContent } from "./updates";
import type { ReplayState } from "../sessions/replay-snapshot";
export type { ReplayState };

interface Batch {
  order: string[];
  calls: ToolCallRecord[];
  plans: TodoItem[][];
  /** Permission questions asked by this batch's calls (a call with no finished card still shows). */
  asks: PermissionAskRecord[];
}

/** The updates in order, as objects (tests, and clients without the bulk writer). */
export function* replayUpdates(records: JournalRecord[], options: ReplayOptions = {}): Generator<acp.SessionUpdate> {
  for (const json of replayUpdateJson(records, options)) yield JSON.parse(json) as acp.SessionUpdate;
}

/**
 * The updates in order, each as its JSON text, produced lazily so a long replay can start
 * sending at once. Text chunks (most of a session) are written straight from the record's
 * text, with no update object to build and walk; the rest goes through JSON.stringify. Records
 * are redacted for today's rules on the way (journals written before a rule existed must not
 * show a secret again); the history restore shares that work (sessions/redact-record.ts).
 */
export function* replayUpdateJson(records: JournalRecord[], options: ReplayOptions = {}): Generator<string> {
  const builder = new ReplayBuilder(options);
  for (const record of redactLoadedRecords(records)) yield* builder.push(record);
  yield* builder.end();
}

/**
 * Where a replay stands between two records, once the pending batch of cards is out: what the
 * records after it need to be replayed on their own (replay-snapshot.ts caches the updates
 * before such a point).
 */

/**
 * Records (already redacted) in, update JSON out, one record at a time. A reply's tool calls
 * wait in a batch until the next message (or the end) and then show in call order.
 */
export class ReplayBuilder {
  private batch: Batch | undefined;
  private turnOpen: boolean;
  private turn: number;
  private readonly answers: Map<string, "answered" | "shutdown">;
  /** Spill files whose existence shaped a card (`_meta["hermes/fullOutput"]`), and whether each was there. */
  readonly outputsChecked = new Map<string, boolean>();

  constructor(
    private readonly options: ReplayOptions = {},
    state?: ReplayState,
  ) {
    this.turn = state?.turn ?? 0;
    this.turnOpen = state?.turnOpen ?? false;
    this.answers = new Map(state?.answers ?? []);
  }

  /** Where the replay stands: call flushBatch() first, a pending batch is not part of it. */
  state(): ReplayState {
    if (this.batch) throw new Error("replay state taken with a batch pending");
    return { turn: this.turn, turnOpen: this.turnOpen, answers: [...this.answers] };
  }

  /** The pending batch's cards now: what the next message record would send first. */
  *flushBatch(): Generator<string> {
    yield* this.flush(false);
  }

  *push(record: JournalRecord): Generator<string> {
    if (record.t === "message") {
      const message = record.message;
      if (message.role === "tool") return; // shown through its tool_call record
      if (this.batch) yield* this.flush();
      if (message.role === "user" && message.steer) {
        for (const part of message.content) if (part.type === "text") yield JSON.stringify(steerChunk(part.text));
        return;
      }
      if (message.role === "user" && this.turnOpen) {
        // A new prompt while the last turn never ended: that process died, and a later one went on.
        yield JSON.stringify(markerChunk({ kind: "interrupted", reason: INTERRUPTED_REASON }));
        this.turnOpen = false;
      }
      if (message.role === "user") {
        // The first chunk of each prompt names its turn (`_meta["hermes/turn"]`: checkpoints and forks count turns).
        const turn = ++this.turn;
        // The prompt's messageId, derived from its turn: the same as its live echo and on every load.
        const messageId = promptMessageId(turn);
        let first = true;
        for (const part of message.content) {
          const json = part.type === "text" ? textChunkJson("user_message_chunk", part.text, messageId) : JSON.stringify(imageChunk(part, messageId));
          yield first ? withTurn(json, turn) : json;
          first = false;
        }
      }
      if (message.role === "assistant") {
        // The reply's journaled id: the same messageId its chunks carried live.
        if (message.reasoning) yield textChunkJson("agent_thought_chunk", message.reasoning, message.id);
        if (message.content) yield textChunkJson("agent_message_chunk", message.content, message.id);
        if (message.toolCalls?.length) this.batch = { order: message.toolCalls.map((call) => call.id), calls: [], plans: [], asks: [] };
      }
    } else if (record.t === "tool_call") {
      if (this.batch) this.batch.calls.push(record.call);
      else yield JSON.stringify(this.toolCallUpdate(record.call));
    } else if (record.t === "plan") {
      if (this.batch) this.batch.plans.push(record.todos);
      else yield JSON.stringify(planUpdate(record.todos));
    } else if (record.t === "update" && record.learned) {
      if (this.batch) yield* this.flush();
      yield JSON.stringify(learnedChunk(record.learned));
    } else if (record.t === "update" && record.notice !== undefined) {
      if (this.batch) yield* this.flush();
      yield JSON.stringify(noticeChunk(record.notice));
    } else if (record.t === "update" && (record.permission || record.permissionAnswer)) {
      if (record.permissionAnswer) this.answers.set(record.permissionAnswer.toolCallId, record.permissionAnswer.outcome);
      if (record.permission) (this.batch ??= { order: [], calls: [], plans: [], asks: [] }).asks.push(record.permission);
    } else if (record.t === "update" && record.turn) {
      this.turnOpen = record.turn === "start";
      if (record.turn === "end" && record.stopReason === "cancelled") {
        if (this.batch) yield* this.flush();
        yield JSON.stringify(markerChunk({ kind: "stopped" }));
      }
    }
  }

  /** After the last record: the pending cards, and the marker of a turn that never ended. */
  *end(): Generator<string> {
    yield* this.flush(true);
    // The last turn never ended: the process running it died (a crash, a kill, a power cut).
    if (this.turnOpen && !this.options.turnMayBeRunning) yield JSON.stringify(markerChunk({ kind: "interrupted", reason: INTERRUPTED_REASON }));
  }

  private *flush(last = false): Generator<string> {
    const batch = this.batch;
    if (!batch) return;
    const { order, calls, plans, asks } = batch;
    this.batch = undefined;
    const mayBeWaiting = last && this.options.turnMayBeRunning === true;
    // Each card by the id the reply announced it with (its position in `order`).
    // A nested step (execute_code's program called it) is journaled before its parent ends: it goes right after it.
    const cards: { key: string; parent?: string; update: () => acp.SessionUpdate }[] = calls.map((call) => ({ key: call.requestId ?? call.id, ...(call.parentId ? { parent: call.parentId } : {}), update: () => this.toolCallUpdate(call) }));
    if (asks.length > 0) {
      const shown = new Set(calls.map((call) => call.id));
      for (const ask of asks) {
        const answer = this.answers.get(ask.call.id);
        // Answered and never finished: the call ran when the process died, and like any such call it
        // is not replayed (the model's history says it was interrupted).
        if (shown.has(ask.call.id) || (answer === "answered" && !mayBeWaiting)) continue;
        shown.add(ask.call.id);
        cards.push({ key: ask.call.requestId ?? ask.call.id, update: () => unansweredUpdate(ask, answer, mayBeWaiting) });
      }
    }
    if (cards.length > 1) {
      const position = (card: { key: string; parent?: string }) => {
        if (card.parent !== undefined && order.includes(card.parent)) return order.indexOf(card.parent) + 0.5;
        const at = order.indexOf(card.key);
        return at === -1 ? Number.MAX_SAFE_INTEGER : at;
      };
      cards.sort((a, b) => position(a) - position(b));
    }
    for (const card of cards) yield JSON.stringify(card.update());
    for (const todos of plans) yield JSON.stringify(planUpdate(todos));
  }

  private toolCallUpdate(call: ToolCallRecord): acp.SessionUpdate {
    let available = false;
    if (call.fullOutput !== undefined) {
      available = existsSync(call.fullOutput.path);
      this.outputsChecked.set(call.fullOutput.path, available);
    }
    return toolCallUpdate(call, available);
  }
}

export interface ReplayOptions {
  /** The session may be mid-turn right now (here or in the process that owns it): an open turn is not a dead one. */
  turnMayBeRunning?: boolean;
}

/** Why a turn with no end stopped, as far as a later process can tell. */
export const INTERRUPTED_REASON = "its process ended during the turn";

/** An update's JSON with `"_meta":{"hermes/turn":N}` added (the update is an object literal). */
function withTurn(json: string, turn: number): string {
  return `${json.slice(0, -1)},"_meta":{"hermes/turn":${turn}}}`;
}

/** The JSON of a text chunk update, byte for byte what JSON.stringify gives for textChunk()/thoughtChunk(). */
function textChunkJson(kind: "user_message_chunk" | "agent_message_chunk" | "agent_thought_chunk", text: string, messageId?: string): string {
  const id = messageId ? `,"messageId":${JSON.stringify(messageId)}` : "";
  return `{"sessionUpdate":"${kind}","content":{"type":"text","text":${JSON.stringify(text)}}${id}}`;
}

/** A call that asked the user and never finished: cancelled before an answer, cut while it ran, or still waiting. */
function unansweredUpdate(ask: PermissionAskRecord, answer: "answered" | "shutdown" | undefined, mayBeWaiting: boolean): acp.SessionUpdate {
  if (mayBeWaiting && answer !== "shutdown") return waitingCallUpdate(ask, answer === "answered" ? "in_progress" : "pending");
  return cancelledPermissionUpdate(ask, answer === "shutdown" ? "shutdown" : "stopped");
}

function toolCallUpdate(call: ToolCallRecord, fullOutputAvailable: boolean): acp.SessionUpdate {
  return {
    sessionUpdate: "tool_call",
    toolCallId: call.id,
    title: call.title,
    kind: call.kind as acp.ToolKind,
    status: call.status,
    locations: toLocations(call.locations),
    rawInput: call.rawInput,
    content: toToolCallContent(call.content),
    // The spill file lives as long as the process that wrote it: offered only while it is there.
    ...toolCallMeta(call, fullOutputAvailable),
    // rawOutput (what the model read) is left out: the card shows `content`, and on long
    // sessions the raw results would double what a load sends.
  };
}

function imageChunk(part: Extract<UserPart, { type: "image" }>, messageId: string): acp.SessionUpdate {
  return { sessionUpdate: "user_message_chunk", content: { type: "image", mimeType: part.mimeType, data: part.data }, messageId };
}
