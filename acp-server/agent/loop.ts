// The agent loop: call the model, run the tools it asks for, append the results, and
// repeat until it answers without tool calls. Each step ends in one of a few explicit
// outcomes (answer, tools, cancelled); the budget turns the last call into a summary.
import { randomUUID } from "node:crypto";
import { ProviderError, type ChatMessage, type FinishReason, type ToolCallRequest, type ToolSpec, type UserPart } from "../providers/types";
import { toolJsonSchema } from "../tools/registry";
import type { Logger } from "../util/log";
import { compressSession, DEFAULT_COMPRESSION, needsCompression, type CompressionSettings, type CompressTrigger } from "./compress";
import { DEFAULT_NUDGES, joinNotes, turnNotes, type NudgeSettings } from "./ephemeral";
import { DEFAULT_SKILL_NUDGE, skillNudge, type SkillNudgeSettings } from "./skill-nudge";
import { countResults, type TurnActivity } from "./turn-activity";
import { callWithRecovery, type CallResult } from "./model-call";
import { askAboutImage } from "./auxiliary-text";
import { textOnlyVariant } from "./image-descriptions";
import { chainImageLimits, fitImages } from "./image-fit";
import { ReplyCollector } from "./reply-collector";
import { redactSecrets } from "../util/redact";
import type { ModelChoice } from "./model-choice";
import { gatherPromptFacts, renderSystemPrompt } from "./prompt";
import type { AgentSession } from "./session";
import { runToolCalls } from "./tool-runner";
import { TurnCheckpoint } from "./turn-checkpoint";
import type { TurnHost, TurnObserver } from "./turn-io";

export type TurnStopReason = "end_turn" | "max_turn_requests" | "max_tokens" | "refusal" | "cancelled";

export interface TurnOptions {
  session: AgentSession;
  /** The session's model first, then the fallbacks, in the order to try them. */
  models: ModelChoice[];
  host: TurnHost;
  observer: TurnObserver;
  signal: AbortSignal;
  /** Model calls that may request tools before the budget is spent. */
  maxTurns: number;
  maxTokens?: number;
  temperature?: number;
  /** First retry delay of a failed model call. */
  retryBaseDelayMs: number;
  log: Logger;
  /** Context compression (defaults: on, at half the window, last 20 messages kept). */
  compression?: CompressionSettings;
  /** The model that writes compression summaries (else the session's model). */
  summarizer?: ModelChoice;
  /** The model that describes images for a text-only model in `models` (none: they become notes). */
  vision?: ModelChoice;
  /** The ephemeral layer's nudges (defaults: memory every 10 prompts, changed files on). */
  nudges?: NudgeSettings;
  /** The learning loop's nudge to save a skill (defaults: after 8 tool calls, or a recovery from failures). */
  skillNudge?: SkillNudgeSettings;
  /**
   * A note for this turn's first model call only (the ephemeral layer), e.g. related earlier
   * sessions. A promise is awaited once the rest of the turn is ready (it must not reject).
   */
  contextNote?: string | Promise<string | undefined>;
}

type StepOutcome =
  | { kind: "answer"; finish: FinishReason }
  | { kind: "tools"; calls: ToolCallRequest[] }
  | { kind: "cancelled" };

const BUDGET_SPENT_NOTE = (turns: number) =>
  `[Hermes: the tool-iteration budget for this turn (${turns} model calls) is spent. Tools are no longer available. ` +
  `Reply now with a summary for the user: what you did, what you found, and what remains to be done.]`;

