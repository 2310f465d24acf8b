// One prompt of a session, whatever front end sent it: a command answered at once (/steer,
// /queue), or a place in the session's queue, then a command, an MCP prompt, a skill invocation
// or a turn of the agent loop with the turn's steps around it (app/turn-steps.ts). The front end
// converts its request into a PromptInput and the outcome back into its answer; nothing here
// knows the protocol.
import { promptMessageId } from "../sessions/message-ids";
import { runTurn, type TurnStopReason } from "../agent/loop";
import type { TurnHost } from "../agent/turn-io";
import type { UsageTotals } from "../agent/usage";
import { configErrorFix } from "../config/config-error";
import { createDelegation } from "../delegate/delegation";
import { isUserPrompt, type ChatMessage, type UserPart } from "../providers/types";
import type { ClientChannel } from "../runtime/client-channel";
import type { LiveSession } from "../runtime/live-session";
import { localShellFor } from "../runtime/local-shell";
import type { AgentRuntime } from "../runtime/runtime";
import { expandMcpPrompt, mcpPromptOf } from "../mcp/commands/mcp-prompt";
import type { SessionOutput } from "../runtime/session-output";
import type { CommandContext, CommandResult } from "../runtime/slash-command";
import { compressionSettings, nudgeSettings } from "../runtime/turn-settings";
import type { BeforeTurn, EndedTurn, TurnContext, TurnStep } from "../runtime/turn-step";
import type { RunExternalAgent } from "../delegate/external-agent";
import { expandSkillInvocation } from "../skills/commands/skill-invocation";
import type { FileAccess } from "../tools/context";
import { isAgentError } from "../util/agent-error";
import type { Logger } from "../util/log";
import { VERSION } from "../version";
import { BUILT_IN_COMMANDS } from "./commands/all-commands";
import { parseCommandLine, RESERVED_COMMAND_NAMES, type CommandLine } from "./commands/command-line";
import { sessionPluginCommands } from "./commands/offered";
import { pluginAgents } from "../plugins/plugin-agents";
import { activePlugins } from "../plugins/plugin-store";
import { chosenOnFirstUse } from "./chosen-on-first-use";
import { sessionShell } from "./session-shell";
import { sessionHooks } from "../runtime/session-hooks";
import type { SessionHooks } from "../hooks/session-hooks";
import { TURN_STEPS } from "./turn-steps";
import { worktreesRoot } from "../worktrees/worktree-location";

/** A prompt as the app takes it from a front end. */
export interface PromptInput {
  /** The whole prompt's text when it is one text block: only such a prompt is a command or an MCP prompt. */
  onlyText?: string;
  /** The first block's text when the prompt starts with text (a skill invocation replaces it). */
  firstText?: string;
  /** What /queue lists for it. */
  label: string;
  /** The client's own name for the prompt, kept as its queue id when free. */
  queueId?: string;
  /** The client does not show the prompt itself: it is echoed even when it did not wait. */
  echoAlways: boolean;
  /** At most this many model calls with tools in the turn (a script's --max-turns); else agent.max_turns. */
  maxTurns?: number;
  /** The prompt for the model (file links read through `files`); `firstText` replaces the first text. */
  toParts(files: FileAccess, firstText?: string): Promise<UserPart[]>;
  /** Shows the prompt in the chat as the user's message, named by its queue id. */
  echo(queueId: string, messageId: string): Promise<void>;
}

/** How a prompt ended: a turn's stop reason and usage, or what a command did. */
export interface PromptOutcome {
  stopReason: TurnStopReason;
  /** A turn ran: its totals and its number (checkpoints are keyed by it). */
  turn?: { usage: UsageTotals; number: number };
  command?: CommandResult;
}

