// The ACP agent: registers the protocol handlers and wires them to sessions and the
// agent loop. Orchestration only; the work lives in the modules it calls. Everything
// heavy (config, tools, the loop, provider SDKs) is imported on first use so that
// `initialize` is answered as soon as the process is up.
import * as acp from "@agentclientprotocol/sdk/unstable";
import { messagesTokens } from "../providers/token-estimate";
import { flushCompileCache } from "../util/compile-cache";
import type { Logger } from "../util/log";
import type { AcpSession } from "./acp-session";
import type { AgentRuntime } from "../runtime/runtime";
import { initializeResponse } from "./initialize-response";
import { COMMANDS } from "./commands";
import { withErrorMapping } from "./error-map";
import { mcpPromptCommands } from "./mcp-session";
import type { OpenedJournal } from "./load-journal";
import { ArrivalOrder } from "../app/arrival-order";
import { QUEUE_CAPABILITY, QUEUE_LIST_METHOD, QUEUE_REMOVE_METHOD } from "./queue-wire";
import { SessionHub, type ForkPoint } from "./session-hub";
import { modeState, notifyAfterResponse, sessionConfigOptions, setConfigOption, setMode } from "./session-settings";
import { usageUpdate } from "./updates";
import { quietGate } from "../util/quiet-gate";

/** How long after a new session is answered its index warm-up starts (see opened()). */
const INDEX_WARM_UP_DELAY_MS = 2_000;

export interface AgentAppOptions {
  version: string;
  log: Logger;
  /** Loads configuration and the model; called once, after initialize is answered. */
  loadRuntime: () => Promise<AgentRuntime>;
  /** Recorded with new sessions: "acp" (an editor) or "chat" (the terminal). */
  source?: string;
  /**
   * Writes ready-made JSON-RPC frames straight to the transport, after everything the SDK
   * has already handed over. Replaying a long session this way skips the SDK's per-message
   * stream machinery, which otherwise dominates session/load.
   */
  writeFrames?: (data: string | Uint8Array) => Promise<void>;
  /** Resolves once the output written so far has left for the client (stdout has drained). */
  outputDrained?: () => Promise<void>;
}

