// What a session journal holds. The journal ($HERMES_HOME/sessions/<id>.jsonl, one JSON
// record per line, append-only, fsynced at each step) is the source of truth; the sql.js
// index ($HERMES_HOME/state.db) is a cache rebuilt from the journals.
import type { ChatMessage } from "../providers/types";
import type { DisplayContent, Location, TodoItem } from "../tools/context";
import type { LearnedNote } from "../../common/learned-note";

export type TitleSource = "auto" | "user" | "first_line";

/** A session that works in its own git worktree (worktrees/): where, on which branch, from which commit. */
export interface SessionWorktree {
  /** The worktree's top folder. */
  path: string;
  /** The session's working folder inside it (the top, or the same subfolder the user opened). */
  cwd: string;
  branch: string;
  /** The commit it started from. */
  base: string;
  /** The main checkout's top folder, where /worktree apply brings the work. */
  repo: string;
}

export interface SessionMeta {
  id: string;
  /** Working directory as the client gave it (absolute). */
  cwd: string;
  /** The workspace's other roots (ACP additionalDirectories) the session was opened with. */
  additionalDirectories?: string[];
  createdAt: number;
  /** The session this one was forked from. */
  parentId?: string;
  /** Where it was made: "acp" (an editor), "chat" (the terminal), "fork". */
  source: string;
  mode?: string;
  /** "<provider>/<name>" of the model picked for the session. */
  modelId?: string;
  provider?: string;
  model?: string;
  /** Set when the session works in its own git worktree (its tools run there, not in `cwd`). */
  worktree?: SessionWorktree;
}

/** A tool call as the user saw it when it finished: enough to replay it faithfully. */
export interface ToolCallRecord {
  /** The id the client saw. */
  id: string;
  /** The provider's id, as in the assistant message's toolCalls (orders replay). */
  requestId?: string;
  name: string;
  title: string;
  kind: string;
  locations: Location[];
  rawInput: unknown;
  status: "completed" | "failed";
  content: DisplayContent[];
  rawOutput: unknown;
  /** The whole output spilled to a file (tools/output-spill.ts); gone with the process's temp folder. */
  fullOutput?: { path: string; bytes: number };
  /** Stopped by the user while it waited or ran (replayed as cancelled, not failed). */
  cancelled?: boolean;
  /** A step of another call (a tool called from execute_code's program): that call's id. */
  parentId?: string;
}

/** One hook run as the journal keeps it (the command redacted like every record). */
export interface HookRunRecord {
  event: string;
  command: string;
  origin: string;
  exit: number | null;
  timedOut: boolean;
  ms: number;
  /** What Hermes read from it: "blocked: …", "allow (…)", "failed: …", or "" for nothing. */
  decision: string;
}

export type JournalRecord = JournalEntry & {
  /** REDACTION_VERSION of the rules that redacted the record as it was written; absent before stamps (see redact-record.ts). */
  redaction?: number;
};

type JournalEntry =
  /** Always the first line. */
  | { t: "meta"; v: 1; at: number; session: SessionMeta }
  /** A completed step of the conversation: the user's prompt, an assistant message, a tool result. */
  | { t: "message"; seq: number; at: number; message: ChatMessage; tokens: number }
  /** A finished tool call's display (replayed on session/load; the model sees the tool message). */
  | { t: "tool_call"; at: number; call: ToolCallRecord }
  | { t: "plan"; at: number; todos: TodoItem[] }
  /** Changes to the session's settings and counters. */
  | {
      t: "update";
      at: number;
      title?: string;
      titleSource?: TitleSource;
      mode?: string;
      modelId?: string;
      /** The session's extended-thinking switch (ACP boolean option "thinking"); absent: the model's configured default. */
      thinking?: boolean;
      /** The workspace's extra roots changed (a load or resume with another list): the whole new list. */
      additionalDirectories?: string[];
      /** The session's /tools toggles after a change (tool or toolset name → on), all of them. */
      toolToggles?: Record<string, boolean>;
      /** Deferred tools loaded so far (tool_search), in load order, all of them. */
      loadedTools?: string[];
      /** Tokens used by one model call (added to the session's counter). */
      tokens?: number;
      /** The frozen system prompt, kept so a reloaded session sends the same bytes (prompt cache). */
      systemPrompt?: string;
      /** /reset: the model history starts over after this record (and the prompt is rebuilt). */
      reset?: boolean;
      /** Context compression: the model history from here on is the compacted one (see compacted-history.ts). */
      compaction?: CompactionRecord;
      /**
       * A prompt's turn began ("start", after its user message) or ended ("end", with how). A
       * "start" without a later "end" is a turn cut short by the process's death (replay.ts).
       */
      turn?: "start" | "end";
      /** How the turn ended (with `turn: "end"`): the prompt's stopReason, or "error". */
      stopReason?: string;
      /** A hook ran (hooks/): which, for what event, how it ended and what it decided. Not replayed. */
      hook?: HookRunRecord;
      /** A tool call asked the user's permission (replay shows one never answered as cancelled). */
      permission?: PermissionAskRecord;
      /** The permission asked for this tool call got its answer, or was cancelled when the agent shut down. */
      permissionAnswer?: PermissionAnswerRecord;
      /** The learning review changed memory or a skill (replayed as its "Learned: …" line). */
      learned?: LearnedNote;
      /** A notice the user was shown (a retry, a fallback, a cut reply, the turn's failure): replayed as it was shown. */
      notice?: string;
    };

