// One conversation as the agent sees it: history, cwd, mode, settings, usage and tool state.
// It is also the one door to the session's journal: every change that must survive a restart
// (a step, the system prompt, a compaction, a tool call's card, a plan, a setting, a reset)
// goes through a method here, which writes it durably before changing memory. Nothing here
// knows about ACP; the protocol edge wraps it and only calls these methods.
import { isUserPrompt, type ChatMessage, type TokenUsage } from "../providers/types";
import type { SessionRecorder } from "../sessions/recorder";
import type { CompactionRecord, HookRunRecord, LearnedNote, TitleSource } from "../sessions/types";
import type { SessionMode } from "../security/modes";
import { createSessionToolState, type ClarifyQuestion, type DisplayContent, type PermissionAsk, type SessionToolState, type TodoItem } from "../tools/context";
import { redactSecrets } from "../util/redact";
import { SessionTools } from "../tools/tool-set";
import type { ModelChoice } from "./model-choice";
import { permissionContent } from "./permission-content";
import { SeenFiles } from "./seen-files";
import { SeenSecrets } from "../security/seen-secrets";
import { startActivity, type TurnActivity } from "./turn-activity";
import type { ToolCallOutcome, ToolCallView } from "./tool-call-view";
import { UsageAccount } from "./usage";
import { SessionApprovals } from "./session-approvals";

/** Prompt size the provider reported for the last call, and the history length it covered. */
export interface LastCall {
  tokens: number;
  historyLength: number;
}

/** The conversation part of a restored session: the model history and the tool call ids taken. */
export interface RestoredConversation {
  history: readonly ChatMessage[];
  /** Tool call ids already shown to the client (new ones must not reuse them). */
  toolCallIds: Iterable<string>;
}

/** What a session brings back from its journal (session/load, resume, fork). */
export interface RestoredState extends RestoredConversation {
  /**
   * The conversation, restored when first needed instead (history and toolCallIds are then
   * ignored): a load answers before parsing a long journal (acp/replay-send.ts), and the first
   * read of the history, or a new tool call id, restores it.
   */
  deferred?: () => RestoredConversation;
  systemPrompt?: string;
  modelId?: string;
  thinking?: boolean;
  title?: string;
  titleSource?: TitleSource;
  /** User prompts in the journal so far. */
  prompts?: number;
}

export interface AgentSessionOptions {
  /** The session's journal; none for a subagent (its parent's card and answer are its record). */
  recorder?: SessionRecorder;
  restored?: RestoredState;
  /**
   * The session this one is a subagent of: one level deeper, it starts with the parent's
   * "allow for this session" answers, and its model calls count in the parent's usage.
   */
  parent?: AgentSession;
  /** The registry's tools, its MCP servers' and what it may use of them (none: a session without tools). */
  tools?: SessionTools;
  /** A prompt fixed from the start (a subagent's), instead of the one built on first use. */
  systemPrompt?: string;
  /**
   * The workspace's other roots (ACP additionalDirectories, absolute, cwd excluded). A subagent
   * gets none: its task folder is its whole workspace.
   */
  extraRoots?: readonly string[];
}

export class AgentSession {
  readonly toolState: SessionToolState = createSessionToolState();
  /** Files the agent read or edited, to notice when they change outside the agent. */
  readonly seenFiles = new SeenFiles();
  /**
   * Secret values its tools' output held (masked for the model), for the outbound check. Shared
   * with the parent: what a subagent read, the parent can be handed in another spelling.
   */
  readonly seenSecrets: SeenSecrets;
  /** How deep in delegation this session is: 0 for the user's, 1 for a subagent, ... */
  readonly depth: number;
  readonly tools: SessionTools;
  /**
   * Tokens and cost of this session's model calls in this process, its subagents' included
   * (for /usage and the prompt's answer). A subagent has none of its own: it feeds its parent's.
   */
  readonly usage: UsageAccount;
  /** The workspace's other roots, after the cwd (the path guard, search, the sandbox and the prompt use them). */
  readonly extraRoots: readonly string[];

