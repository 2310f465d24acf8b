// session/prompt: one turn of the agent loop wired to the editor. Turns of one session run
// one at a time; a prompt sent during a turn waits for it and is echoed when it starts.
import type * as acp from "@agentclientprotocol/sdk/unstable";
import { randomUUID } from "node:crypto";
import { runTurn } from "../agent/loop";
import { configErrorFix } from "../config/config-error";
import { createDelegation } from "../delegate/delegation";
import type { TurnHost } from "../agent/turn-io";
import { isUserPrompt, type ChatMessage, type UserPart } from "../providers/types";
import { LocalFileAccess } from "../tools/local-files";
import { isAgentError } from "../util/agent-error";
import { toRequestError } from "./error-map";
import type { Logger } from "../util/log";
import { VERSION } from "../version";
import type { AcpSession } from "./acp-session";
import type { AgentRuntime } from "../runtime/runtime";
import { ClientFileAccess } from "./client-files";
import { describeCommandSandbox, localShellFor, sessionShell } from "./command-shell";
import { runCommand } from "./command-handler";
import { CHECKPOINT_COMMANDS, IMMEDIATE_COMMANDS, parseCommand } from "./commands";
import { runImmediateCommand } from "./steer-queue";
import { isQueueId, QUEUE_ID_META } from "./queue-wire";
import { expandMcpPrompt, mcpPromptOf } from "./mcp-prompt";
import { askClarify } from "./clarify-request";
import { requestPermission } from "./permission-request";
import { expandSkillInvocation } from "./skill-commands";
import { toUserParts } from "./prompt-content";
import { onPromptStart, onTurnEnd } from "../learning/skill-outcomes";
import { afterTurn, interruptReview } from "./learning-review";
import { afterTurnCurate, curateNow, interruptCuration } from "./skills-curator";
import { refreshReplayCacheWhenIdle } from "./replay-refresh";
import { firstLineTitle, generateTitle } from "../app/steps/titles";
import { AcpTurnObserver } from "./turn-observer";
import { compressionSettings, nudgeSettings } from "../runtime/turn-settings";
import { promptUsage, textChunk } from "./updates";

export interface PromptDeps {
  runtime: AgentRuntime;
  clientCapabilities: acp.ClientCapabilities;
  log: Logger;
  /** Ask the auxiliary model for a title after the first turn (off in most tests). */
  autoTitle: boolean;
  /** Forks a session keeping its first `turns` prompts (the conversation rewind); the new session's id. */
  fork?: (sessionId: string, turns: number) => Promise<string>;
}

export { prepareSystemPrompt } from "../agent/loop";