export async function runTurn(options: TurnOptions, prompt: UserPart[]): Promise<TurnStopReason> {
  const { session } = options;
  // What the user typed or pasted (an error log with a database URL, a key) is masked before the
  // model sees it, as it is in the journal: the model never holds a secret it could repeat.
  session.append({ role: "user", content: prompt.map(redactUserPart) });
  const activity = session.startTurn();
  // The end is journaled however the turn ends: a turn with a start and no end was cut short
  // by the process's death, and session/load says so (acp/replay.ts).
  let stopReason: TurnStopReason | "error" = "error";
  try {
    stopReason = await prepareAndRun(options, prompt, activity);
    return stopReason;
  } catch (error) {
    // The client hears of the failure in the prompt's error; the journal keeps it so a reload
    // shows why the turn stopped, not only the model's text before it.
    session.recordNotice(`The turn failed: ${error instanceof Error ? error.message : String(error)}`);
    throw error;
  } finally {
    session.endTurn(stopReason);
  }
}

/** The turn's fixed parts (frozen system prompt, tools, notes, checkpoint hook), then its steps. */
async function prepareAndRun(options: TurnOptions, prompt: UserPart[], activity: TurnActivity): Promise<TurnStopReason> {
  const { session } = options;
  const systemPrompt = await prepareSystemPrompt(session);
  const tools = toolSpecs(session);
  const toolNames = tools.map((tool) => tool.name);
  const contextNote = await options.contextNote;
  const notes = joinNotes(contextNote, turnNotes(session, options.nudges ?? DEFAULT_NUDGES, toolNames), skillNudge(session, options.skillNudge ?? DEFAULT_SKILL_NUDGE, toolNames));
  const checkpoint = turnCheckpoint(options, prompt);
  try {
    return await runSteps(options, { systemPrompt, tools, notes, activity, checkpoint });
  } finally {
    await checkpoint?.finish();
  }
}

/** The turn's checkpoint hook (a top-level session whose host keeps checkpoints). */
function turnCheckpoint(options: TurnOptions, prompt: UserPart[]): TurnCheckpoint | undefined {
  const { session, host, observer, log } = options;
  if (!host.checkpoints || session.depth > 0) return undefined;
  const text = prompt.map((part) => (part.type === "text" ? part.text : "")).join(" ");
  return new TurnCheckpoint({ checkpoints: host.checkpoints, session, turn: session.promptCount, prompt: redactSecrets(text), log, notice: (note) => observer.notice(note) });
}

interface TurnState {
  systemPrompt: string;
  tools: ToolSpec[];
  notes: string | undefined;
  activity: ReturnType<AgentSession["startTurn"]>;
  checkpoint?: TurnCheckpoint;
}

/**
 * The steps, with /steer notes taken until the turn decides to stop: the check and the decision
 * are one synchronous step, so a note is either applied or handed back (the user is told), never lost.
 */
async function runSteps(options: TurnOptions, state: TurnState): Promise<TurnStopReason> {
  try {
    return await runStepsTakingNotes(options, state);
  } finally {
    const unapplied = options.session.closeSteering();
    if (unapplied.length > 0) options.observer.notice(`The turn ended before ${unapplied.length === 1 ? "your note" : `your ${unapplied.length} notes`} could be applied: ${unapplied.map((note) => `"${note}"`).join(", ")}. Send it again as a prompt.`);
  }
}