  private readonly recorder?: SessionRecorder;
  private readonly parent?: AgentSession;
  private readonly restoredMessages: ChatMessage[] = [];
  /** The conversation not restored yet (RestoredState.deferred). */
  private deferred?: () => RestoredConversation;
  private currentMode: SessionMode;
  private model?: string;
  private thinkingSwitch?: boolean;
  private titleText?: string;
  private titleFrom?: TitleSource;
  private prompt?: Promise<string>;
  private context?: number;
  private last?: LastCall;
  private turns = 0;
  private journaledPrompts = 0;
  private activity?: TurnActivity;
  private previousActivity?: TurnActivity;
  private nudgedTurn?: number;
  /** What the user allowed for the rest of this session (a subagent starts with a copy of its parent's). */
  readonly approvals: SessionApprovals;
  private readonly takenToolCallIds = new Set<string>();
  /** Tool calls waiting for the user's answer to a permission question (journaled as asked). */
  private readonly openAsks = new Set<string>();
  /** /steer notes waiting for the running turn's next tool boundary; undefined: no turn takes notes now. */
  private steers?: string[];

  constructor(
    readonly id: string,
    readonly cwd: string,
    mode: SessionMode,
    options: AgentSessionOptions = {},
  ) {
    this.currentMode = mode;
    this.recorder = options.recorder;
    this.parent = options.parent;
    this.tools = options.tools ?? new SessionTools();
    // A root session journals the deferred tools it loads, so a reload sends the same tools.
    if (!options.parent) this.tools.onLoad = (loaded) => this.recorder?.settings({ loadedTools: [...loaded] });
    this.depth = options.parent ? options.parent.depth + 1 : 0;
    this.extraRoots = options.extraRoots ?? [];
    this.usage = options.parent?.usage ?? new UsageAccount();
    this.seenSecrets = options.parent?.seenSecrets ?? new SeenSecrets();
    this.approvals = options.parent ? options.parent.approvals.copy() : new SessionApprovals();
    const restored = options.restored;
    if (restored?.deferred) this.deferred = restored.deferred;
    else if (restored) this.adopt(restored);
    if (restored) {
      if (restored.systemPrompt !== undefined) this.prompt = Promise.resolve(restored.systemPrompt);
      this.model = restored.modelId;
      this.thinkingSwitch = restored.thinking;
      this.titleText = restored.title;
      this.titleFrom = restored.titleSource;
      this.journaledPrompts = restored.prompts ?? 0;
    }
    if (options.systemPrompt !== undefined) this.prompt = Promise.resolve(options.systemPrompt);
  }

  /** Whether the conversation waits to be restored at its first use (RestoredState.deferred). */
  get conversationDeferred(): boolean {
    return this.deferred !== undefined;
  }

  /** Restores a deferred conversation now (RestoredState.deferred), rather than at its first use. */
  restoreConversation(): void {
    this.restoreDeferred();
  }

  /** The model history, restored first if it was deferred. */
  private get messages(): ChatMessage[] {
    if (this.deferred) this.restoreDeferred();
    return this.restoredMessages;
  }

  private get toolCallIds(): Set<string> {
    if (this.deferred) this.restoreDeferred();
    return this.takenToolCallIds;
  }

  private restoreDeferred(): void {
    const restore = this.deferred;
    if (!restore) return;
    // Cleared only once it worked: a failure reaches the caller (a prompt fails) rather than leaving an empty history.
    const conversation = restore();
    this.deferred = undefined;
    this.adopt(conversation);
  }

  private adopt(conversation: RestoredConversation): void {
    for (const message of conversation.history) this.restoredMessages.push(message);
    for (const id of conversation.toolCallIds) this.takenToolCallIds.add(id);
  }

  /** The workspace's roots in order: the cwd, then the extra roots. */
  get workspaceRoots(): string[] {
    return [this.cwd, ...this.extraRoots];
  }

  private contextRestart?: "clear" | "compact";
  /** The model-facing history (compacted after a compression; empty after /reset). */
  get history(): readonly ChatMessage[] {
    return this.messages;
  }

  get mode(): SessionMode {
    return this.currentMode;
  }

  /** The model picked for this session (an id from the model set); undefined = the main model. */
  get modelId(): string | undefined {
    return this.model;
  }

  get title(): string | undefined {
    return this.titleText;
  }

  get titleSource(): TitleSource | undefined {
    return this.titleFrom;
  }

  /** Context the last model call used (prompt + reply), or the size after a compression, for /context. */
  get contextTokens(): number | undefined {
    return this.context;
  }