export interface PromptDeps {
  runtime: AgentRuntime;
  log: Logger;
  /** Forks a session keeping its first `turns` prompts (the conversation rewind); the new session's id. */
  fork?: (sessionId: string, turns: number) => Promise<string>;
  /** The front end's own steps, after the app's (the ACP edge keeps its replay cache current). */
  frontEndSteps?: readonly TurnStep[];
  /** External agents for this session's delegate_task (the front end runs them: ACP children). */
  externalAgents: (sessionId: string) => RunExternalAgent;
}

export { prepareSystemPrompt } from "../agent/loop";

export async function runPrompt(deps: PromptDeps, session: LiveSession, input: PromptInput, client: ClientChannel, requestSignal: AbortSignal): Promise<PromptOutcome> {
  // /steer and /queue do not wait behind the running turn: they act on it.
  const immediate = parseCommandLine(input.onlyText);
  if (immediate?.command.immediate) {
    const output = client.output();
    const result = (await immediate.command.run(commandContext(deps, session, client, output, requestSignal, immediate.argument))) ?? {};
    await output.flush();
    if (result.runAsPrompt === undefined) return { stopReason: "end_turn", command: result };
    const text = result.runAsPrompt;
    input = { ...input, onlyText: text, firstText: text, label: text, toParts: async () => [{ type: "text", text }] };
  }
  // Background work of the session (the learning review, the curator) never delays a prompt: it stops here.
  for (const step of stepsOf(deps)) step.interrupt?.(session);
  return session.enqueue(
    requestSignal,
    async (signal, { queued, id }) => {
      if (signal.aborted) return { stopReason: "cancelled" };
      // The client already shows what it sent; a prompt that waited is echoed when its turn starts.
      // Its messageId is the one session/load will give the prompt: the turn it is about to start.
      if (queued || input.echoAlways) await input.echo(id, promptMessageId(session.agent.promptCount + 1));
      const output = client.output();
      const line = parseCommandLine(input.onlyText);
      if (line) {
        const result = (await runCommand(line, commandContext(deps, session, client, output, signal, line.argument))) ?? {};
        await output.flush();
        return { stopReason: result.cancelled ? "cancelled" : "end_turn", command: result };
      }
      const mcpPrompt = mcpPromptOf(input.onlyText);
      if (mcpPrompt) {
        const expanded = await expandMcpPrompt(mcpPrompt, session, signal);
        if (!expanded.ok) {
          output.say(expanded.message);
          await output.flush();
          return { stopReason: "end_turn" };
        }
        return runPromptTurn(deps, session, client, output, signal, async () => expanded.parts, input.maxTurns);
      }
      // `/<skill> text` runs the turn on the skill's body and the user's text.
      const loaded = deps.runtime.loaded;
      const skillText = input.firstText === undefined ? undefined : expandSkillInvocation(input.firstText, session.agent.cwd, loaded, RESERVED_COMMAND_NAMES, session.id, session.agent.toolState.skillsUsed);
      // `/<plugin command> text` (or `/<plugin>:<command>`) runs the turn on the command's prompt.
      const firstText = skillText ?? (input.firstText?.trimStart().startsWith("/") ? await expandedPluginCommand(deps.runtime, session.agent.cwd, input.firstText) : undefined);
      return runPromptTurn(deps, session, client, output, signal, (files) => input.toParts(files, firstText), input.maxTurns);
    },
    { label: input.label, id: input.queueId },
  );
}

/** The prompt a plugin command's invocation becomes, or undefined when `text` invokes none. */
async function expandedPluginCommand(runtime: AgentRuntime, cwd: string, text: string): Promise<string | undefined> {
  const [{ skillCommands }, { expandPluginCommand }] = await Promise.all([import("../skills/commands/skill-invocation"), import("../plugins/plugin-commands")]);
  const commands = await sessionPluginCommands(runtime, skillCommands(cwd, runtime.loaded, RESERVED_COMMAND_NAMES));
  return commands.length === 0 ? undefined : expandPluginCommand(text, commands);
}