async function runStepsTakingNotes(options: TurnOptions, { systemPrompt, tools: turnTools, notes, activity, checkpoint }: TurnState): Promise<TurnStopReason> {
  const { session, signal } = options;
  // Tools loaded mid-turn (tool_search, or a deferred tool called by name) join the next call, appended.
  let tools = turnTools;
  let loadedSeen = session.tools.loaded.length;
  // One message object for the turn's calls: the providers convert and serialize each message
  // object once (chat-completions-messages.ts, request-json.ts), so later calls reuse that work.
  const system = { role: "system" as const, content: systemPrompt };
  for (let call = 1; ; call++) {
    if (signal.aborted) return "cancelled";
    if (session.tools.loaded.length !== loadedSeen) {
      loadedSeen = session.tools.loaded.length;
      tools = toolSpecs(session);
    }
    const budgetSpent = call > options.maxTurns;
    const callTools = budgetSpent ? [] : tools;
    if (needsCompression(compressionContext(options, systemPrompt, callTools))) {
      if ((await compress(options, systemPrompt, callTools, "threshold")) === "cancelled") return "cancelled";
    }
    const note = joinNotes(call === 1 ? notes : undefined, budgetSpent ? BUDGET_SPENT_NOTE(options.maxTurns) : undefined);
    const step = await callModel(options, system, callTools, note);
    if (step.kind === "cancelled") return "cancelled";
    if (budgetSpent) return "max_turn_requests";
    // A note sent while the model wrote its final answer: the model reads it and goes on.
    if (step.kind === "answer") {
      const stop = stopReasonFor(step.finish);
      if (stop !== "end_turn" || !applySteers(options)) return stop;
      continue;
    }

    // Each result joins the session (durable, then in memory) as its tool finishes.
    const results = await runToolCalls(step.calls, { session, host: options.host, observer: options.observer, signal, log: options.log, checkpoint });
    countResults(activity, results.messages);
    if (signal.aborted) return "cancelled";
    if (results.endTurnWith !== undefined) return endTurnWith(options, results.endTurnWith);
    applySteers(options);
  }
}

/** The /steer notes sent since the last model call join the history (journaled) where they apply. */
function applySteers(options: TurnOptions): boolean {
  const notes = options.session.takeSteers();
  for (const text of notes) {
    options.session.append({ role: "user", content: [{ type: "text", text: redactSecrets(text) }], steer: true });
    options.observer.steered?.(text);
  }
  return notes.length > 0;
}

/** What the model reads for a /steer note: the user's words, marked as guidance given mid-task. */
export function steerNoteText(text: string): string {
  return `[The user sent this note while you were working. Take it into account from here on; do not start over.]\n${text}`;
}

/** The history as the model is sent it: /steer notes carry the line saying what they are. */
function modelHistory(history: readonly ChatMessage[]): ChatMessage[] {
  return history.map((message) =>
    message.role === "user" && message.steer
      ? { role: "user", content: message.content.map((part) => (part.type === "text" ? { ...part, text: steerNoteText(part.text) } : part)) }
      : message,
  );
}

/**
 * The session's system prompt, built once and then frozen. Sessions start building it as
 * soon as they are created, so the first prompt does not wait for `git status`.
 */
export function prepareSystemPrompt(session: AgentSession): Promise<string> {
  return session.systemPrompt(() =>
    gatherPromptFacts(session.cwd, session.tools.builtin().map((tool) => tool.name), undefined, session.extraRoots)
      // Model input: a token in AGENTS.md or a memory note goes no further than this.
      .then((facts) => redactSecrets(renderSystemPrompt(facts))),
  );
}

/** The tools as the model sees them: the registry's by name, then the session's own (MCP) by name. */
export function toolSpecs(session?: AgentSession): ToolSpec[] {
  return (session?.tools.list() ?? []).map((tool) => ({ name: tool.name, description: tool.description, parameters: toolJsonSchema(tool) }));
}

function compressionContext(options: TurnOptions, systemPrompt: string, tools: ToolSpec[]) {
  const { session, models, summarizer, observer, signal, log } = options;
  return { session, models, summarizer, observer, signal, log, systemPrompt, tools, settings: options.compression ?? DEFAULT_COMPRESSION };
}

async function compress(options: TurnOptions, systemPrompt: string, tools: ToolSpec[], trigger: CompressTrigger) {
  await options.host.toolHooks?.beforeCompact?.("auto");
  return (await compressSession(compressionContext(options, systemPrompt, tools), trigger)).kind;
}

/**
 * One model call (with retries and fallbacks). Appends the assistant message (partial on
 * cancel). A context overflow gets one compress-and-retry.
 */
