// The loop's two-way boundary with whoever hosts it (the ACP edge, in practice):
// what it reports as the turn runs, and what it needs from the editor side.
import type { CodeExecLimits } from "../tools/code-exec/limits";
import type { TokenUsage } from "../providers/types";
import type { ApprovalRules } from "../security/approval-rules";
import type { ModelChoice } from "./model-choice";
import type { ClarifyAnswer, ClarifyQuestion, Delegation, DisplayContent, FileAccess, Location, PermissionAsk, SessionHistoryAccess, ShellRunner, TodoItem } from "../tools/context";
import type { ElicitationAnswer, ElicitationAsk } from "../tools/elicitation";
import type { AgentSession } from "./session";
import type { WorkspaceCheckpoints } from "../checkpoints/workspace-checkpoints";
import { AgentError } from "../util/agent-error";
import type { ToolCallOutcome, ToolCallView } from "./tool-call-view";

export type { ToolCallOutcome, ToolCallView } from "./tool-call-view";

/** Everything the user should see, as it happens. */
export interface TurnObserver {
  /** `messageId`: the same for every delta of one model reply (ACP's messageId; journaled with the reply). */
  textDelta(text: string, messageId?: string): void;
  reasoningDelta(text: string, messageId?: string): void;
  toolCallPending(call: ToolCallView): void;
  toolCallRunning(id: string): void;
  toolCallProgress(id: string, update: { content?: DisplayContent[]; title?: string; locations?: Location[] }): void;
  toolCallFinished(id: string, outcome: ToolCallOutcome): void;
  plan(todos: TodoItem[]): void;
  /** Usage of one successful model call, with the model that answered it. */
  usage(usage: TokenUsage, model: ModelChoice): void;
  /** A /steer note joined the conversation here (before the next model call). */
  steered?(text: string): void;
  /** Something the user should know that is not part of the answer (a retry, a model switch). */
  notice(text: string): void;
  /** Context compression began (`id` is unique within the session). */
  compactionStarted(id: string): void;
  compactionFinished(id: string, report: CompactionReport): void;
  /** The context in use changed without a model call (after a compression). */
  contextUsage(usedTokens: number, model: ModelChoice): void;
}

/** How a context compression went: `degraded` means the middle was dropped without a model-written summary. */
export interface CompactionReport {
  status: "completed" | "degraded" | "failed" | "cancelled";
  trigger: "threshold" | "overflow" | "command";
  messagesBefore: number;
  messagesAfter: number;
  /** Estimated prompt tokens before and after. */
  tokensBefore: number;
  tokensAfter: number;
  summary?: string;
  error?: string;
}

/** allow_always / reject_always are saved to config.yaml; allow_session lasts the session. */
export type PermissionAnswer = "allow_once" | "allow_session" | "allow_always" | "reject" | "reject_always";

/**
 * A rejection that carries the user's words for the model ("No, do this instead…"): thrown by
 * `askUser`, turned into the tool's result by the permission gate.
 */
export class UserRejection extends AgentError<"cancelled"> {
  constructor(
    readonly reason: string,
    /** "Always reject": the answer is saved as well. */
    readonly always: boolean,
  ) {
    super("cancelled", `The user rejected this: ${reason}`, { rejected: true, always });
    this.name = "UserRejection";
  }
}

/** What tools reach the editor through. */
export interface TurnHost {
  files: FileAccess;
  shell: ShellRunner;
  /** Past sessions, for session_search. */
  history?: SessionHistoryAccess;
  /** The auxiliary model, for tools' short texts (session_search's summaries); absent: none. */
  auxiliary?: ModelChoice;
  /** The model that looks at images (vision_analyze); absent: none sees. */
  vision?: ModelChoice;
  /** Answers the user saved ("always allow / reject"). */
  approvals?: ApprovalRules;
  /** Shows a permission prompt for a tool call and waits for the user's answer. */
  askUser(call: ToolCallView, ask: PermissionAsk, signal: AbortSignal): Promise<PermissionAnswer>;
  /** Asks the user a question for the clarify tool (absent: the tool cannot ask, as for a subagent). */
  clarify?(call: ToolCallView, question: ClarifyQuestion, signal: AbortSignal): Promise<ClarifyAnswer>;
  /** Forwards an elicitation to the user (absent: nobody can answer, as for a subagent). */
  elicit?(call: ToolCallView, ask: ElicitationAsk, signal: AbortSignal): Promise<ElicitationAnswer>;
  /** Tells the user a URL-mode elicitation's flow ended. */
  completeElicitation?(elicitationId: string): Promise<void>;
  /** Checkpoints before a turn's first change (absent: none, as for a subagent's turns). */
  checkpoints?: WorkspaceCheckpoints;
  /** delegate_task's children for one tool call (acp-server/delegate/); absent: no delegation. */
  delegation?: (call: DelegationCall) => Delegation;
  /** execute_code's limits (config.yaml `code_exec`); absent: the defaults. */
  codeExecLimits?: CodeExecLimits;
  /** Hermes's own processes under the session's sandbox, even where commands run in the editor's terminals (execute_code needs their pipes). */
  localShell?: ShellRunner;
  /** The session's PreToolUse / PostToolUse / PreCompact / SubagentStop hooks (hooks/session-hooks.ts); absent: none. */
  toolHooks?: ToolHooks;
}

/** A tool call as hooks see it: the tool's name and toolset (for matchers) and its input. */
export interface HookedToolCall {
  name: string;
  toolset: string;
  input: unknown;
}

/** Hooks the loop runs: around each tool call, before compression, when a subagent would stop. A hook's failure is its own business: these never throw. */
export interface ToolHooks {
  /** PreCompact: told before the conversation is compressed. */
  beforeCompact?(trigger: "manual" | "auto"): Promise<unknown>;
  /** SubagentStop: a reason to go on instead of stopping, or none. */
  subagentStop?(stopHookActive: boolean): Promise<{ block?: string }>;
  beforeTool(call: HookedToolCall, signal?: AbortSignal): Promise<{ decision?: "allow" | "deny" | "ask"; reason?: string; updatedInput?: Record<string, unknown>; said: string[] }>;
  afterTool(call: HookedToolCall, result: { text: string; isError: boolean }, signal?: AbortSignal): Promise<{ context: string[]; block?: string; said: string[] }>;
}

/** The delegate_task call a Delegation serves: whose children they are and where progress goes. */
export interface DelegationCall {
  session: AgentSession;
  host: TurnHost;
  call: ToolCallView;
  signal: AbortSignal;
  /** Replaces the tool call card's content. */
  progress: (content: DisplayContent[]) => void;
}