  /** The last model call's reported size, for the compression trigger (cleared when the history shrinks). */
  get lastCall(): LastCall | undefined {
    return this.last;
  }

  /** Prompts run in this process (drives the periodic memory nudge). */
  get userTurns(): number {
    return this.turns;
  }

  /**
   * User prompts this session's journal holds, reloads and forks included: the latest turn's
   * number (checkpoints are keyed by it, and a rewind forks after turn N - 1).
   */
  get promptCount(): number {
    return this.journaledPrompts;
  }

  /**
   * What the previous turn did with tools (skill-nudge.ts): the turn running now is not over, and
   * its first model call is where the previous turn's nudge goes.
   */
  get lastTurnActivity(): TurnActivity | undefined {
    return this.previousActivity;
  }

  /** What the latest turn did with tools (the one running, or the last one after it ended). */
  get turnActivity(): TurnActivity | undefined {
    return this.activity;
  }

  /** The turn whose skill nudge was given (once per turn). */
  get skillNudgedTurn(): number | undefined {
    return this.nudgedTurn;
  }

  /** A new prompt: counted (memory nudge), with a fresh record of what it does with tools and what it costs. */
  startTurn(): TurnActivity {
    this.turns++;
    this.previousActivity = this.activity;
    this.activity = startActivity(this.turns);
    if (!this.parent) this.usage.startTurn();
    this.recorder?.turn("start");
    this.steers = [];
    return this.activity;
  }

  /**
   * Guidance for the running turn (/steer): applied before its next model call, at the next tool
   * boundary. False when no turn is running (or it is already ending): the caller sends it as a prompt.
   */
  steer(text: string): boolean {
    if (!this.steers) return false;
    this.steers.push(text);
    return true;
  }

  /** The notes sent since the last call, taken out (the loop journals them as it applies them). */
  takeSteers(): string[] {
    const notes = this.steers ?? [];
    if (this.steers) this.steers = [];
    return notes;
  }

  /** The turn stops taking notes; the ones it never applied are returned (the user is told). */
  closeSteering(): string[] {
    const left = this.steers ?? [];
    this.steers = undefined;
    return left;
  }

  /** The prompt's turn is over: how it ended goes to the journal (a stopped turn replays its marker). */
  endTurn(stopReason: string): void {
    this.recorder?.turn("end", stopReason);
  }

  /** A notice the user was shown goes to the journal, so session/load shows it again. */
  recordNotice(text: string): void {
    this.recorder?.notice(text);
  }

  markSkillNudged(turn: number): void {
    this.nudgedTurn = turn;
  }

  /**
   * A completed step (the user's prompt, an assistant message, one tool's result): durable
   * first, then in memory. Tool results are journaled as each tool finishes but kept in memory
   * in call order, as a reloaded history has them (providers want them in that order).
   */
  append(message: ChatMessage): void {
    this.recorder?.message(message);
    if (isUserPrompt(message)) this.journaledPrompts++;
    if (message.role === "tool") this.placeToolResult(message);
    else this.messages.push(message);
  }

  /** A finished tool call's card, for session/load to replay. */
  recordToolCall(call: ToolCallView, outcome: ToolCallOutcome): void {
    const { id, requestId, name, title, kind, rawInput, parentId } = call;
    const { status, content, rawOutput, fullOutput, cancelled } = outcome;
    this.recorder?.toolCall({
      id,
      requestId,
      name,
      title,
      kind,
      locations: outcome.locations ?? call.locations,
      rawInput,
      status,
      content,
      rawOutput,
      ...(fullOutput ? { fullOutput } : {}),
      ...(cancelled ? { cancelled } : {}),
      ...(parentId ? { parentId } : {}),
    });
  }

  /**
   * A tool call asks the user: journaled before the question goes out, so a replay after the
   * agent restarted (a window reload, a crash) still shows the call, cancelled, not nothing.
   */
  recordPermissionAsked(call: ToolCallView, ask: PermissionAsk): void {
    this.recordAsk(call, ask.title, ask.action, permissionContent(ask));
  }