/** A permission request as the user saw it: the tool call's card and the question. */
export interface PermissionAskRecord {
  call: Omit<ToolCallRecord, "status" | "content" | "rawOutput">;
  /** The question's title ("$ rm -rf build", "Write src/app.ts"). */
  title: string;
  /** What kind of action was asked about (the cancelled card says what did not happen). */
  action: string;
  /** What was shown with the question: the command and why it asks, an edit's diff. */
  content: DisplayContent[];
}

export interface PermissionAnswerRecord {
  toolCallId: string;
  /** "answered": the user (or the client) answered; "shutdown": the agent shut down cleanly first. */
  outcome: "answered" | "shutdown";
}

/** One change the learning review made, as the session shows it (the undo data is in $HERMES_HOME/learning): common/learned-note.ts. */
export type { LearnedNote };

/**
 * One context compression, as journaled: the model history at that point keeps its first
 * `head` and last `tail` messages, with `summary` in place of the rest. The journal keeps every
 * original message (session/load replays them); only the model-facing history is compacted.
 */
export interface CompactionRecord {
  head: number;
  tail: number;
  summary: string;
}

/** One row of session/list and of session_search's "recent sessions". */
export interface SessionSummary {
  id: string;
  cwd: string;
  /** The extra roots the session last had (absent: none). */
  additionalDirectories?: string[];
  title?: string;
  titleSource?: TitleSource;
  createdAt: number;
  updatedAt: number;
  parentId?: string;
  source: string;
  modelId?: string;
  messageCount: number;
  toolCallCount: number;
  tokens: number;
}

export interface SearchHit {
  sessionId: string;
  title?: string;
  cwd: string;
  updatedAt: number;
  /** Sequence number of the best-matching message. */
  seq: number;
  role: string;
  /** Text around the match, with the matched terms marked [like this]. */
  snippet: string;
  /** Higher is better. */
  score: number;
}

/** Messages of one session as plain text, for the model to read (session_search). */
export interface MessageText {
  seq: number;
  role: string;
  text: string;
  at: number;
}

/** session/list: newest first, `limit` (default 50) at a time. */
export interface ListOptions {
  /** Only sessions whose working directory is this one (compared as real paths, symlinks resolved). */
  cwd?: string;
  /** `nextCursor` of the previous page. */
  cursor?: string;
  limit?: number;
}

export interface SessionPage {
  sessions: SessionSummary[];
  /** Present when there are more sessions after this page. */
  nextCursor?: string;
}

export interface SearchOptions {
  /** Leave this session out (the one doing the searching). */
  excludeSessionId?: string;
  /** Only sessions in this working directory (real paths compared). */
  cwd?: string;
  /** Most hits returned (default 10); one hit per session. */
  limit?: number;
}

/** A page of a session's messages: from `offset` in order, or the window centred on `aroundSeq`. */
export interface MessagesOptions {
  aroundSeq?: number;
  offset?: number;
  /** Default 20. */
  limit?: number;
}