/**
 * Runs a command. One that fails (its data cannot be read, a store is broken) says so in the chat,
 * where the user looks, and the error goes on to the front end as well; a usage error or a
 * cancel is the front end's alone to report.
 */
async function runCommand(line: CommandLine, context: CommandContext): Promise<CommandResult | void> {
  try {
    return await line.command.run(context);
  } catch (error) {
    if (isAgentError(error) && error.category !== "invalid_params" && error.category !== "cancelled") {
      context.output.say(`\n\n**\`/${line.command.name}\` failed.** ${error.message}\n`);
      await context.output.flush();
    }
    throw error;
  }
}

function commandContext(deps: PromptDeps, session: LiveSession, client: ClientChannel, output: SessionOutput, signal: AbortSignal, argument: string): CommandContext {
  const fork = deps.fork;
  return {
    argument,
    session,
    runtime: deps.runtime,
    output,
    client,
    signal,
    log: deps.log,
    ...(fork ? { fork: (turns: number) => fork(session.id, turns) } : {}),
    commands: BUILT_IN_COMMANDS,
  };
}

async function runPromptTurn(
  deps: PromptDeps,
  session: LiveSession,
  client: ClientChannel,
  output: SessionOutput,
  signal: AbortSignal,
  promptParts: (files: FileAccess) => Promise<UserPart[]>,
  maxTurns?: number,
): Promise<PromptOutcome> {
  const { model, loaded } = deps.runtime;
  if (!model.ok) {
    // No model: the turn still ends normally, with an answer that says how to fix it. A broken
    // config.yaml is the cause when there is one: say that and its fix, not the generic "no
    // model is configured" that follows from Hermes ignoring the file.
    const why = loaded.error ? `${loaded.error}\n\n${configErrorFix(loaded)}` : model.reason;
    output.say(`Hermes has no model to talk to.\n\n${why}`);
    await output.flush();
    return { stopReason: "end_turn" };
  }

  const hooks = await sessionHooks(deps.runtime, session, client, deps.log);
  const host = turnHost(deps, session, client, hooks);
  const parts = await promptParts(host.files);
  if (hooks) {
    const heard = await promptHooks(hooks, session, parts, signal);
    if (heard.blocked !== undefined) {
      output.say(`**A UserPromptSubmit hook blocked this prompt**, so it was not sent to the model: ${heard.blocked}`);
      await output.flush();
      return { stopReason: "end_turn" };
    }
    if (heard.context.length > 0) parts.push({ type: "text", text: `<hook-context>\n${heard.context.join("\n\n")}\n</hook-context>` });
  }
  const turn: TurnContext = { session, runtime: deps.runtime, client, output, log: deps.log, signal, parts, promptText: promptText(parts) };
  const steps = stepsOf(deps);
  const before = runBeforeSteps(steps, turn);
  try {
    const loopOptions = (): Parameters<typeof runTurn>[0] => (
      {
        session: session.agent,
        models: deps.runtime.chainFor(session.agent.modelId, { thinking: session.agent.thinking }),
        host,
        observer: output,
        signal,
        maxTurns: maxTurns ?? loaded.config.agent.max_turns,
        maxTokens: model.model.maxTokens,
        temperature: model.model.temperature,
        retryBaseDelayMs: loaded.config.agent.retry_base_delay * 1000,
        log: deps.log,
        compression: compressionSettings(loaded.config),
        summarizer: deps.runtime.auxiliary(),
        vision: deps.runtime.visionModel(),
        nudges: nudgeSettings(loaded.config),
        // With the background review on, it does what the nudge asked the model to do mid-conversation.
        skillNudge:
          loaded.config.learning.review === "off"
            ? { afterToolCalls: loaded.config.skills.nudge_tool_calls, onRecovery: loaded.config.skills.nudge_on_recovery }
            : { afterToolCalls: 0, onRecovery: false },
        ...(before.contextNote ? { contextNote: before.contextNote } : {}),
      });
    let stopReason = await runTurn(loopOptions(), parts);
    // A Stop hook may send the agent on, with its reason as the next instruction; at most a few
    // times in a row, and the hook is told (stop_hook_active) when it already did.
    for (let round = 0; hooks && stopReason === "end_turn" && !signal.aborted && round < MAX_STOP_CONTINUES; round++) {
      const verdict = await hooks.stop(round > 0);
      if (verdict.block === undefined) break;
      output.notice(`A Stop hook asked the agent to go on: ${verdict.block}`);
      stopReason = await runTurn(loopOptions(), [{ type: "text", text: `A Stop hook asks you to continue before finishing: ${verdict.block}` }]);
    }
    const ended: EndedTurn = { ...turn, stopReason, messages: turnMessages(session.agent.history) };
    runAfterSteps(steps, "ended", ended);
    await output.flush();
    runAfterSteps(steps, "answered", ended);
    const usage = session.agent.usage.turnTotals;
    deps.log.info("turn ended", { sessionId: session.id, stopReason, usage });
    return { stopReason, turn: { usage, number: session.agent.promptCount } };
  } catch (error) {
    if (isAgentError(error) && error.category === "provider") {
      // Said in the conversation, where the user looks, and as the error the client gets
      // (the edge maps it: "Model request failed: …" with the failure's kind and status).
      output.say(`\n\n**The model request failed.** ${error.message}\n`);
      await output.flush();
      deps.log.warn("model request failed", { sessionId: session.id, kind: error.data.kind, status: error.data.status, message: error.message });
      throw error;
    }
    // Anything else is logged with its stack by the edge.
    await output.flush();
    throw error;
  }
}