  /**
   * The clarify tool asks the user: journaled like a permission question, so a replay after the
   * agent stopped (a reload, a restart) shows the question cut short, not nothing, and never as
   * the user's answer. Answered: recordPermissionAnswered.
   */
  recordQuestionAsked(call: ToolCallView, question: ClarifyQuestion): void {
    const choices = question.choices?.map((choice, i) => `${i + 1}. ${choice.label}${choice.description ? `: ${choice.description}` : ""}`) ?? [];
    this.recordAsk(call, redactSecrets(question.question), "clarify", [{ type: "text", text: redactSecrets([question.question, ...choices].join("\n")) }]);
  }

  private recordAsk(call: ToolCallView, title: string, action: string, content: DisplayContent[]): void {
    if (!this.recorder) return;
    const { id, requestId, name, kind, locations, rawInput } = call;
    this.recorder.permissionAsked({ call: { id, requestId, name, title: call.title, kind, locations, rawInput }, title, action, content });
    this.openAsks.add(id);
    sessionsAsking.add(this);
    watchExit();
  }

  /** The question was answered (whatever the answer: the tool's card records what followed). */
  recordPermissionAnswered(toolCallId: string): void {
    if (!this.openAsks.delete(toolCallId)) return;
    this.recorder?.permissionAnswered({ toolCallId, outcome: "answered" });
    if (this.openAsks.size === 0) sessionsAsking.delete(this);
  }

  /** The process is exiting with questions open: each is journaled as cancelled by the shutdown. */
  closeOpenAsks(): void {
    for (const toolCallId of this.openAsks) this.recorder?.permissionAnswered({ toolCallId, outcome: "shutdown" });
    this.openAsks.clear();
    sessionsAsking.delete(this);
  }

  recordPlan(todos: TodoItem[]): void {
    this.recorder?.plan(todos);
  }

  /** A change the learning review made to memory or a skill, for session/load to replay. */
  recordLearned(note: LearnedNote): void {
    this.recorder?.learned(note);
  }

  /** A hook ran for this session (hooks/session-hooks.ts): journaled for the record. */
  recordHookRun(run: HookRunRecord): void {
    this.recorder?.hookRan(run);
  }

  /**
   * The session's system prompt, built once by `build` and then frozen (and journaled, so a
   * reloaded session sends the same bytes and provider prompt caches stay valid).
   */
  systemPrompt(build: () => Promise<string>): Promise<string> {
    this.prompt ??= build().then((prompt) => {
      this.recorder?.systemPrompt(prompt);
      return prompt;
    });
    return this.prompt;
  }

  /** Context compression: the compacted history replaces the model's (durable first); `contextTokens` is its size. */
  replaceHistory(messages: ChatMessage[], compaction: CompactionRecord, contextTokens: number): void {
    this.recorder?.compaction(compaction);
    this.messages.splice(0, this.messages.length, ...messages);
    this.last = undefined;
    this.context = contextTokens;
    this.contextRestart = "compact";
  }

  /**
   * How the model's context last started over since it was asked (SessionStart hooks' `clear` or
   * `compact` source, heard at the next prompt); reading it clears it.
   */
  takeContextRestart(): "clear" | "compact" | undefined {
    const restart = this.contextRestart;
    this.contextRestart = undefined;
    return restart;
  }

  /** /reset: a fresh context; the next prompt also rebuilds the system prompt (memory may have changed). */
  reset(): void {
    this.recorder?.reset();
    this.messages.length = 0;
    this.prompt = undefined;
    this.context = undefined;
    this.last = undefined;
    this.contextRestart = "clear";
  }

  /** One successful model call of this session: its size (compression, /context) and its cost (/usage). */
  recordUsage(usage: TokenUsage, model: ModelChoice): void {
    const tokens = usage.inputTokens + usage.outputTokens;
    this.context = tokens;
    this.last = { tokens, historyLength: this.messages.length };
    this.account(usage, model.price);
  }

  /** A model call made for this session elsewhere (an external child agent's report). */
  recordChildUsage(usage: TokenUsage, price?: ModelChoice["price"], costUsd?: number): void {
    this.account(usage, price, costUsd);
  }

  // Settings are the user's choices: durable first (a session this process only follows
  // refuses them), then in memory.

  setMode(mode: SessionMode): void {
    this.recorder?.settings({ mode });
    this.currentMode = mode;
  }

  setModel(modelId: string): void {
    this.recorder?.settings({ modelId });
    this.model = modelId;
  }

