// Runs the tool calls of one model reply. Consecutive read-only calls run concurrently,
// everything else one at a time in order; results come back in call order. A tool that
// throws, is unknown, or gets bad arguments becomes a result the model can read, and
// every call that was announced ends "completed" or "failed", even on cancel.
import * as z from "zod";
import type { ChatMessage, ToolCallRequest } from "../providers/types";
import type { DisplayContent, ToolContext } from "../tools/context";
import { resultText, ToolError, type ToolDefinition, type ToolResult } from "../tools/registry";
import type { Logger } from "../util/log";
import { redactDeep, redactSecrets } from "../util/redact";
import { auxiliaryText } from "./auxiliary-text";
import { permissionGate } from "./permission-gate";
import type { AgentSession } from "./session";
import type { TurnCheckpoint } from "./turn-checkpoint";
import type { ToolCallOutcome, ToolCallView, TurnHost, TurnObserver } from "./turn-io";

export interface ToolRunEnv {
  session: AgentSession;
  host: TurnHost;
  observer: TurnObserver;
  signal: AbortSignal;
  log: Logger;
  /** Snapshots the workspace before the turn's first change (absent: no checkpoints). */
  checkpoint?: TurnCheckpoint;
}

interface PreparedCall {
  request: ToolCallRequest;
  view: ToolCallView;
  tool?: ToolDefinition;
  args?: unknown;
  /** Set when the call cannot run at all (unknown tool, bad arguments). */
  problem?: string;
}

/** Most a card shows of a result that brings no display content of its own. */
const DISPLAY_CHARS = 4_000;

/** The results in call order, and the reply a tool asked to end the turn with (clarify in chat). */
export interface ToolRunResults {
  messages: ChatMessage[];
  endTurnWith?: string;
}

export async function runToolCalls(requests: ToolCallRequest[], env: ToolRunEnv): Promise<ToolRunResults> {
  const prepared = requests.map((request) => prepareCall(request, env.session, env.log));
  for (const call of prepared) env.observer.toolCallPending(call.view);

  const results = new Array<ChatMessage>(prepared.length);
  const ending: string[] = [];
  const run = async (call: PreparedCall): Promise<ChatMessage> => {
    const { message, endTurnWith } = await runCall(call, env);
    if (endTurnWith !== undefined) ending.push(endTurnWith);
    return message;
  };
  let index = 0;
  for (let call = prepared[0]; call; call = prepared[index]) {
    if (runsConcurrently(call)) {
      const rest = prepared.slice(index);
      const stop = rest.findIndex((next) => !runsConcurrently(next));
      const batch = stop < 0 ? rest : rest.slice(0, stop);
      const start = index;
      await Promise.all(batch.map(async (each, offset) => (results[start + offset] = await run(each))));
      index += batch.length;
    } else {
      results[index] = await run(call);
      index++;
    }
  }
  return { messages: results, ...(ending.length ? { endTurnWith: ending.join("\n\n") } : {}) };
}

function runsConcurrently(call: PreparedCall): boolean {
  return call.problem !== undefined || call.tool?.readOnly === true;
}

function prepareCall(request: ToolCallRequest, session: AgentSession, log: Logger): PreparedCall {
  const id = session.uniqueToolCallId(request.id);
  const tool = session.tools.get(request.name);
  const view: ToolCallView = { id, requestId: request.id, name: request.name, title: request.name, kind: tool?.kind ?? "other", locations: [], rawInput: request.arguments };
  if (!tool || !session.tools.allows(tool)) {
    const names = session.tools.list().map((t) => t.name).join(", ");
    return { request, view, problem: `Unknown tool "${request.name}". Available tools: ${names}.` };
  }

  let raw: unknown;
  try {
    raw = request.arguments.trim() === "" ? {} : JSON.parse(request.arguments);
  } catch (error) {
    return { request, view, tool, problem: `${tool.name} was called with arguments that are not valid JSON (${(error as Error).message}). Send one JSON object matching the tool's schema.` };
  }
  view.rawInput = raw;
  const parsed = tool.schema.safeParse(raw);
  if (!parsed.success) {
    return { request, view, tool, problem: `${tool.name} was called with invalid arguments:\n${z.prettifyError(parsed.error)}` };
  }
  try {
    view.title = tool.title(parsed.data, session.cwd);
    view.locations = tool.locations?.(parsed.data, session.cwd) ?? [];
  } catch (error) {
    // A title is cosmetic: the call still runs under the tool's name, but a title that throws is a bug in the tool.
    log.warn("tool title failed; shown under its name", { sessionId: session.id, tool: tool.name, error });
  }
  return { request, view, tool, args: parsed.data };
}