async function callModel(options: TurnOptions, system: ChatMessage & { role: "system" }, tools: ToolSpec[], ephemeralNote?: string): Promise<StepOutcome> {
  const { session, observer, signal } = options;
  const call = async (): Promise<CallResult> => {
    const messages: ChatMessage[] = [system, ...modelHistory(session.history)];
    // The ephemeral layer: sent with this call only, never stored or frozen into the prompt.
    if (ephemeralNote) messages.push({ role: "user", content: [{ type: "text", text: ephemeralNote }] });
    const request = { messages, tools, maxTokens: options.maxTokens, temperature: options.temperature };
    const vision = options.vision;
    const textOnly = await textOnlyVariant(request, {
      models: options.models,
      owner: session,
      ...(vision ? { describe: (image, question) => askAboutImage(vision, session, image, question, signal), describer: vision.id } : {}),
      notice: (text) => observer.notice(text),
    });
    const fitted = await fitImages(request, chainImageLimits(options.models), session, (text) => observer.notice(text));
    return callWithRecovery(fitted, { models: options.models, observer, signal, retryBaseDelayMs: options.retryBaseDelayMs, log: options.log, ...(textOnly ? { textOnly } : {}) });
  };

  const result = await call().catch(async (error: unknown): Promise<CallResult> => {
    const overflow = error instanceof ProviderError && error.kind === "context_overflow";
    if (!overflow || (options.compression ?? DEFAULT_COMPRESSION).enabled === false) throw error;
    options.log.warn("context overflow: compressing and retrying once", { sessionId: session.id, message: error.message });
    const outcome = await compress(options, system.content, tools, "overflow");
    if (outcome === "cancelled") return { kind: "cancelled", reply: new ReplyCollector(observer) };
    if (outcome !== "compressed") throw error;
    return call();
  });
  const cancelled = result.kind === "cancelled" || signal.aborted;
  if (!cancelled) reportOutputLimit(result.reply, observer);
  const message = result.reply.message({ cancelled });
  if (message) session.append(message);
  if (cancelled) return { kind: "cancelled" };
  if (result.reply.usage) {
    session.recordUsage(result.reply.usage, result.model);
    observer.usage(result.reply.usage, result.model);
  }
  const calls = result.reply.calls;
  return calls.length > 0 ? { kind: "tools", calls } : { kind: "answer", finish: result.reply.finish };
}

/**
 * A reply cut by the output limit: its tool calls are dropped, since the last one's arguments
 * are cut mid-JSON and the batch is not what the model meant to send. They are never shown,
 * run or sent back as failures; the turn ends `max_tokens` and the user is told in words.
 */
function reportOutputLimit(reply: ReplyCollector, observer: TurnObserver): void {
  if (reply.finish !== "length") return;
  const dropped = reply.dropCalls();
  observer.notice(
    dropped > 0
      ? `The model's reply hit the output limit (max_tokens) while it was writing ${dropped === 1 ? "a tool call" : `${dropped} tool calls`}; ${dropped === 1 ? "it was" : "they were"} not run. Ask it to continue in smaller steps, or raise the model's max_tokens.`
      : "The model's reply was cut off by the output limit (max_tokens). Ask it to continue, or raise the model's max_tokens.",
  );
}

/**
 * A tool ended the turn with a reply (clarify's question, asked in the chat): it is the agent's
 * message, shown and journaled as one, and the user's next prompt answers it.
 */
function endTurnWith(options: TurnOptions, reply: string): TurnStopReason {
  const id = randomUUID();
  options.observer.textDelta(reply, id);
  options.session.append({ role: "assistant", content: reply, id });
  return "end_turn";
}

function stopReasonFor(finish: FinishReason): TurnStopReason {
  if (finish === "length") return "max_tokens";
  if (finish === "content_filter") return "refusal";
  return "end_turn";
}

function redactUserPart(part: UserPart): UserPart {
  return part.type === "text" ? { ...part, text: redactSecrets(part.text) } : part;
}
