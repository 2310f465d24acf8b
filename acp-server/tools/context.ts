// What a tool may use while it runs. The agent layer builds one per tool call; the
// ACP edge supplies the editor-backed pieces (client fs, client terminals, permission
// prompts), so tools never know which side of the protocol they are on.
import type { PolicyAsk } from "../security/policy-ask";
import type { CodeExecLimits } from "./code-exec/limits";
import type { UserElicitation } from "./elicitation";
import type { NamedSecret } from "../security/outbound-secrets";
import { AgentError } from "../util/agent-error";
import type { PinnedTarget } from "../util/no-follow-io";

/** An image as base64 bytes (what MCP tools return and models take). */
export interface ImagePart {
  mimeType: string;
  data: string;
}

/** Content shown to the user in the tool call card (converted to ACP content by the edge). */
export type DisplayContent =
  | { type: "text"; text: string }
  | { type: "diff"; path: string; oldText: string | null; newText: string }
  | { type: "terminal"; terminalId: string }
  | ({ type: "image" } & ImagePart)
  | { type: "resource_link"; uri: string; name: string; mimeType?: string; title?: string; description?: string }
  | { type: "resource"; uri: string; mimeType?: string; text?: string; blob?: string };

export interface Location {
  path: string;
  line?: number;
}

/** Reads and writes text files. Paths are absolute. */
export interface FileAccess {
  /**
   * Whole file as text. Throws FileNotFoundError when it does not exist. With `pin` (what the
   * policy judged: tools/pinned-target.ts), only that real file is read, and PathMovedError
   * (util/no-follow-io.ts) says the path now leads elsewhere.
   */
  readText(path: string, pin?: PinnedTarget): Promise<string>;
  /**
   * Writes the whole file, creating parent folders. An editor that reviews edits may apply only
   * part of the change; the returned note then tells the model what actually landed. With `pin`,
   * only that real file is written, or PathMovedError is thrown and nothing is.
   */
  writeText(path: string, content: string, pin?: PinnedTarget): Promise<WriteOutcome | void>;
  /** True when reads come from the editor (unsaved buffers included). */
  readonly viaEditor: boolean;
}

export interface WriteOutcome {
  /** Set when the file on disk differs from what the tool wrote (a partial review). */
  note?: string;
}

export class FileNotFoundError extends AgentError<"not_found"> {
  constructor(readonly path: string) {
    super("not_found", `File not found: ${path}`, { uri: path });
    this.name = "FileNotFoundError";
  }
}

export interface ExitStatus {
  /** null when the process was killed by a signal. */
  code: number | null;
  signal: string | null;
}

export interface CommandOutput {
  text: string;
  /** True when the middle of the output was dropped to respect the cap. */
  truncated: boolean;
  /** Present once the command has exited. */
  exit?: ExitStatus;
  /** The whole output in a file the runner keeps (an editor that spills its terminals says where). */
  fullOutput?: { path: string; bytes: number };
}

/** A command started by a ShellRunner. */
export interface RunningCommand {
  /** Set when the command runs in an editor terminal the client can display. */
  readonly terminalId?: string;
  output(): Promise<CommandOutput>;
  waitForExit(): Promise<ExitStatus>;
  /** Kills the whole process group. Safe to call more than once or after exit. */
  kill(): Promise<void>;
  /** Frees the terminal (killing the command if still running). Idempotent. */
  release(): Promise<void>;
  /** Live output for runners that can stream it (local processes). Returns an unsubscribe. */
  onOutput?(listener: (chunk: string) => void): () => void;
  /** For a command that ran in the OS sandbox: what the sandbox probably blocked, read from its output. */
  sandboxNote?(output: string): string | undefined;
  /**
   * True when the command runs in an OS sandbox without the host's network: it has a loopback of
   * its own, so a server it starts cannot be reached from outside (the browser tools say so).
   */
  readonly ownNetwork?: boolean;
  /** For a command whose servers can be exported from its sandbox: the ports it listens on, those the host reaches, and those taken there. */
  exportedPorts?(): { listening: number[]; exported: number[]; taken: number[] } | undefined;
  /** Makes a port the command listens on in its sandbox reachable on the host's loopback (the browser tools ask). */
  exposePort?(port: number): Promise<"exported" | "taken" | "not-listening" | "not-exportable"> | undefined;
  /** Set when started with rpcPipes by a runner that offers them. */
  readonly rpc?: CommandRpcPipes;
}

export interface StartCommandOptions {
  cwd: string;
  /** Output beyond this many bytes keeps its head and tail only. */
  outputLimit: number;
  env?: Record<string, string>;
  /** Run outside the OS sandbox, once: only after the user approved exactly that. */
  unsandboxed?: boolean;
  /**
   * Two extra pipes for a program's tool calls (execute_code): the child writes requests on fd 3
   * and reads replies on fd 4. Runners that cannot offer them leave `rpc` unset.
   */
  rpcPipes?: boolean;
  /** No network inside the sandbox, even where the session's commands have some (execute_code). */
  offline?: boolean;
  /** A background command: servers it starts inside a sandbox with its own network are made reachable from the host. */
  exportPorts?: boolean;
}