export async function handlePrompt(
  deps: PromptDeps,
  session: AcpSession,
  params: acp.PromptRequest,
  client: acp.AgentContext,
  requestSignal: AbortSignal,
): Promise<acp.PromptResponse> {
  // /steer and /queue do not wait behind the running turn: they act on it (acp/steer-queue.ts).
  const immediate = parseCommand(params.prompt);
  if (immediate && IMMEDIATE_COMMANDS.has(immediate.name)) {
    const observer = new AcpTurnObserver(client, session, deps.log);
    const outcome = runImmediateCommand(immediate, session, (update) => observer.send(update));
    if (outcome.kind === "answered") {
      await observer.flush();
      return outcome.response;
    }
    params = { ...params, prompt: outcome.prompt };
  }
  // A learning review in the background never delays a prompt: it stops here (and may run again after this turn).
  interruptReview(session);
  interruptCuration(session);
  const clientQueueId = queueIdOf(params._meta);
  return session.enqueue(requestSignal, async (signal, { queued, id }) => {
    const observer = new AcpTurnObserver(client, session, deps.log, !!deps.clientCapabilities.session?.compaction);
    if (signal.aborted) return { stopReason: "cancelled" };
    // The client already shows what it sent; a prompt that waited is echoed when its turn starts
    // (one message, named by its queue id). A client that named the prompt (`hermes/queueId`) did
    // not show it: it is echoed even when it did not have to wait.
    if (queued || clientQueueId) echoPrompt(observer, params.prompt, id);
    const command = parseCommand(params.prompt);
    if (command && CHECKPOINT_COMMANDS.has(command.name)) {
      const { runCheckpointCommand } = await import("./checkpoint-commands");
      const fork = deps.fork;
      const outcome = await runCheckpointCommand(command, {
        runtime: deps.runtime,
        session,
        client,
        send: (update) => observer.send(update),
        signal,
        log: deps.log,
        ...(fork ? { fork: (turns: number) => fork(session.id, turns) } : {}),
      });
      await observer.flush();
      // A client that can switch sessions (the VS Code panel) opens the rewound conversation.
      // `hermes/restore`: what became of a restore (the panel's edit-and-resend goes on only after one).
      const meta = { ...(outcome.forkedSessionId ? { "hermes/forkedSessionId": outcome.forkedSessionId } : {}), ...(outcome.restore ? { "hermes/restore": outcome.restore } : {}) };
      return { stopReason: "end_turn", ...(Object.keys(meta).length ? { _meta: meta } : {}) };
    }
    if (command?.name === "skills" && /^curate\b/.test(command.argument)) {
      // Uses the model (and may ask): a command with a turn's reach, answered here.
      observer.send(textChunk(await curateNow({ runtime: deps.runtime, client, log: deps.log }, session, observer, signal)));
      await observer.flush();
      return { stopReason: signal.aborted ? "cancelled" : "end_turn" };
    }
    if (command) {
      await runCommand(command, session, deps.runtime, observer, deps.log, signal, describeCommandSandbox(deps.runtime, session, deps.clientCapabilities));
      await observer.flush();
      return { stopReason: "end_turn" };
    }
    const mcpPrompt = mcpPromptOf(params.prompt);
    if (mcpPrompt) {
      const expanded = await expandMcpPrompt(mcpPrompt, session, signal);
      if (!expanded.ok) {
        observer.send(textChunk(expanded.message));
        await observer.flush();
        return { stopReason: "end_turn" };
      }
      return runPromptTurn(deps, session, params, client, signal, observer, expanded.parts);
    }
    // `/<skill> text` runs the turn on the skill's body and the user's text.
    const invoked = expandSkillInvocation(params.prompt, session.agent.cwd, deps.runtime.loaded, session.id, session.agent.toolState.skillsUsed);
    return runPromptTurn(deps, session, invoked ? { ...params, prompt: invoked } : params, client, signal, observer);
  }, { label: promptLabel(params.prompt), id: clientQueueId });
}

/**
 * `_meta["hermes/queueId"]` of a session/prompt: the client's name for a prompt it queued without
 * showing it (the VS Code panel); the echo and the queue list carry it. Anything else is ignored.
 */
function queueIdOf(meta: Record<string, unknown> | null | undefined): string | undefined {
  const id = meta?.[QUEUE_ID_META];
  return isQueueId(id) ? id : undefined;
}

/** A prompt that waited, shown when its turn starts: its blocks as one user message. */
function echoPrompt(observer: AcpTurnObserver, prompt: acp.ContentBlock[], id: string): void {
  const messageId = randomUUID();
  for (const block of prompt) observer.send({ sessionUpdate: "user_message_chunk", content: block, messageId, _meta: { [QUEUE_ID_META]: id } });
}

/** A prompt as /queue lists it: its text, and how many attachments came with it. */
function promptLabel(prompt: acp.ContentBlock[]): string {
  const text = prompt.map((block) => (block.type === "text" ? block.text : "")).join(" ").trim();
  const others = prompt.filter((block) => block.type !== "text").length;
  return others ? `${text}${text ? " " : ""}(+${others} attached)` : text;
}

