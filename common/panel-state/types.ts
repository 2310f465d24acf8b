// The chat panel's state: one plain, serialisable object. The extension host owns the
// authoritative copy and applies every change through `reduce` (./reducer.ts); the panel keeps
// a mirror, rebuilt from a snapshot whenever the webview is (re)created. Both sides run the
// same reducer, so the host only ships small actions while a turn streams.
import type * as acp from "@agentclientprotocol/sdk";
import type { CheckpointState } from "./checkpoints";
import type { KnowledgeState } from "./knowledge";

export type ConnectionStatus = "starting" | "ready" | "restarting" | "failed" | "stopped";

/** Something attached to the next prompt: a mention, the selection, the active file, an image. */
export type Attachment =
  /** `embed`: send the file's whole text (attach active file) instead of a link to it (mention). */
  | { kind: "file"; id: string; uri: string; name: string; embed?: boolean }
  | { kind: "selection"; id: string; uri: string; name: string; text: string; startLine: number; endLine: number; languageId?: string }
  | { kind: "image"; id: string; name: string; mimeType: string; data: string };

export interface AttachmentSummary {
  kind: Attachment["kind"];
  name: string;
}

export interface UserItem {
  kind: "user";
  id: string;
  text: string;
  attachments: AttachmentSummary[];
  messageId?: string;
  /** Counts real prompts (slash commands excluded): `session/fork` keeps this many turns. */
  turn: number;
  /** A slash command the agent answers without a turn (no checkpoint, nothing to edit and resend). */
  command?: boolean;
}
export interface AgentItem {
  kind: "agent";
  id: string;
  /** Markdown, growing while the reply streams. */
  text: string;
  messageId?: string;
}
export interface ThoughtItem {
  kind: "thought";
  id: string;
  text: string;
}
export interface ToolItem {
  kind: "tool";
  id: string;
  title: string;
  toolKind: acp.ToolKind;
  status: acp.ToolCallStatus;
  content: acp.ToolCallContent[];
  locations: acp.ToolCallLocation[];
  rawInput?: unknown;
  /** The user rejected it in a permission card: "Rejected by you", not a failure. */
  rejected?: boolean;
  /** It ended cancelled (`_meta["hermes/cancelled"]`; ACP's status says "failed"): "Cancelled", not a failure. */
  cancelled?: boolean;
  /** The agent's file with the whole output (`_meta["hermes/fullOutput"]`): the card's "Show all" opens it. */
  fullOutput?: string;
  /** A step of another tool call (execute_code's program): shown indented under it. */
  parentId?: string;
}
export interface PermissionItem {
  kind: "permission";
  /** The host's id for the pending `session/request_permission`. */
  id: string;
  toolCallId: string;
  title: string;
  options: acp.PermissionOption[];
  /** What the agent shows with the question: the command, why it asks, an edit's diff. */
  content?: acp.ToolCallContent[];
  /** The option picked, "cancelled", or undefined while waiting. */
  outcome?: string;
  /** The user's words with a rejection. */
  reason?: string;
  /** What a cancelled question says instead of plain "Cancelled" ("Cancelled: the window reloaded; …"). */
  note?: string;
  /**
   * An edit decided hunk by hunk in this card (the agent marked its diff as the very write that
   * follows): accept all, reject all, or each hunk. Absent for other questions.
   */
  hunks?: ReviewHunk[];
  /** Shown inside its tool call's card (one card per edit), not as a card of its own. */
  embedded?: boolean;
}
export interface ReviewHunk {
  /** 1-based line numbers in the old and new text, as in a unified diff header. */
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: { op: " " | "-" | "+"; text: string }[];
  decision: "pending" | "accepted" | "rejected";
}
export interface ReviewItem {
  kind: "review";
  /** The host's id for the held `fs/write_text_file`. */
  id: string;
  path: string;
  /** Shown relative to the workspace. */
  displayPath: string;
  isNewFile: boolean;
  hunks: ReviewHunk[];
  status: "pending" | "applied" | "rejected" | "cancelled";
  /** The edit tool call whose write this is (found when the review arrives): shown inside its card. */
  toolCallId?: string;
  embedded?: boolean;
}
/** A button a notice offers: "signIn" while the agent has no usable model (auth-required). */
export type NoticeAction = "signIn";

