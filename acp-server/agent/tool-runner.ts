// Runs the tool calls of one model reply. Consecutive read-only calls run concurrently,
// everything else one at a time in order; results come back in call order. A tool that
// throws, is unknown, or gets bad arguments becomes a result the model can read, and
// every call that was announced ends "completed" or "failed", even on cancel.
import * as z from "zod";
import type { ChatMessage, ToolCallRequest } from "../providers/types";
import type { DisplayContent, NestedToolResult, ToolContext } from "../tools/context";
import { resultText, ToolError, toolJsonSchema, type ToolDefinition, type ToolResult } from "../tools/registry";
import type { Logger } from "../util/log";
import { redactDeep, redactSecrets } from "../util/redact";
import { askAboutImage, auxiliaryText } from "./auxiliary-text";
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

function parsedOrText(text: string): unknown {
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    // expected: not JSON; the call fails with a clear problem below and shows the text as sent
    return text;
  }
}

function runsConcurrently(call: PreparedCall): boolean {
  return call.problem !== undefined || call.tool?.readOnly === true;
}

function prepareCall(request: ToolCallRequest, session: AgentSession, log: Logger): PreparedCall {
  const id = session.uniqueToolCallId(request.id);
  const tool = session.tools.get(request.name);
  // The client gets the parsed object whenever the arguments parse, known tool or not; the
  // raw text only when it is not JSON (then it is the best view of what the model sent).
  const view: ToolCallView = { id, requestId: request.id, name: request.name, title: request.name, kind: tool?.kind ?? "other", locations: [], rawInput: parsedOrText(request.arguments) };
  if (!tool || !session.tools.allows(tool)) {
    const names = session.tools.list().map((t) => t.name).join(", ");
    return { request, view, problem: `Unknown tool "${request.name}". Available tools: ${names}.` };
  }
  // A deferred tool called by name (its name is in tool_search's listing) is sent from now on.
  session.tools.load([tool.name]);

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

/** Tools a program inside execute_code may not call: itself, and those that talk to the user or another agent. */
const NOT_NESTABLE = new Set(["execute_code", "delegate_task", "clarify", "memory"]);

/**
 * One tool call made from inside another (execute_code's program), run exactly as a direct
 * call: prepared, gated, guarded, redacted and journaled by the same code, shown as a step of
 * its parent's card. Only its result stays out of the model's context: the program gets it.
 */
async function runNestedCall(parent: ToolCallView, step: number, name: string, args: unknown, env: ToolRunEnv): Promise<NestedToolResult> {
  const request: ToolCallRequest = { id: `${parent.id}.${step}`, name, arguments: JSON.stringify(args ?? {}) };
  const call = prepareCall(request, env.session, env.log);
  call.view.parentId = parent.id;
  if (NOT_NESTABLE.has(name)) call.problem = `${name} cannot be called from inside execute_code.`;
  env.observer.toolCallPending(call.view);
  const { result } = await runCall(call, env, { nested: true });
  return result;
}

async function runCall(call: PreparedCall, env: ToolRunEnv, options: { nested?: boolean } = {}): Promise<{ message: ChatMessage; endTurnWith?: string; result: NestedToolResult }> {
  const { view, tool } = call;
  let result: ToolResult;
  /** What hooks decided about this call, for its card. */
  const hookNotes: string[] = [];
  if (call.problem || !tool) {
    result = failure(call.problem ?? "tool unavailable");
  } else if (env.signal.aborted) {
    result = failure("Cancelled by the user before it ran.");
  } else {
    const hooked = await beforeToolHooks(call, tool, env);
    hookNotes.push(...hooked.said);
    if (hooked.refused !== undefined) result = failure(hooked.refused);
    else {
      env.observer.toolCallRunning(view.id);
      // Mutating calls run one at a time, so the first one snapshots before anything changed.
      await env.checkpoint?.beforeTool(tool, hooked.args);
      result = await execute(tool, hooked.args, view, env, hooked.decision);
      const after = await env.host.toolHooks?.afterTool({ name: tool.name, toolset: tool.toolset, input: hooked.args }, { text: resultText(result.output, tool.maxResultChars), isError: result.isError === true }, env.signal);
      if (after) {
        hookNotes.push(...after.said);
        result = withHookWords(result, after.context, after.block);
      }
    }
  }

  // Credentials a command printed or a file held go no further: not to the model, the
  // editor, or the session journal. (Diffs are the user's own edits and stay exact.) Their
  // values are kept for the outbound check: the model may be handed them again, encoded.
  if (tool) env.session.seenSecrets.noteOutput(resultText(result.output, tool.maxResultChars), tool.name);
  const output = redactDeep(result.output);
  const text = redactSecrets(resultText(output, tool?.maxResultChars));
  const content = [...(result.content ?? [{ type: "text" as const, text: displayText(output) }]), ...hookNotes.map((note) => ({ type: "text" as const, text: `Hook: ${note}` }))].map(redactText);
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
  // Durable as soon as this tool is done: a crash later in the batch keeps this result. A nested
  // call's result went to the program, not the model: its card is journaled, the message is not.
  if (!options.nested) env.session.append(message);
  return { message, result: { output, isError: result.isError === true }, ...(result.endTurnWith !== undefined ? { endTurnWith: redactSecrets(result.endTurnWith) } : {}) };
}

/**
 * The PreToolUse hooks of a call: a deny refuses it (the reason goes to the model), a rewritten
 * input replaces the arguments (checked against the tool's schema like the model's own), and an
 * allow or ask goes on to the permission gate.
 */
async function beforeToolHooks(call: PreparedCall, tool: ToolDefinition, env: ToolRunEnv): Promise<{ args: unknown; decision?: "allow" | "ask"; refused?: string; said: string[] }> {
  const hooks = env.host.toolHooks;
  if (!hooks) return { args: call.args, said: [] };
  const before = await hooks.beforeTool({ name: tool.name, toolset: tool.toolset, input: call.args }, env.signal);
  if (before.decision === "deny") return { args: call.args, refused: `A PreToolUse hook blocked this call: ${before.reason ?? "no reason given"}`, said: before.said };
  let args = call.args;
  if (before.updatedInput) {
    const parsed = tool.schema.safeParse(before.updatedInput);
    if (!parsed.success) return { args, refused: `A PreToolUse hook rewrote the input into one ${tool.name} cannot take:\n${z.prettifyError(parsed.error)}`, said: before.said };
    args = parsed.data;
    call.view.rawInput = before.updatedInput;
  }
  return { args, ...(before.decision ? { decision: before.decision } : {}), said: before.said };
}

/** A result with what PostToolUse hooks told the model: their context, or their block's reason. */
function withHookWords(result: ToolResult, context: string[], block: string | undefined): ToolResult {
  if (context.length === 0 && block === undefined) return result;
  const words = [...(block !== undefined ? [`A PostToolUse hook objected: ${block}`] : []), ...context.map((text) => `Hook context: ${text}`)].join("\n");
  const output = typeof result.output === "string" ? `${result.output}\n\n${words}` : { result: result.output, hooks: words };
  return { ...result, output };
}

async function execute(tool: ToolDefinition, args: unknown, view: ToolCallView, env: ToolRunEnv, hookDecision?: "allow" | "ask"): Promise<ToolResult> {
  const { session, host, observer, signal } = env;
  const context: ToolContext = {
    toolCatalog: {
      load: (request) => {
        const found = session.tools.findDeferred(request);
        session.tools.load(found.map((each) => each.name));
        return found.map((each) => ({ name: each.name, description: each.description, parameters: toolJsonSchema(each) }));
      },
      unknown: (names) => names.filter((name) => !session.tools.get(name)),
    },
    sessionId: session.id,
    toolCallId: view.id,
    cwd: session.cwd,
    ...(session.extraRoots.length > 0 ? { extraRoots: session.extraRoots } : {}),
    signal,
    files: host.files,
    shell: host.shell,
    state: session.toolState,
    progress: (update) => observer.toolCallProgress(view.id, update.content ? { ...update, content: update.content.map(redactText) } : update),
    requestPermission: permissionGate(session, host, view, signal, (text) => observer.notice(text), hookDecision),
    secretsSeen: session.seenSecrets,
    publishPlan: (todos) => {
      session.recordPlan(todos);
      observer.plan(todos);
    },
    history: host.history,
    ...(host.codeExecLimits ? { codeExecLimits: host.codeExecLimits } : {}),
    ...(host.localShell ? { localShell: host.localShell } : {}),
  };
  const auxiliary = host.auxiliary;
  if (auxiliary) context.summarize = (request) => auxiliaryText(auxiliary, session, request, signal);
  const vision = host.vision;
  if (vision) context.lookAtImage = (image, question) => askAboutImage(vision, session, image, question, signal);
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
  // A program's tool calls (execute_code) are steps of this call; a step cannot nest further.
  if (view.parentId === undefined) {
    let steps = 0;
    context.runNestedTool = (name, nestedArgs) => runNestedCall(view, ++steps, name, nestedArgs, env);
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