async function runPromptTurn(
  deps: PromptDeps,
  session: AcpSession,
  params: acp.PromptRequest,
  client: acp.AgentContext,
  signal: AbortSignal,
  observer: AcpTurnObserver,
  /** The prompt's parts when they do not come from `params` (an MCP prompt command). */
  given?: UserPart[],
): Promise<acp.PromptResponse> {
  const { model, loaded } = deps.runtime;
  if (!model.ok) {
    // No model: the turn still ends normally, with an answer that says how to fix it.
    // A broken config.yaml is the cause when there is one: say that and its fix, not the generic
    // "no model is configured" that follows from Hermes ignoring the file.
    const why = loaded.error
      ? `${loaded.error}\n\n${configErrorFix(loaded)}`
      : model.reason;
    observer.send(textChunk(`Hermes has no model to talk to.\n\n${why}`));
    await observer.flush();
    return { stopReason: "end_turn" };
  }

  const host = turnHost(deps, session, client);
  const parts = given ?? (await toUserParts(params.prompt, host.files));
  onPromptStart(loaded.home, session.agent, promptText(parts));
  const hint = firstPromptHint(deps, session, parts);
  try {
    const stopReason = await runTurn(
      {
        session: session.agent,
        models: deps.runtime.chainFor(session.agent.modelId),
        host,
        observer,
        signal,
        maxTurns: loaded.config.agent.max_turns,
        maxTokens: model.model.maxTokens,
        temperature: model.model.temperature,
        retryBaseDelayMs: loaded.config.agent.retry_base_delay * 1000,
        log: deps.log,
        compression: compressionSettings(loaded.config),
        summarizer: deps.runtime.auxiliary(),
        nudges: nudgeSettings(loaded.config),
        // With the background review on, it does what the nudge asked the model to do mid-conversation.
        skillNudge:
          loaded.config.learning.review === "off"
            ? { afterToolCalls: loaded.config.skills.nudge_tool_calls, onRecovery: loaded.config.skills.nudge_on_recovery }
            : { afterToolCalls: 0, onRecovery: false },
        contextNote: hint.note,
      },
      parts,
    );
    onTurnEnd(loaded.home, session.agent, stopReason);
    if (hint.indexClosed) openIndexLater(deps);
    if (!session.agent.title) nameSession(deps, session, parts, observer);
    await observer.flush();
    afterTurn({ runtime: deps.runtime, client, log: deps.log }, session, { messages: turnMessages(session.agent.history), prompt: promptText(parts), stopReason });
    afterTurnCurate({ runtime: deps.runtime, client, log: deps.log }, session);
    // The next process's first load of this chat is served from the cache (replay-refresh.ts).
    refreshReplayCacheWhenIdle(session, deps.runtime.sessions, deps.log);
    const usage = session.agent.usage.turnTotals;
    deps.log.info("turn ended", { sessionId: session.id, stopReason, usage });
    // `usage` is an unstable PromptResponse field; clients on the stable protocol ignore it.
    // The turn's number (checkpoints are keyed by it): a client that counts its prompts itself
    // cannot tell a skill invocation (a turn) from a command (none); this tells it.
    return { stopReason, usage: promptUsage(usage), _meta: { "hermes/turn": session.agent.promptCount } };
  } catch (error) {
    if (isAgentError(error) && error.category === "provider") {
      // Said in the conversation, where the user looks, and as the error the client gets
      // (acp/error-map.ts: "Model request failed: …" with the failure's kind and status).
      const reason = error.message;
      observer.send(textChunk(`\n\n**The model request failed.** ${reason}\n`));
      await observer.flush();
      deps.log.warn("model request failed", { sessionId: session.id, kind: error.data.kind, status: error.data.status, message: reason });
      throw error;
    }
    // Anything else is logged with its stack by the edge (acp/error-map.ts).
    await observer.flush();
    throw error;
  }
}

/**
 * A new session's first prompt: related earlier sessions of its workspace, as a note for the first
 * model call. Searched while the turn gets ready (journaling the prompt, the system prompt, the
 * tools); the loop awaits it only before that call.
 *
 * Only once the session index is open or opening: opening it (sql.js, state.db, the catch-up
 * with every journal changed since) is work on this thread that would hold up the model call,
 * hundreds of ms on a busy machine. It opens 2 s after a new session is answered; a first prompt
 * sooner than that goes without the note (`indexClosed`), and the index opens after its turn.
 */
function firstPromptHint(deps: PromptDeps, session: AcpSession, parts: UserPart[]): { note?: Promise<string | undefined>; indexClosed?: boolean } {
  const agent = session.agent;
  if (!deps.runtime.loaded.config.learning.session_hint || agent.depth > 0 || agent.promptCount > 0 || agent.history.length > 0) return {};
  const store = deps.runtime.sessions;
  if (store.indexState === "closed") return { indexClosed: true };
  const note = import("../app/steps/session-hint")
    .then(({ relatedSessionsHint }) => relatedSessionsHint(store, { id: session.id, cwd: agent.cwd }, promptText(parts), deps.log))
    .catch((error: unknown) => {
      deps.log.warn("related sessions hint failed", { sessionId: session.id, error });
      return undefined;
    });
  return { note };
}