function stepsOf(deps: PromptDeps): readonly TurnStep[] {
  return deps.frontEndSteps?.length ? [...TURN_STEPS, ...deps.frontEndSteps] : TURN_STEPS;
}

/** Every step's `before`, in order; their notes for the first model call joined. */
function runBeforeSteps(steps: readonly TurnStep[], turn: TurnContext): BeforeTurn {
  const notes: Promise<string | undefined>[] = [];
  for (const step of steps) {
    try {
      const note = step.before?.(turn)?.contextNote;
      if (note) notes.push(note);
    } catch (error) {
      turn.log.warn("a turn step failed before the turn; the turn goes on without it", { step: step.name, sessionId: turn.session.id, error });
    }
  }
  if (notes.length === 0) return {};
  if (notes.length === 1) return { contextNote: notes[0] };
  return { contextNote: Promise.all(notes).then((texts) => texts.filter(Boolean).join("\n\n") || undefined) };
}

/** Every step's `ended` or `answered` hook, in order; one that throws is logged and the rest run. */
function runAfterSteps(steps: readonly TurnStep[], phase: "ended" | "answered", turn: EndedTurn): void {
  for (const step of steps) {
    try {
      step[phase]?.(turn);
    } catch (error) {
      turn.log.warn(`a turn step failed after the turn (${phase})`, { step: step.name, sessionId: turn.session.id, error });
    }
  }
}

/** The latest turn's messages: from its prompt (the last user message that is not a /steer note; compression keeps it) on. */
function turnMessages(history: readonly ChatMessage[]): readonly ChatMessage[] {
  const start = history.findLastIndex(isUserPrompt);
  return start < 0 ? [] : history.slice(start);
}

function promptText(parts: UserPart[]): string {
  return parts.map((part) => (part.type === "text" ? part.text : "")).join("\n");
}