  /** Extended thinking on or off for the session's model calls; undefined: as the model is configured. */
  get thinking(): boolean | undefined {
    return this.thinkingSwitch;
  }

  setThinking(on: boolean): void {
    this.recorder?.settings({ thinking: on });
    this.thinkingSwitch = on;
  }

  /**
   * Turns a tool or toolset on or off for this session, durably. When the tools the prompt
   * names change, the frozen prompt is built again at the next turn (one prompt-cache miss);
   * otherwise it stays byte-identical. Returns whether the set of tools changed.
   */
  toggleTools(selector: string, on: boolean): boolean {
    const before = this.tools.known().filter((tool) => this.tools.allows(tool)).map((tool) => tool.name).join();
    const builtinBefore = this.tools.builtin().map((tool) => tool.name).join();
    const previous = this.tools.toggles;
    this.tools.toggle(selector, on);
    try {
      this.recorder?.settings({ toolToggles: Object.fromEntries(this.tools.toggles) });
    } catch (error) {
      this.tools.configureToggles(previous); // not durable (another process owns the session): not applied either
      throw error;
    }
    if (this.tools.builtin().map((tool) => tool.name).join() !== builtinBefore) this.prompt = undefined;
    return this.tools.known().filter((tool) => this.tools.allows(tool)).map((tool) => tool.name).join() !== before;
  }

  /** Drops every /tools toggle (back to config.yaml's selection), durably; the prompt as toggleTools says. */
  resetToolToggles(): void {
    const builtinBefore = this.tools.builtin().map((tool) => tool.name).join();
    this.recorder?.settings({ toolToggles: {} });
    this.tools.configureToggles(new Map());
    if (this.tools.builtin().map((tool) => tool.name).join() !== builtinBefore) this.prompt = undefined;
  }

  /** Journals the extra roots this session was reopened with (they differ from the journal's last). */
  recordExtraRoots(): void {
    this.recorder?.settings({ additionalDirectories: [...this.extraRoots] });
  }

  /** Names the session, durably. */
  setTitle(title: string, source: TitleSource): void {
    this.recorder?.settings({ title, titleSource: source });
    this.titleText = title;
    this.titleFrom = source;
  }

  /** ACP needs tool call ids unique within a session; providers may reuse theirs across turns. */
  uniqueToolCallId(providerId: string): string {
    let id = providerId || "call";
    for (let n = 2; this.toolCallIds.has(id); n++) id = `${providerId}#${n}`;
    this.toolCallIds.add(id);
    return id;
  }

  /** Counts a call in the usage of the session that owns the account, and in its journal's counter. */
  private account(usage: TokenUsage, price: ModelChoice["price"], costUsd?: number): void {
    if (this.parent) return this.parent.account(usage, price, costUsd);
    this.usage.add(usage, price, costUsd);
    this.recorder?.settings({ tokens: usage.inputTokens + usage.outputTokens });
  }

  /** Inserts a tool result after the results of earlier calls of the same assistant message. */
  private placeToolResult(message: Extract<ChatMessage, { role: "tool" }>): void {
    let start = this.messages.length;
    while (start > 0 && this.messages[start - 1]?.role === "tool") start--;
    const assistant = this.messages[start - 1];
    const order = assistant?.role === "assistant" ? (assistant.toolCalls ?? []).map((call) => call.id) : [];
    const rank = (m: ChatMessage) => (m.role === "tool" ? order.indexOf(m.toolCallId) : -1);
    const own = rank(message);
    if (own < 0) return void this.messages.push(message);
    let at = this.messages.length;
    while (at > start && rank(this.messages[at - 1]!) > own) at--;
    this.messages.splice(at, 0, message);
  }
}

/** Sessions with a permission question open, for the journal's last words on a clean exit. */
const sessionsAsking = new Set<AgentSession>();
let exitWatched = false;

/**
 * A clean exit (SIGTERM from an editor reloading its window, the client closing stdin) says
 * why each open question went unanswered; a process killed outright says nothing, and replay
 * tells the two apart. Journal writes are synchronous, so they land before the process ends.
 */
function watchExit(): void {
  if (exitWatched) return;
  exitWatched = true;
  process.once("exit", () => {
    for (const session of [...sessionsAsking]) session.closeOpenAsks();
  });
}