export function createAgentApp(options: AgentAppOptions): acp.AgentApp {
  const { log } = options;
  let clientCapabilities: acp.ClientCapabilities = {};
  let runtime: Promise<AgentRuntime> | undefined;
  const getRuntime = () => (runtime ??= options.loadRuntime());
  const signIn = () => import("./sign-in");
  /** The runtime, or auth-required (-32000) while it has no usable model. */
  const usableRuntime = async () => {
    let current = await getRuntime();
    if (!current.model.ok) {
      // Set up meanwhile (`hermes setup` in a terminal, config.yaml edited by hand): read it again.
      runtime = undefined;
      current = await getRuntime();
    }
    if (!current.model.ok) throw (await signIn()).authRequiredError(current);
    return current;
  };
  const promptModule = () => import("./prompt-handler");
  const knowledgeMethods = () => import("../learning/knowledge-methods");
  // Sessions being opened: the warm-up after initialize pauses for them (they are what the user waits on).
  const opening = quietGate();
  const promptArrivals = new ArrivalOrder();
  const hub = new SessionHub({ runtime: getRuntime, source: options.source ?? "acp", log });
  /** Each open session's `_hermes/queue/changed` subscription (one per session: the latest open's). */
  const queueWatches = new WeakMap<AcpSession, () => void>();

  /** /rollback N --conversation: a fork of the session before turn N + 1 (the old branch stays). */
  const rewind = async (sessionId: string, turns: number) => {
    const parent = hub.get(sessionId);
    // Our own fork on the same connection: the roots the client gave this session stay.
    const { session } = await hub.fork(sessionId, parent.agent.cwd, parent.mcpServers, { turns }, parent.agent.extraRoots);
    return session.id;
  };

  /** What session/new, load, resume and fork answer with, and what follows the answer. */
  const opened = async (session: AcpSession, client: acp.AgentContext, journal?: OpenedJournal) => {
    const current = await getRuntime();
    // Everything awaited comes first: the updates below must not overtake the response.
    const configOptions = await sessionConfigOptions(current, session.agent);
    // A reopened session's commands go out right after the answer (its replay came first anyway).
    // A new one's follow once the answer has left: reading every SKILL.md is a large part of a
    // first session/new otherwise, and a client takes the list whenever it arrives.
    let skills = journal ? await skillCommandsFor(session.agent.cwd, current, log) : [];
    const commands = () => ({ sessionUpdate: "available_commands_update" as const, availableCommands: [...COMMANDS, ...skills, ...mcpPromptCommands(session.mcp)] });
    if (journal) notifyAfterResponse(client, session.id, commands(), log);
    // Servers that finish connecting later bring their prompts (slash commands) with them.
    session.watchMcp(() => notifyAfterResponse(client, session.id, commands(), log));
    // The panel shows the queue beside its composer: it hears of every change (acp/queue-methods.ts).
    if (clientCapabilities._meta?.[QUEUE_CAPABILITY]) {
      const { sendQueueChanges } = await import("./queue-methods");
      queueWatches.get(session)?.();
      queueWatches.set(session, sendQueueChanges(client, session, log));
    }
    const title = session.agent.title;
    if (title) notifyAfterResponse(client, session.id, { sessionUpdate: "session_info_update", title }, log);
    // Get the first prompt's work out of its way: the frozen system prompt (git status) and the
    // provider SDK. Not before the response: stdout writes leave in one setImmediate after they
    // are made (stdout-writer.ts), so the second turn of the loop starts after the answer went out.
    // After a load, not before the replay has left either: the thread writes the queued frames out
    // only while it is free, and the client waits for them.
    const answered = new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));
    const drained = options.outputDrained;
    const sent = journal && drained ? answered.then(() => drained()).catch(() => undefined) : answered;
    void sent.then(async () => {
      if (!journal) {
        skills = await skillCommandsFor(session.agent.cwd, current, log);
        notifyAfterResponse(client, session.id, commands(), log);
      } else {
        // A load from a cached replay answered before restoring the model history: restored now
        // (else the first prompt does it); the usage meter may count it.
        try {
          session.agent.restoreConversation();
        } catch (error) {
          log.warn("restoring the session's history failed (the next prompt tries again)", { sessionId: session.id, error });
        }
        // A reopened session's usage meter shows at once, not after the next model call.
        const { journalContextTokens } = await import("./load-journal"); // loaded by the restore already
        const usage = session.agent.conversationDeferred ? undefined : reopenedUsage(current, session, journalContextTokens(journal));
        if (usage) notifyAfterResponse(client, session.id, usage, log);
      }
      // Finishes a restore a crash interrupted and prunes old checkpoints, in the background: after
      // the answer, because opening the store spawns git, and a spawn blocks the thread while it forks.
      current.checkpoints.startSession(session.agent.cwd);
      // The prompt names the tools: they load here, after the answer, if the warm-up has not loaded them.
      Promise.all([promptModule(), current.loadTools()])
        .then(([{ prepareSystemPrompt }]) => prepareSystemPrompt(session.agent))
        .catch((error: unknown) => log.warn("preparing the system prompt failed", { error }));
      current.warmUp(session.agent.modelId).catch((error: unknown) => log.warn("loading the provider SDK failed", { error }));
      // A new session's first prompt searches the session index for related work (session-hint.ts).
      // It opens a little later, not after initialize nor at once: opening it catches up with every
      // journal changed since it was last open, which would share the thread with a session/load
      // that follows at once (an editor restoring its chat) and never needs the index.
      if (!journal && session.agent.history.length === 0 && current.loaded.config.learning.session_hint) {
        setTimeout(() => {
          current.sessions.recent(1).catch((error: unknown) => log.warn("opening the session index failed", { error }));
        }, INDEX_WARM_UP_DELAY_MS).unref();
      }
    }).catch((error: unknown) => log.warn("the work after opening a session failed", { sessionId: session.id, error }));
    return { modes: modeState(session.agent), configOptions };
  };

  // Every handler's errors go through acp/error-map.ts: none answers with a raw exception.
  return withErrorMapping(acp.agent({ name: "hermes" }), log)
    .onRequest(acp.methods.agent.initialize, ({ params }) => {
      clientCapabilities = params.clientCapabilities ?? {};
      log.info("initialize", { client: params.clientInfo?.name, protocolVersion: params.protocolVersion, capabilities: clientCapabilities });
      // Warm up what the first session/new, then the first prompt, need while the client reads the
      // answer (agent-runtime.ts, prepare). The loop's modules come last: session/new does not need them.
      setImmediate(() => {
        void getRuntime()
          .then((current) => current.prepare(process.cwd(), () => opening.quiet()))
          .catch((error: unknown) => log.error("loading the runtime failed", { error }))
          .then(() => opening.quiet())
          .then(() => promptModule())
          .then(() => flushCompileCache())
          .catch((error: unknown) => log.error("loading the agent failed", { error }));
      });
      return initializeResponse(options.version, clientCapabilities);
    })
    .onRequest(acp.methods.agent.authenticate, async ({ params }) => {
      const { changed } = await (await signIn()).authenticate(params, await getRuntime(), log);
      // The next request loads the configuration again, with the stored key and model.
      if (changed) runtime = undefined;
      return {};
    })
    .onRequest(acp.methods.agent.logout, async () => {
      // The runtime is loaded again with what is left: a sign-in is needed before the next session.
      runtime = undefined;
      return (await signIn()).logout(getRuntime, log);
    })
    .onRequest(acp.methods.agent.session.new, ({ params, client }) =>
      opening.run(async () => {
        await usableRuntime();
        const session = await hub.create(params.cwd, params.mcpServers, params.additionalDirectories);
        return { sessionId: session.id, ...(await opened(session, client)) };
      }),
    )
    .onRequest(acp.methods.agent.session.load, ({ params, client }) => opening.run(async () => {
      const { session, journal } = await hub.restore(params.sessionId, params.cwd, params.mcpServers, {
        takeOver: takeOver(params._meta),
        additionalDirectories: params.additionalDirectories,
      });
      const { sessions } = await getRuntime();
      // A turn without an end is one the process died in, unless it may still be running:
      // here, or in the live process that owns the session (this one only follows it).
      const turnMayBeRunning = session.busy || !sessions.owns(session.id);
      // The whole history goes out, in order, before the answer (the replay code loads with the first load).
      const { sendReplay } = await import("./replay-send");
      await sendReplay({ client, sessionId: session.id, writeFrames: options.writeFrames, outputDrained: options.outputDrained, store: sessions }, journal, { turnMayBeRunning });
      return opened(session, client, journal);
    }))
    .onRequest(acp.methods.agent.session.resume, ({ params, client }) => opening.run(async () => {
      // No mcpServers on a resume means "as before": a live session keeps its servers.
      const { session, journal } = await hub.restore(params.sessionId, params.cwd, params.mcpServers ?? undefined, {
        takeOver: takeOver(params._meta),
        additionalDirectories: params.additionalDirectories,
      });
      return opened(session, client, journal);
    }))
    .onRequest(acp.methods.agent.session.fork, ({ params, client }) => opening.run(async () => {
      const { session } = await hub.fork(params.sessionId, params.cwd, params.mcpServers ?? [], forkPoint(params._meta), params.additionalDirectories);
      return { sessionId: session.id, ...(await opened(session, client)) };
    }))
    .onRequest(acp.methods.agent.session.list, async ({ params }) => hub.list(params))
    // History search over message content (the panel's history view); params checked inside.
    .onRequest("_hermes/sessions/search", (params: unknown) => params, async ({ params }) => {
      const [{ searchSessions }, current] = await Promise.all([import("../app/session-search"), getRuntime()]);
      return searchSessions(current.sessions, params);
    })
    // Which turns of a live session have a checkpoint (the panel's "Restore checkpoint"); params checked inside.
    .onRequest("_hermes/checkpoints/list", (params: unknown) => params, async ({ params }) => {
      const [{ listParams, listTurnCheckpoints }, current] = await Promise.all([import("./checkpoint-list"), getRuntime()]);
      return listTurnCheckpoints(current, hub.get(listParams(params).sessionId));
    })
    // "What Hermes knows" (the panel's view): memory entries and skills, read and changed; params checked inside.
    .onRequest("_hermes/knowledge/get", (params: unknown) => params, async ({ params }) => (await knowledgeMethods()).getKnowledge((await getRuntime()).loaded, params))
    .onRequest("_hermes/knowledge/memory", (params: unknown) => params, async ({ params }) => (await knowledgeMethods()).changeMemory((await getRuntime()).loaded, params))
    .onRequest("_hermes/knowledge/skill", (params: unknown) => params, async ({ params }) => (await knowledgeMethods()).changeSkill((await getRuntime()).loaded, params))
    // The waiting prompts, and dropping one or all (the panel's queue; acp/queue-methods.ts checks the params).
    // Each acts after the session's earlier prompts took their place in its queue (arrival order).
    .onRequest(QUEUE_LIST_METHOD, (params: unknown) => params, async ({ params }) => {
      const { listQueue, listQueueParams } = await import("./queue-methods");
      const { sessionId } = listQueueParams(params);
      return promptArrivals.inOrder(sessionId, async () => listQueue(hub.get(sessionId)));
    })
    .onRequest(QUEUE_REMOVE_METHOD, (params: unknown) => params, async ({ params }) => {
      const { removeFromQueue, removeQueueParams } = await import("./queue-methods");
      const { sessionId, id } = removeQueueParams(params);
      return promptArrivals.inOrder(sessionId, async () => removeFromQueue(hub.get(sessionId), id));
    })
    .onRequest(acp.methods.agent.session.close, async ({ params }) => {
      await hub.close(params.sessionId);
      return {};
    })
    .onRequest(acp.methods.agent.session.delete, async ({ params }) => {
      await hub.delete(params.sessionId);
      return {};
    })
    .onRequest(acp.methods.agent.session.prompt, ({ params, client, signal }) =>
      // Prompts reach the session's queue in the order they arrived, whatever their set-up awaits.
      promptArrivals.inOrder(params.sessionId, async (queued) => {
        // Only the session's one writer runs prompts (a process that follows it answers why not).
        const session = await hub.forPrompt(params.sessionId);
        const [{ handlePrompt }, current] = await Promise.all([promptModule(), usableRuntime()]);
        await current.loadTools();
        const autoTitle = current.loaded.config.sessions.auto_title;
        // handlePrompt queues the turn (or answers /steer, /queue) before its first await.
        const answer = handlePrompt({ runtime: current, clientCapabilities, log, autoTitle, fork: rewind }, session, params, client, signal);
        queued();
        return answer;
      }),
    )
    .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
      const session = hub.find(params.sessionId);
      if (!session) return log.warn("cancel for an unknown session", { sessionId: params.sessionId });
      session.cancel();
    })
    .onRequest(acp.methods.agent.session.setMode, async ({ params, client }) => {
      const session = hub.get(params.sessionId);
      setMode(session.agent, params.modeId);
      notifyAfterResponse(client, session.id, { sessionUpdate: "current_mode_update", currentModeId: session.agent.mode }, log);
      const options = await sessionConfigOptions(await getRuntime(), session.agent);
      notifyAfterResponse(client, session.id, { sessionUpdate: "config_option_update", configOptions: options }, log);
      return {};
    })
    .onRequest(acp.methods.agent.session.setConfigOption, async ({ params, client }) => {
      const session = hub.get(params.sessionId);
      const current = await getRuntime();
      const changed = await setConfigOption(current, session.agent, params, log);
      if (changed === "mode") notifyAfterResponse(client, session.id, { sessionUpdate: "current_mode_update", currentModeId: session.agent.mode }, log);
      return { configOptions: await sessionConfigOptions(current, session.agent) };
    });
}

