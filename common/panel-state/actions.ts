// Every change to ChatState is one of these actions. The host creates them (from ACP traffic
// and user commands), applies them, and forwards them to the panel, which applies the same.
import type * as acp from "@agentclientprotocol/sdk";
import type { CheckpointState } from "./checkpoints";
import type { KnowledgeState } from "./knowledge";
import type { Attachment, AttachmentSummary, ChatState, ConnectionStatus, NoticeAction, QuestionItem, QueuedPrompt, ReviewHunk, ReviewItem, SessionSummary } from "./types";

export type ChatAction =
  | { type: "connection"; status: ConnectionStatus; message?: string; agent?: { name: string; version?: string } }
  /** A session was opened (new, load, fork): clears the transcript. */
  | {
      type: "sessionOpened";
      sessionId: string;
      title?: string;
      loading: boolean;
      modes?: acp.SessionModeState | null;
      configOptions?: acp.SessionConfigOption[] | null;
    }
  /** The load finished; `modes` / `configOptions` are the pickers from the `session/load` answer, when it had them. */
  | { type: "sessionLoaded"; modes?: acp.SessionModeState | null; configOptions?: acp.SessionConfigOption[] | null }
  | { type: "sessionClosed" }
  | { type: "update"; update: acp.SessionUpdate }
  | { type: "userPrompt"; text: string; attachments: AttachmentSummary[]; isCommand: boolean }
  | { type: "turnStarted"; at: number }
  | { type: "turnEnded"; stopReason: string }
  | { type: "notice"; severity: "info" | "warning" | "error"; text: string; action?: NoticeAction }
  /** `hunks`: an edit the card decides hunk by hunk. */
  | { type: "permissionRequested"; id: string; toolCall: acp.ToolCallUpdate; options: acp.PermissionOption[]; hunks?: ReviewHunk[] }
  | { type: "permissionHunkDecided"; id: string; hunk: number; decision: ReviewHunk["decision"] }
  /** `optionKind`: the chosen option's kind (a rejection marks the tool call "rejected by you"); `reason`: the user's words with it. */
  | { type: "permissionResolved"; id: string; outcome: string; optionKind?: string; reason?: string; note?: string }
  /** The agent asks a question (elicitation/create); answered or not, `questionResolved` closes it. */
  | { type: "questionAsked"; question: Omit<QuestionItem, "kind" | "outcome"> }
  /** `note`: why a question nobody answered was closed ("Cancelled: the agent restarted before you answered"). */
  | { type: "questionResolved"; id: string; answered: boolean; text: string; note?: string }
  | { type: "reviewRequested"; review: Omit<ReviewItem, "kind" | "status" | "toolCallId" | "embedded"> }
  | { type: "reviewHunkDecided"; id: string; hunk: number; decision: "accepted" | "rejected" | "pending" }
  | { type: "reviewResolved"; id: string; status: ReviewItem["status"] }
  | { type: "queueChanged"; queue: QueuedPrompt[] }
  | { type: "attachmentAdded"; attachment: Attachment }
  | { type: "attachmentRemoved"; id: string }
  | { type: "attachmentsCleared" }
  /** Output of an editor terminal (coalesced by the host); `truncated`: the host dropped some before sending. */
  | { type: "terminalOutput"; terminalId: string; text: string; truncated?: boolean }
  | { type: "terminalExited"; terminalId: string; exitCode: number | null; signal: string | null }
  | { type: "configOptions"; configOptions: acp.SessionConfigOption[] }
  | { type: "history"; open?: boolean; loading?: boolean; sessions?: SessionSummary[]; error?: string }
  /** "What Hermes knows": opened, closed, loading, its data or the outcome of a change (fields absent: unchanged; error and outcome: cleared). */
  | ({ type: "knowledge" } & Partial<KnowledgeState>)
  /** The agent's checkpoint list for the open session. */
  | { type: "checkpoints"; checkpoints: CheckpointState }
  /** The agent's number for a prompt's turn (from its answer): corrects the panel's own count. */
  | { type: "userTurn"; id: string; turn: number };

export type { ChatState };