async function runCall(call: PreparedCall, env: ToolRunEnv): Promise<{ message: ChatMessage; endTurnWith?: string }> {
  const { view, tool } = call;
  let result: ToolResult;
  if (call.problem || !tool) {
    result = failure(call.problem ?? "tool unavailable");
  } else if (env.signal.aborted) {
    result = failure("Cancelled by the user before it ran.");
  } else {
    env.observer.toolCallRunning(view.id);
    // Mutating calls run one at a time, so the first one snapshots before anything changed.
    await env.checkpoint?.beforeTool(tool, call.args);
    result = await execute(tool, call.args, view, env);
  }

  // Credentials a command printed or a file held go no further: not to the model, the
  // editor, or the session journal. (Diffs are the user's own edits and stay exact.) Their
  // values are kept for the outbound check: the model may be handed them again, encoded.
  if (tool) env.session.seenSecrets.noteOutput(resultText(result.output, tool.maxResultChars), tool.name);
  const output = redactDeep(result.output);
  const text = redactSecrets(resultText(output, tool?.maxResultChars));
  const content = (result.content ?? [{ type: "text", text: displayText(output) }]).map(redactText);
  // Stopped by the user (before it ran, while it asked or ran): the card says cancelled, not failed.
  const cancelled = result.isError === true && env.signal.aborted;
  const outcome: ToolCallOutcome = {
    status: result.isError ? "failed" : "completed",
    content,
    rawOutput: output,
    locations: result.locations,
    ...(result.fullOutput ? { fullOutput: result.fullOutput } : {}),
    ...(cancelled ? { cancelled } : {}),
  };
  env.observer.toolCallFinished(view.id, outcome);
  env.session.recordToolCall(view, outcome);
  // Files the agent now knows the content of: a later change outside the agent gets a note.
  if (!result.isError && (view.kind === "read" || view.kind === "edit")) env.session.seenFiles.remember((result.locations ?? view.locations).map((l) => l.path));
  const message: ChatMessage = { role: "tool", toolCallId: call.request.id, name: call.request.name, content: text, ...(result.images?.length ? { images: result.images } : {}) };
  // Durable as soon as this tool is done: a crash later in the batch keeps this result.
  env.session.append(message);
  return { message, ...(result.endTurnWith !== undefined ? { endTurnWith: redactSecrets(result.endTurnWith) } : {}) };
}

async function execute(tool: ToolDefinition, args: unknown, view: ToolCallView, env: ToolRunEnv): Promise<ToolResult> {
  const { session, host, observer, signal } = env;
  const context: ToolContext = {
    sessionId: session.id,
    toolCallId: view.id,
    cwd: session.cwd,
    ...(session.extraRoots.length > 0 ? { extraRoots: session.extraRoots } : {}),
    signal,
    files: host.files,
    shell: host.shell,
    state: session.toolState,
    progress: (update) => observer.toolCallProgress(view.id, update.content ? { ...update, content: update.content.map(redactText) } : update),
    requestPermission: permissionGate(session, host, view, signal, (text) => observer.notice(text)),
    secretsSeen: session.seenSecrets,
    publishPlan: (todos) => {
      session.recordPlan(todos);
      observer.plan(todos);
    },
    history: host.history,
  };
  const auxiliary = host.auxiliary;
  if (auxiliary) context.summarize = (request) => auxiliaryText(auxiliary, session, request, signal);
  // The user is asked only from their own session: a subagent's host has no clarify.
  const clarify = host.clarify?.bind(host);
  if (clarify && session.depth === 0) {
    context.clarify = async (question) => {
      // Journaled while it waits: cut by a reload or restart, a replay shows it unanswered (not declined).
      session.recordQuestionAsked(view, question);
      try {
        return await clarify(view, question, signal);
      } finally {
        session.recordPermissionAnswered(view.id);
      }
    };
  }
  // Elicitations (an MCP server's questions) likewise reach only the user's own session; a
  // subagent's tools find no `elicit` and the MCP client declines with that reason.
  const elicit = host.elicit?.bind(host);
  if (elicit && session.depth === 0) {
    context.elicitation = { ask: (ask, stop) => elicit(view, ask, stop ? AbortSignal.any([signal, stop]) : signal), complete: (elicitationId) => host.completeElicitation?.(elicitationId) ?? Promise.resolve() };
  }
  // Cheap to build (the children start only when delegate_task runs them).
  context.delegation = host.delegation?.({ session, host, call: view, signal, progress: (content) => context.progress({ content }) });
  try {
    return await untilAborted(tool.handler(args, context), signal);
  } catch (error) {
    if (signal.aborted) return failure("Cancelled by the user.");
    if (error instanceof ToolError) return failure(error.message);
    env.log.warn("tool threw", { tool: tool.name, error });
    return failure(`${tool.name} failed: ${(error as Error)?.message ?? String(error)}`);
  }
}

/** Stops waiting when the turn is cancelled; tools kill their own work on the same signal. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

function redactText(item: DisplayContent): DisplayContent {
  if (item.type === "text") return { ...item, text: redactSecrets(item.text) };
  // An MCP server's embedded resource is text the user sees too.
  if (item.type === "resource" && item.text !== undefined) return { ...item, text: redactSecrets(item.text) };
  return item;
}

function failure(message: string): ToolResult {
  return { output: { error: message }, isError: true, content: [{ type: "text", text: message }] };
}

function displayText(output: unknown): string {
  const text = typeof output === "string" ? output : JSON.stringify(output, null, 2);
  return text.length > DISPLAY_CHARS ? `${text.slice(0, DISPLAY_CHARS)}\n…` : text;
}