/** Opens the session index now, in the background (as the warm-up after session/new does). */
function openIndexLater(deps: PromptDeps): void {
  deps.runtime.sessions.recent(1).catch((error: unknown) => deps.log.warn("opening the session index failed", { error }));
}

/** The latest turn's messages: from its prompt (the last user message that is not a /steer note; compression keeps it) on. */
function turnMessages(history: readonly ChatMessage[]): readonly ChatMessage[] {
  const start = history.findLastIndex(isUserPrompt);
  return start < 0 ? [] : history.slice(start);
}

function promptText(parts: UserPart[]): string {
  return parts.map((part) => (part.type === "text" ? part.text : "")).join("\n");
}

/** The first line now; a model-written title a moment later, when the auxiliary model is up to it. */
function nameSession(deps: PromptDeps, session: AcpSession, parts: UserPart[], observer: AcpTurnObserver): void {
  const first = firstLineTitle(parts);
  if (first) observer.setTitle(first, "first_line");
  const auxiliary = deps.autoTitle ? deps.runtime.auxiliary() : undefined;
  if (!auxiliary) return;
  generateTitle(auxiliary, session.agent.history, AbortSignal.timeout(20_000))
    .then(async (title) => {
      if (!title || session.agent.titleSource === "user") return;
      observer.setTitle(title, "auto");
      await observer.flush();
    })
    .catch((error: unknown) => deps.log.warn("title generation failed", { sessionId: session.id, error }));
}

function turnHost(deps: PromptDeps, session: AcpSession, client: acp.AgentContext): TurnHost {
  const capabilities = deps.clientCapabilities;
  const fs = capabilities.fs ?? {};
  return {
    files: fs.readTextFile || fs.writeTextFile ? new ClientFileAccess(client, session.id, fs) : new LocalFileAccess(),
    shell: sessionShell(deps.runtime, session, client, capabilities),
    askUser: (call, ask, signal) =>
      requestPermission(client, session.id, call, ask, signal, {
        timeoutMs: deps.runtime.loaded.config.approvals.timeout * 1000,
        log: deps.log,
        editorWrites: fs.writeTextFile === true,
      }),
    clarify: (call, question, signal) =>
      askClarify(client, session.id, capabilities, call, question, signal, { timeoutMs: deps.runtime.loaded.config.clarify.timeout * 1000, log: deps.log }),
    history: deps.runtime.sessions,
    ...auxiliaryOf(deps.runtime),
    approvals: deps.runtime.approvals,
    checkpoints: deps.runtime.checkpoints,
    delegation: delegationFor(deps, session),
  };
}

/** The auxiliary model for tools' short texts (session_search's summaries), when there is one. */
function auxiliaryOf(runtime: AgentRuntime): { auxiliary?: NonNullable<ReturnType<AgentRuntime["auxiliary"]>> } {
  const auxiliary = runtime.auxiliary();
  return auxiliary ? { auxiliary } : {};
}

/** delegate_task's children: subagents on this session's models, external agents with its MCP servers. */
function delegationFor(deps: PromptDeps, session: AcpSession) {
  const { runtime } = deps;
  const config = runtime.loaded.config;
  const model = runtime.model.ok ? runtime.model.model : undefined;
  return createDelegation({
    config: config.delegation,
    subagents: {
      models: () => runtime.chainFor(session.agent.modelId),
      maxTokens: model?.maxTokens,
      temperature: model?.temperature,
      retryBaseDelayMs: config.agent.retry_base_delay * 1000,
      compression: compressionSettings(config),
    },
    mcpServers: () => session.mcpServers,
    shell: (taskFolder) => localShellFor(runtime, session, [taskFolder]),
    version: VERSION,
    log: deps.log,
    answerError: (error, request) => toRequestError(error, { ...request, sessionId: session.id }, deps.log),
  });
}
