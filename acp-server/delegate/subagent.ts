// One task on an in-process subagent: a fresh AgentSession (own id, cwd, tools and system
// prompt) run by the same agent loop as every session, with an observer that turns its events
// into lines on the parent's card and a host that asks the user through the parent.
import type { CompressionSettings } from "../agent/compress";
import { runTurn } from "../agent/loop";
import type { ModelChoice } from "../agent/model-choice";
import { AgentSession } from "../agent/session";
import type { CompactionReport, DelegationCall, PermissionAnswer, ToolCallOutcome, ToolCallView, TurnHost, TurnObserver } from "../agent/turn-io";
import type { DelegateTask, DisplayContent, Location, PermissionAsk, TodoItem } from "../tools/context";
import type { Logger } from "../util/log";
import type { TaskProgress } from "./progress";
import { childTools, subagentPrompt, subagentRequest } from "./subagent-setup";

export interface SubagentSettings {
  models: () => ModelChoice[];
  maxIterations: number;
  maxDepth: number;
  maxTokens?: number;
  temperature?: number;
  retryBaseDelayMs: number;
  compression?: CompressionSettings;
  log: Logger;
}

export interface SubagentSpec {
  task: DelegateTask;
  taskId: string;
  cwd: string;
  label: string;
  parent: DelegationCall;
  progress: TaskProgress;
  ask: (call: Omit<ToolCallView, "id" | "requestId" | "name">, ask: PermissionAsk, signal: AbortSignal) => Promise<PermissionAnswer>;
  signal: AbortSignal;
  /** A named agent's own instructions (a plugin's agents/*.md), put first in its system prompt. */
  profile?: { name: string; role: string };
}

export interface SubagentOutcome {
  status: "completed" | "max_iterations" | "failed" | "cancelled";
  answer: string;
  toolCalls: number;
  error?: string;
}

export async function runSubagent(spec: SubagentSpec, settings: SubagentSettings): Promise<SubagentOutcome> {
  const { parent, task } = spec;
  const canDelegate = parent.session.depth + 1 < settings.maxDepth;
  const tools = parent.session.tools.narrow(childTools(parent.session, task.toolsets, canDelegate).filter);
  const toolNames = tools.list().map((tool) => tool.name);
  const systemPrompt = subagentPrompt({ task, taskId: spec.taskId, cwd: spec.cwd, toolNames, maxIterations: settings.maxIterations, ...(spec.profile ? { profile: spec.profile } : {}) });
  // As a child of the parent's session it starts with what the user already allowed for that
  // session, and its model calls count in the parent's usage (/usage).
  const child = new AgentSession(spec.taskId, spec.cwd, parent.session.mode, { parent: parent.session, tools, systemPrompt });

  const host: TurnHost = {
    files: parent.host.files,
    shell: parent.host.shell,
    approvals: parent.host.approvals,
    askUser: (call, ask, signal) => spec.ask({ title: call.title, kind: call.kind, rawInput: call.rawInput, locations: call.locations }, ask, signal),
    ...(canDelegate && parent.host.delegation ? { delegation: parent.host.delegation } : {}),
    // The session's hooks see a subagent's tool calls too: delegating is no way around them.
    ...(parent.host.toolHooks ? { toolHooks: parent.host.toolHooks } : {}),
    // The parent's vision model: vision_analyze, and descriptions for a text-only model, in the child too.
    ...(parent.host.vision ? { vision: parent.host.vision } : {}),
  };
  const observer = new SubagentObserver(spec.progress);
  spec.progress.started();
  try {
    const turnOptions = (): Parameters<typeof runTurn>[0] => (
      {
        session: child,
        models: settings.models(),
        host,
        observer,
        signal: spec.signal,
        maxTurns: settings.maxIterations,
        maxTokens: settings.maxTokens,
        temperature: settings.temperature,
        retryBaseDelayMs: settings.retryBaseDelayMs,
        log: settings.log,
        compression: settings.compression,
        ...(host.vision ? { vision: host.vision } : {}),
        // No memory nudges or skill suggestions: the subagent has neither tool.
        nudges: { memoryEvery: 0, changedFiles: false },
        skillNudge: { afterToolCalls: 0, onRecovery: false },
      });
    let stop = await runTurn(turnOptions(), [{ type: "text", text: subagentRequest(task) }]);
    // SubagentStop hooks may send the subagent on with a reason, as Stop hooks do for the session.
    for (let round = 0; host.toolHooks?.subagentStop && stop === "end_turn" && !spec.signal.aborted && round < MAX_STOP_CONTINUES; round++) {
      const verdict = await host.toolHooks.subagentStop(round > 0);
      if (verdict.block === undefined) break;
      stop = await runTurn(turnOptions(), [{ type: "text", text: `A SubagentStop hook asks you to continue before finishing: ${verdict.block}` }]);
    }
    const answer = finalAnswer(child);
    if (stop === "cancelled") return { status: "cancelled", answer, toolCalls: observer.toolCalls, error: "cancelled by the user" };
    if (stop === "max_turn_requests") return { status: "max_iterations", answer, toolCalls: observer.toolCalls, error: `stopped after ${settings.maxIterations} model calls with tools (delegation.max_iterations)` };
    return { status: "completed", answer, toolCalls: observer.toolCalls };
  } catch (error) {
    if (spec.signal.aborted) return { status: "cancelled", answer: finalAnswer(child), toolCalls: observer.toolCalls, error: "cancelled by the user" };
    const message = (error as Error)?.message ?? String(error);
    settings.log.warn("subagent failed", { taskId: spec.taskId, error });
    return { status: "failed", answer: finalAnswer(child), toolCalls: observer.toolCalls, error: `the subagent's model request failed: ${message}` };
  }
}

/** How many times in a row SubagentStop hooks may send a subagent on. */
const MAX_STOP_CONTINUES = 3;

/** The text of the subagent's last assistant message. */
function finalAnswer(session: AgentSession): string {
  const message = session.history.findLast((each) => each.role === "assistant" && each.content.trim() !== "");
  return message?.role === "assistant" ? message.content : "";
}

/** The subagent's events as progress on the parent's card (its usage is counted by its session, in the parent's account). */
class SubagentObserver implements TurnObserver {
  toolCalls = 0;

  constructor(private readonly progress: TaskProgress) {}

  textDelta(text: string): void {
    if (text) this.progress.text(text);
  }

  reasoningDelta(): void {}

  toolCallPending(call: ToolCallView): void {
    this.toolCalls++;
    this.progress.step(call.id, call.title, "pending");
  }

  toolCallRunning(id: string): void {
    this.progress.stepStatus(id, "running");
  }

  toolCallProgress(id: string, update: { content?: DisplayContent[]; title?: string; locations?: Location[] }): void {
    if (update.title) this.progress.stepStatus(id, undefined, update.title);
  }

  toolCallFinished(id: string, outcome: ToolCallOutcome): void {
    this.progress.stepStatus(id, outcome.status);
  }

  plan(todos: TodoItem[]): void {
    this.progress.plan(todos);
  }

  usage(): void {}

  notice(text: string): void {
    this.progress.note(text);
  }

  compactionStarted(): void {}

  compactionFinished(_id: string, report: CompactionReport): void {
    if (report.status !== "cancelled") this.progress.note(`context compressed (${report.messagesBefore} → ${report.messagesAfter} messages)`);
  }

  contextUsage(): void {}
}
