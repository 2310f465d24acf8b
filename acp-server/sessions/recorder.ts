// Writes one session's steps to its journal: the one module that knows the record format on
// the way in (the agent's AgentSession is its only caller). A failing disk must not stop the
// conversation: the failure is logged (once) and the turn goes on.
import { messageTokens } from "../providers/token-estimate";
import type { ChatMessage } from "../providers/types";
import type { DisplayContent, TodoItem } from "../tools/context";
import type { Logger } from "../util/log";
import { capCardImage } from "./card-image-cap";
import { redactRecord } from "./redact-record";
import { SessionNotOwnedError } from "./session-lease";
import type { CompactionRecord, HookRunRecord, JournalRecord, LearnedNote, PermissionAnswerRecord, PermissionAskRecord, ToolCallRecord, TitleSource } from "./types";

export interface JournalWriter {
  append(sessionId: string, record: JournalRecord, options?: { sync?: boolean }): void;
}

export class SessionRecorder {
  private failed = false;

  constructor(
    private readonly journal: JournalWriter,
    readonly sessionId: string,
    private nextSeq: number,
    private readonly log: Logger,
  ) {}

  /** A completed step of the conversation: on disk before this returns. */
  message(message: ChatMessage): void {
    this.write({ t: "message", seq: this.nextSeq++, at: Date.now(), message, tokens: messageTokens(message) }, true);
  }

  // What follows only affects replay and the index. Every record is written at once (a kill -9
  // cannot lose it); these skip the fdatasync and reach the disk with the next step's.

  /** Not written by a process that follows the session: the owner journals its own. */
  systemPrompt(prompt: string): void {
    this.write({ t: "update", at: Date.now(), systemPrompt: prompt }, false, false);
  }

  /** A finished tool call as the user saw it (what session/load replays). */
  toolCall(call: ToolCallRecord): void {
    this.write({ t: "tool_call", at: Date.now(), call: { ...call, content: journalContent(call) } }, false);
  }

  /**
   * A tool call waits for the user's answer. Replay shows one that never got an answer (nor its
   * finished card) as cancelled: the tool card does not vanish when the agent restarts.
   */
  permissionAsked(ask: PermissionAskRecord): void {
    this.write({ t: "update", at: Date.now(), permission: ask }, false, false);
  }

  /** The question was answered, or the agent shut down before it was (written on the way out). */
  permissionAnswered(answer: PermissionAnswerRecord): void {
    this.write({ t: "update", at: Date.now(), permissionAnswer: answer }, answer.outcome === "shutdown", false);
  }

  plan(todos: TodoItem[]): void {
    this.write({ t: "plan", at: Date.now(), todos }, false);
  }

  /**
   * A prompt's turn began or ended (how: its stopReason, or "error"). Replay ends a stopped turn
   * with a "Stopped" marker and a started one that never ended with "Interrupted". Not required:
   * a turn that lost its session to another process fails on its next step, not here.
   */
  turn(edge: "start" | "end", stopReason?: string): void {
    this.write({ t: "update", at: Date.now(), turn: edge, ...(stopReason !== undefined ? { stopReason } : {}) }, false, false);
  }

  /** /reset: the model history starts over from here (replay still shows everything). */
  reset(): void {
    this.write({ t: "update", at: Date.now(), reset: true }, true);
  }

  /** Context compression: the model history is compacted from here on (the messages stay). */
  compaction(compaction: CompactionRecord): void {
    this.write({ t: "update", at: Date.now(), compaction }, true);
  }

  /** A change the learning review made (replayed as its "Learned: …" line). */
  learned(note: LearnedNote): void {
    this.write({ t: "update", at: Date.now(), learned: note }, false, false);
  }

  /** A hook run: kept for the record (what ran, how it ended, what it decided); not part of the conversation. */
  hookRan(hook: HookRunRecord): void {
    this.write({ t: "update", at: Date.now(), hook }, false, false);
  }

  /** A notice shown to the user (failures included), so a reload shows it too. Redacted like every record. */
  notice(text: string): void {
    this.write({ t: "update", at: Date.now(), notice: text }, false, false);
  }

  /** Titles, mode and model changes are the user's choices: made durable at once. */
  settings(fields: { title?: string; titleSource?: TitleSource; mode?: string; modelId?: string; thinking?: boolean; additionalDirectories?: string[]; toolToggles?: Record<string, boolean>; loadedTools?: string[]; tokens?: number }): void {
    this.write({ t: "update", at: Date.now(), ...fields }, fields.tokens === undefined);
  }

  /**
   * The journal's one door: every record (prompts, replies, tool calls, the system prompt) is
   * redacted here. A session another process owns is not written, and the caller hears why
   * (the turn or the setting fails with SessionNotOwnedError), unless `required` is false.
   */
  private write(record: JournalRecord, sync: boolean, required = true): void {
    try {
      this.journal.append(this.sessionId, redactRecord(record), { sync });
    } catch (error) {
      if (error instanceof SessionNotOwnedError) {
        if (required) throw error;
        return;
      }
      if (!this.failed) this.log.error("the session journal could not be written; this session may not be restorable", { sessionId: this.sessionId, error });
      this.failed = true;
    }
  }
}

/**
 * What a finished tool call's card keeps in the journal. An editor terminal is gone once the
 * session is reloaded (elsewhere, later), so it is kept as the command's output text. A very
 * large image is kept as a line saying so (card-image-cap.ts).
 */
function journalContent(call: ToolCallRecord): DisplayContent[] {
  return call.content.map((item) => {
    if (item.type !== "terminal") return capCardImage(item);
    const output = (call.rawOutput as { output?: unknown } | undefined)?.output;
    return { type: "text", text: `\`\`\`\n${typeof output === "string" ? output : ""}\n\`\`\`` };
  });
}