/**
 * The usage_update a reopened session starts with: the context its last model call used (this
 * process's measure, else the journal's, else an estimate of the history), the session model's
 * window, and the cost its usage account holds in this process.
 */
function reopenedUsage(runtime: AgentRuntime, session: AcpSession, journalTokens: number | undefined): acp.SessionUpdate | undefined {
  const model = runtime.chainFor(session.agent.modelId)[0];
  if (!model) return undefined;
  const used = session.agent.contextTokens ?? journalTokens ?? messagesTokens(session.agent.history);
  return usageUpdate({ inputTokens: used, outputTokens: 0 }, model.contextWindow, session.agent.usage.costUsd);
}

/** A session's skills as slash commands (none when they cannot be read: the built-in commands still go out). */
async function skillCommandsFor(cwd: string, runtime: AgentRuntime, log: Logger): Promise<acp.AvailableCommand[]> {
  try {
    const { skillCommands } = await import("./skill-commands");
    return skillCommands(cwd, runtime.loaded);
  } catch (error) {
    log.warn("offering the skills as commands failed", { error });
    return [];
  }
}

/**
 * `_meta["hermes/takeOver"]: true` on session/load or session/resume: this process becomes the
 * session's writer even though another live Hermes process owns it (which then refuses to write).
 */
function takeOver(meta: Record<string, unknown> | null | undefined): boolean {
  return meta?.["hermes/takeOver"] === true;
}

/**
 * Forks copy the whole history unless `_meta` says where to cut: `messageIndex` keeps that many
 * messages; `hermes/turns` keeps that many user prompts with everything they led to (what a
 * "fork from here" on a prompt in a chat panel means, without the panel knowing message counts).
 */
function forkPoint(meta: Record<string, unknown> | null | undefined): ForkPoint | undefined {
  const isCount = (value: unknown): value is number => typeof value === "number" && Number.isInteger(value) && value >= 0;
  const turns = meta?.["hermes/turns"];
  if (isCount(turns)) return { turns };
  const messages = meta?.messageIndex ?? meta?.["hermes/messageIndex"];
  return isCount(messages) ? { messages } : undefined;
}