/** The agent's ends of a command's RPC pipes (StartCommandOptions.rpcPipes). */
export interface CommandRpcPipes {
  requests: NodeJS.ReadableStream;
  replies: NodeJS.WritableStream;
}

/** Runs shell command lines (sh -c) in the editor's terminal or as local processes. */
export interface ShellRunner {
  start(command: string, options: StartCommandOptions): Promise<RunningCommand>;
  /** True when commands started now run inside an OS sandbox (the policy relies on it). */
  sandboxed?(): boolean;
  /** True when commands started now get a network namespace of their own (their servers are invisible from the host). */
  isolatesNetwork?(): boolean;
}

export interface BackgroundProcess {
  id: string;
  command: string;
  cwd: string;
  startedAt: number;
  handle: RunningCommand;
}

/** A tool's permission request: what the policy decides on (PolicyAsk), and what the prompt shows. */
export interface PermissionAsk extends PolicyAsk {
  /** Short human title shown in the prompt, e.g. "Write src/app.ts". */
  title: string;
  /** Only "allow once" / "reject" are offered: the answer may not be remembered (set by the permission gate). */
  askEachTime?: boolean;
  /** Outside the workspace: "allow once", "allow in these folders for this session", "reject" (set by the permission gate). */
  outsideFolders?: string[];
  /**
   * What "for this session" and "always" would cover, in the card's words ("`rm -rf` on `build/`",
   * "edits to `a.txt`"); set by the permission gate (security/approval-scope.ts for commands).
   */
  approvalScope?: string;
  /** Preview shown with the prompt (a diff for edits). */
  content?: DisplayContent[];
  /** Why the action needs approval (set by the policy, shown with the prompt). */
  reasons?: string[];
  /**
   * The one diff in `content` is exactly what the tool writes next through FileAccess, so an editor
   * that serves the write may let the user accept only some of its hunks (the write's answer says
   * which landed). Set by write_file and patch; never for previews that are not the real change.
   */
  partialAccept?: boolean;
}

export type TodoStatus = "pending" | "in_progress" | "completed" | "cancelled";
export interface TodoItem {
  id: string;
  content: string;
  status: TodoStatus;
}

/** Per-session state tools keep between calls (todo list, background processes). */
export interface SessionToolState {
  todos: TodoItem[];
  processes: Map<string, BackgroundProcess>;
  nextProcessNumber: number;
  /** Skills loaded (skill_view) or invoked in the current turn: their outcome is recorded when it ends. */
  skillsUsed: Set<string>;
}

export function createSessionToolState(): SessionToolState {
  return { todos: [], processes: new Map(), nextProcessNumber: 1, skillsUsed: new Set() };
}

/** Read access to stored sessions (implemented by the session store). */
export interface SessionHistoryAccess {
  search(query: string, options: { excludeSessionId?: string; limit?: number }): Promise<
    { sessionId: string; title?: string; cwd: string; updatedAt: number; seq: number; role: string; snippet: string }[]
  >;
  messages(sessionId: string, options: { aroundSeq?: number; offset?: number; limit?: number }): Promise<{ seq: number; role: string; text: string; at: number }[]>;
  recent(limit: number): Promise<{ id: string; title?: string; cwd: string; updatedAt: number; messageCount: number }[]>;
  summary(sessionId: string): Promise<{ id: string; title?: string; cwd: string; updatedAt: number; messageCount: number } | undefined>;
}

/** One task of delegate_task (see acp-server/delegate/). */
export interface DelegateTask {
  goal: string;
  context?: string;
  toolsets?: string[];
  /** "hermes" (or none): an in-process subagent; else a name from delegation.acp_agents. */
  agent?: string;
  /** Folder to work in, inside the session's workspace (default: the session cwd). */
  cwd?: string;
  /** "worktree": the task edits in a git worktree of its own, its diff applied back after (delegate/task-worktree.ts). */
  isolation?: "workspace" | "worktree";
}

/** What became of a worktree task's change (DelegateResult.worktree). */
export interface TaskWorktreeResult {
  branch: string;
  /** The files the task changed. */
  files: string[];
  /**
   * "applied": in the parent's workspace as uncommitted changes, the worktree removed; "conflict":
   * not applied (it would conflict), the worktree kept at `path`; "kept": the task did not complete,
   * so nothing was applied and the worktree is kept; "none": no change.
   */
  outcome: "applied" | "conflict" | "kept" | "none";
  /** Why it was not applied, naming what blocks it. */
  reason?: string;
  /** The kept worktree (on conflict). */
  path?: string;
}