function turnHost(deps: PromptDeps, session: LiveSession, client: ClientChannel, hooks: SessionHooks | undefined): TurnHost {
  const config = deps.runtime.loaded.config;
  const auxiliary = deps.runtime.auxiliary();
  const vision = deps.runtime.visionModel();
  return {
    files: client.files(),
    shell: sessionShell(deps.runtime, session, client),
    askUser: (call, ask, signal) => {
      // Notification hooks hear that Hermes waits for the user; they never hold the question up.
      if (hooks) void hooks.notification(`Hermes needs your permission: ${ask.title}`);
      return client.askUser(call, ask, signal, { timeoutMs: config.approvals.timeout * 1000, editorWrites: client.editorWrites });
    },
    ...(hooks ? { toolHooks: hooks } : {}),
    clarify: (call, question, signal) => {
      if (hooks) void hooks.notification(`Hermes is waiting for your answer: ${question.question}`);
      return client.clarify(call, question, signal, { timeoutMs: config.clarify.timeout * 1000 });
    },
    elicit: (call, ask, signal) => {
      if (hooks && client.elicitation[ask.mode]) void hooks.notification(`Hermes is waiting for your answer: ${ask.message}`);
      return client.elicit(call, ask, signal);
    },
    completeElicitation: (elicitationId) => client.completeElicitation(elicitationId),
    history: deps.runtime.sessions,
    ...(auxiliary ? { auxiliary } : {}),
    ...(vision ? { vision } : {}),
    approvals: deps.runtime.approvals,
    checkpoints: deps.runtime.checkpoints,
    delegation: delegationFor(deps, session),
    codeExecLimits: config.code_exec,
    // Built only if a program runs (execute_code): most turns start none.
    localShell: chosenOnFirstUse(() => localShellFor(deps.runtime, session)),
  };
}

/** How many times in a row Stop hooks may send the agent on before the turn ends anyway. */
const MAX_STOP_CONTINUES = 3;

/** Sessions whose SessionStart hooks ran in this process. */
const started = new WeakSet<LiveSession>();

/**
 * The hooks before a prompt: SessionStart once per session in this process (its source:
 * startup for a new conversation, resume for one with earlier prompts) and again after the
 * context started over (`clear` after /reset, `compact` after a compression), then UserPromptSubmit.
 */
async function promptHooks(hooks: SessionHooks, session: LiveSession, parts: UserPart[], signal: AbortSignal): Promise<{ blocked?: string; context: string[] }> {
  const context: string[] = [];
  const restart = session.agent.takeContextRestart();
  if (!started.has(session)) {
    started.add(session);
    const start = await hooks.sessionStart(restart ?? (session.agent.promptCount > 0 ? "resume" : "startup"));
    context.push(...start.context);
    session.onClose(() => void hooks.sessionEnd("other"));
  } else if (restart) {
    context.push(...(await hooks.sessionStart(restart)).context);
  }
  const submitted = await hooks.userPromptSubmit(promptText(parts), signal);
  if (submitted.block !== undefined) return { blocked: submitted.block, context };
  if (submitted.stop !== undefined) return { blocked: submitted.stop, context };
  return { context: [...context, ...submitted.context] };
}

/** delegate_task's children: subagents on this session's models, external agents with its MCP servers. */
function delegationFor(deps: PromptDeps, session: LiveSession) {
  const { runtime } = deps;
  const config = runtime.loaded.config;
  const model = runtime.model.ok ? runtime.model.model : undefined;
  return createDelegation({
    config: config.delegation,
    subagents: {
      models: () => runtime.chainFor(session.agent.modelId, { thinking: session.agent.thinking }),
      maxTokens: model?.maxTokens,
      temperature: model?.temperature,
      retryBaseDelayMs: config.agent.retry_base_delay * 1000,
      compression: compressionSettings(config),
    },
    mcpServers: () => session.mcpServers,
    pluginAgents: () => pluginAgents(activePlugins(runtime.loaded.home).plugins),
    shell: (taskFolder) => localShellFor(runtime, session, [taskFolder]),
    version: VERSION,
    log: deps.log,
    externalAgents: deps.externalAgents(session.id),
    worktreesRoot: worktreesRoot(runtime.loaded.home, config.worktrees.root),
  });
}