export interface NoticeItem {
  kind: "notice";
  id: string;
  severity: "info" | "warning" | "error";
  text: string;
  action?: NoticeAction;
  /**
   * "stopped": the marker a turn stopped by the user ends with (a rule, not a box);
   * "interrupted": a turn cut short when the agent's process died (`text` says why).
   */
  marker?: "stopped" | "interrupted";
}
export interface CompactionItem {
  kind: "compaction";
  id: string;
  status: string;
  summary?: string;
}

/** The agent's question (elicitation/create, from the clarify tool): pick a choice or type an answer. */
export interface QuestionItem {
  kind: "question";
  /** The host's id for the pending elicitation. */
  id: string;
  message: string;
  /** The form field the answer goes in. */
  field: string;
  /** Choices to pick from; none: a free-text answer. */
  choices?: { value: string; title: string; description?: string }[];
  /** The answer given, or "declined" / "cancelled" (`answered` false); undefined while waiting. */
  outcome?: { answered: boolean; text: string };
  /** Why it closed unanswered, when not by the user ("Cancelled: the agent restarted before you answered"). */
  note?: string;
}
/** Guidance the user sent during a turn (/steer), where the turn applied it. */
export interface SteerItem {
  kind: "steer";
  id: string;
  text: string;
}

/** What the agent's learning review saved (`_meta["hermes/learned"]`): a card with Undo and Open. */
export interface LearnedItem {
  kind: "learned";
  id: string;
  /** The change's id, for `/learned undo <id>`. */
  changeId: string;
  learned: "memory" | "skill";
  what: string;
  /** The file it was written to (Open). */
  where: string;
}

export type TranscriptItem = UserItem | AgentItem | ThoughtItem | ToolItem | PermissionItem | ReviewItem | NoticeItem | CompactionItem | QuestionItem | SteerItem | LearnedItem;

export interface QueuedPrompt {
  id: string;
  text: string;
  attachments: Attachment[];
}

export interface SessionSummary {
  sessionId: string;
  title?: string;
  cwd: string;
  updatedAt?: string;
  /** The session's first prompt (a content search's hit has it). */
  firstPrompt?: string;
  /** Text around a content search's match, the matched words in [brackets]. */
  snippet?: string;
}

/** One editor terminal's output (the newest ~64 KB) and, once it ended, how. */
export interface TerminalOutput {
  output: string;
  /** Set (possibly null) once the command exited, with `signal`. */
  exitCode?: number | null;
  signal?: string | null;
  /** Earlier output was dropped. */
  truncated?: boolean;
}

export interface ChatState {
  connection: { status: ConnectionStatus; message?: string };
  agent?: { name: string; version?: string };
  /** Null until a session is open. */
  sessionId: string | null;
  title?: string;
  /** True while `session/load` replays history into the transcript. */
  loading: boolean;
  items: TranscriptItem[];
  /** id → position in `items`, so streamed updates find their item in O(1). */
  index: Record<string, number>;
  turn: { running: boolean; startedAt?: number; lastStopReason?: string };
  queue: QueuedPrompt[];
  attachments: Attachment[];
  modes?: acp.SessionModeState;
  configOptions: acp.SessionConfigOption[];
  commands: acp.AvailableCommand[];
  plan: acp.PlanEntry[];
  usage?: { used: number; size: number; cost?: { amount: number; currency: string } };
  history: { open: boolean; loading: boolean; sessions: SessionSummary[]; error?: string };
  /** Terminal id → its output, for tool calls whose content is `{type: "terminal"}`. Kept after release. */
  terminals: Record<string, TerminalOutput>;
  /** "What Hermes knows" (state/knowledge.ts); undefined until first opened. */
  knowledge?: KnowledgeState;
  /** Which prompts have a checkpoint (state/checkpoints.ts); undefined until the agent answered. */
  checkpoints?: CheckpointState;
  /** Used for ids of items the host creates itself (notices, user prompts). */
  seq: number;
}