export interface DelegateResult {
  task_index: number;
  agent: string;
  /** max_iterations: the subagent spent its budget and summarized what it had. */
  status: "completed" | "max_iterations" | "failed" | "cancelled";
  /** The child's final answer, bounded. */
  summary: string;
  duration_ms: number;
  tool_calls: number;
  error?: string;
  worktree?: TaskWorktreeResult;
}

/** Runs delegate_task's children for one tool call; results come back in task order. */
export interface Delegation {
  /** `content`: what the finished card shows (each child's progress and outcome). */
  run(tasks: DelegateTask[]): Promise<{ results: DelegateResult[]; content: DisplayContent[] }>;
}

/** One question for the user (the clarify tool): 2–6 choices, or free text when there are none. */
export interface ClarifyQuestion {
  question: string;
  choices?: { label: string; description?: string }[];
}

/**
 * How the user answered. `in_chat`: the editor has no way to ask for free text mid-turn, so the
 * question becomes the turn's reply and the answer comes as the next prompt.
 */
export type ClarifyAnswer =
  | { kind: "answered"; answer: string }
  | { kind: "no_answer"; why: "declined" | "dismissed" | "timed_out" | "failed" }
  | { kind: "in_chat" };

/** What the session's tool catalog offers tool_search (agent/tool-runner.ts provides it). */
export interface ToolCatalog {
  /** Loads these deferred tools (names), or the best matches of `query`; returns what was loaded, with schemas. */
  load(request: { names?: readonly string[]; query?: string }): { name: string; description: string; parameters: Record<string, unknown> }[];
  /** Names that are neither loaded nor deferred (for the error). */
  unknown(names: readonly string[]): string[];
}

export interface ToolContext {
  /** The session's deferred tools, for tool_search (absent where nothing can be loaded). */
  toolCatalog?: ToolCatalog;
  sessionId: string;
  toolCallId: string;
  /** Session working directory; relative paths resolve against it. */
  cwd: string;
  /**
   * The workspace's other roots (ACP `additionalDirectories`), absolute: inside them is inside
   * the workspace for the path guard, search and the sandbox. Relative paths still resolve
   * against `cwd` only.
   */
  extraRoots?: readonly string[];
  /** Aborted when the user cancels the turn: stop work and kill children. */
  signal: AbortSignal;
  files: FileAccess;
  shell: ShellRunner;
  state: SessionToolState;
  /** Streams an in-progress update of this tool call to the editor. */
  progress(update: { content?: DisplayContent[]; title?: string; locations?: Location[] }): void;
  /** Asks the user (or the session's mode) whether the action may proceed. */
  requestPermission(ask: PermissionAsk): Promise<boolean>;
  /** The secret values the session's tools have read (security/seen-secrets.ts), for outbound tools; absent in tests that need none. */
  secretsSeen?: { list(): readonly NamedSecret[] };
  /** Publishes the session's plan (the todo list) to the editor. */
  publishPlan(todos: TodoItem[]): void;
  /** Past sessions (session_search); absent where no store is available. */
  history?: SessionHistoryAccess;
  /**
   * One short text from the auxiliary model (no tools), its cost counted in the session's
   * usage; throws when the call fails. Absent where no auxiliary model is configured.
   */
  summarize?: (request: { instructions: string; text: string; maxTokens: number }) => Promise<string>;
  /**
   * The vision model's answer to a question about one image (vision_analyze), its cost counted
   * like summarize's; throws when the call fails. Absent where no model that sees is configured.
   */
  lookAtImage?: (image: ImagePart, question: string) => Promise<string>;
  /** Subagents and external agents (delegate_task); absent where delegation is unavailable. */
  delegation?: Delegation;
  /** Asks the user a question and waits (clarify); absent for subagents and hosts that cannot ask. */
  clarify?: (question: ClarifyQuestion) => Promise<ClarifyAnswer>;
  /** Forwards an elicitation (an MCP server's) to the user; absent for subagents and hosts that cannot ask. */
  elicitation?: UserElicitation;
  /**
   * Runs another tool as a nested step of this call, through the same path as a direct call
   * (permission gate, guard, redaction, journal); its result does not enter the model's context.
   * Used by execute_code's program; absent where nesting is not offered.
   */
  runNestedTool?: (name: string, args: unknown) => Promise<NestedToolResult>;
  /** execute_code's limits (config.yaml `code_exec`); absent: the defaults. */
  codeExecLimits?: CodeExecLimits;
  /** Hermes's own processes under the session's sandbox (execute_code's programs need their pipes); absent: `shell`. */
  localShell?: ShellRunner;
}

/** What a nested tool call returned: the redacted output the program gets, and whether it failed. */
export interface NestedToolResult {
  output: unknown;
  isError: boolean;
}
