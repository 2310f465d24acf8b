// The ACP agent: registers the protocol handlers and wires them to sessions and the
// agent loop. Orchestration only; the work lives in the modules it calls. Everything
// heavy (config, tools, the loop, provider SDKs) is imported on first use so that
// `initialize` is answered as soon as the process is up.
import * as acp from "@agentclientprotocol/sdk/unstable";
import { flushCompileCache } from "../util/compile-cache";
import type { Logger } from "../util/log";
import type { LiveSession } from "../runtime/live-session";
import type { AgentRuntime } from "../runtime/runtime";
import { initializeResponse } from "./initialize-response";
import { withErrorMapping } from "./error-map";
import { mcpPromptCommands } from "../runtime/session-mcp";
import { clientMcpSpecs } from "./mcp-servers";
import type { OpenedJournal } from "../app/load-journal";
import { QUEUE_CAPABILITY, QUEUE_LIST_METHOD, QUEUE_REMOVE_METHOD } from "../../common/queue-wire";
import { HermesApp } from "../app/hermes-app";
import type { ForkPoint, SessionListPage } from "../app/session-hub";
import { reopened, warmUpSession } from "../app/session-start";
import { modeState, notifyAfterResponse, sessionConfigOptions, setConfigOption } from "./session-settings";
import { ISOLATION_OPTION, isolationOptions, isolationRequest } from "./isolation-option";
import { setMode } from "../app/session-settings";
import { availableCommands, noticeChunk, usageUpdate } from "./updates";
import { elicitationModes } from "./elicitation-request";
import { FIRST_PROMPT_META, KNOWLEDGE_METHODS, LIST_CHECKPOINTS_METHOD, SEARCH_SESSIONS_METHOD, WORKTREE_METHODS } from "../../common/hermes-methods";
import type { CommandInfo } from "../runtime/slash-command";
import { disableTools } from "../tools/commands/tools";
import { AgentError } from "../util/agent-error";
import { disabledToolsOf, WORKTREE_META, worktreeOf } from "./script-meta";
import { worktreeAnswerMeta } from "./worktree-answer";

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
  // A session's MCP servers are told the elicitation modes this client advertised.
  const app = new HermesApp({ loadRuntime: options.loadRuntime, source: options.source ?? "acp", log, elicitation: () => elicitationModes(clientCapabilities) });
  const { hub, opening, arrivals: promptArrivals } = app;
  const getRuntime = () => app.runtime();
  const signIn = () => import("./sign-in");
  const promptModule = () => import("./prompt-handler");
  const knowledgeMethods = () => import("../learning/knowledge-methods");
  /** Each open session's `_hermes/queue/changed` subscription (one per session: the latest open's). */
  const queueWatches = new WeakMap<LiveSession, () => void>();

  /** The session's config options: its settings, and where it works while it can still switch. */
  const optionsOf = async (current: AgentRuntime, session: LiveSession) => [...(await sessionConfigOptions(current, session.agent, clientCapabilities)), ...isolationOptions(session)];

  /** What session/new, load, resume and fork answer with, and what follows the answer. */
  const opened = async (session: LiveSession, client: acp.AgentContext, journal?: OpenedJournal) => {
    const current = await getRuntime();
    // Everything awaited comes first: the updates below must not overtake the response.
    const configOptions = await optionsOf(current, session);
    // A reopened session's commands go out right after the answer (its replay came first anyway).
    // A new one's follow once the answer has left: reading every SKILL.md is a large part of a
    // first session/new otherwise, and a client takes the list whenever it arrives.
    // The commands' modules load with the list, not with the process: a first session/new needs none.
    const offer = async () => (await import("../app/commands/offered")).offeredCommands(session.agent.cwd, current, log);
    let offered: CommandInfo[] | undefined = journal ? await offer() : undefined;
    const commands = () => ({ sessionUpdate: "available_commands_update" as const, availableCommands: availableCommands([...(offered ?? []), ...mcpPromptCommands(session.mcp)]) });
    if (journal) notifyAfterResponse(client, session.id, commands(), log);
    // Servers that finish connecting later bring their prompts (slash commands) with them (a new
    // session's list goes out once it is read, with the prompts of every server ready by then).
    session.watchMcp(() => {
      if (offered) notifyAfterResponse(client, session.id, commands(), log);
    });
    // The panel shows the queue beside its composer: it hears of every change (acp/queue-methods.ts).
    if (clientCapabilities._meta?.[QUEUE_CAPABILITY]) {
      const { sendQueueChanges } = await import("./queue-methods");
      queueWatches.get(session)?.();
      queueWatches.set(session, sendQueueChanges(client, session, log));
    }
    const title = session.agent.title;
    if (title) notifyAfterResponse(client, session.id, { sessionUpdate: "session_info_update", title }, log);
    if (session.openingNotice) {
      session.agent.recordNotice(session.openingNotice);
      notifyAfterResponse(client, session.id, noticeChunk(session.openingNotice), log);
      session.openingNotice = undefined;
    }
    // Get the first prompt's work out of its way: the frozen system prompt (git status) and the
    // provider SDK. Not before the response: stdout writes leave in one setImmediate after they
    // are made (stdout-writer.ts), so the second turn of the loop starts after the answer went out.
    // After a load, not before the replay has left either: the thread writes the queued frames out
    // only while it is free, and the client waits for them.
    const answered = new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));
    const drained = options.outputDrained;
    const sent =
      journal && drained
        ? answered.then(() => drained()).catch((error: unknown) => log.debug("stdout did not drain after a load (the client is gone?); the session's start-up work goes on", { sessionId: session.id, error }))
        : answered;
    void sent.then(async () => {
      if (!journal) {
        offered = await offer();
        notifyAfterResponse(client, session.id, commands(), log);
      } else {
        // A reopened session's usage meter shows at once, not after the next model call.
        const meter = await reopened(current, session, journal, log);
        if (meter) notifyAfterResponse(client, session.id, usageUpdate({ inputTokens: meter.usedTokens, outputTokens: 0 }, meter.contextWindow, meter.costUsd), log);
      }
      warmUpSession(current, session, !journal, log);
      // MCP servers waiting for an OAuth sign-in: their links go to the user now that the session exists for the client.
      if (session.mcp?.connections.some((connection) => connection.status === "needs_sign_in")) {
        const [{ acpChannel }, { offerMcpSignIns }] = await Promise.all([import("./acp-channel"), import("../runtime/mcp-sign-in")]);
        offerMcpSignIns(session, acpChannel(client, session, clientCapabilities, log), log);
      }
    }).catch((error: unknown) => log.warn("the work after opening a session failed", { sessionId: session.id, error }));
    return { modes: modeState(session.agent), configOptions, ...worktreeAnswerMeta(session.worktree) };
  };

  // Every handler's errors go through acp/error-map.ts: none answers with a raw exception.
  return withErrorMapping(acp.agent({ name: "hermes" }), log)
    .onRequest(acp.methods.agent.initialize, ({ params }) => {
      clientCapabilities = params.clientCapabilities ?? {};
      log.info("initialize", { client: params.clientInfo?.name, protocolVersion: params.protocolVersion, capabilities: clientCapabilities });
      // Warm up what the first session/new, then the first prompt, need while the client reads the
      // answer (runtime/runtime.ts, prepare). The loop's modules come last: session/new does not need them.
      setImmediate(() => {
        void app
          .warmUp(process.cwd())
          .then(() => promptModule())
          .then(() => flushCompileCache())
          .catch((error: unknown) => log.error("loading the agent failed", { error }));
      });
      return initializeResponse(options.version, clientCapabilities);
    })
    .onRequest(acp.methods.agent.authenticate, async ({ params }) => {
      const { changed } = await (await signIn()).authenticateRequest(params, await getRuntime(), log);
      // The next request loads the configuration again, with the stored key and model.
      if (changed) app.reset();
      return {};
    })
    .onRequest(acp.methods.agent.logout, async () => {
      // The runtime is loaded again with what is left: a sign-in is needed before the next session.
      app.reset();
      return (await signIn()).logoutRequest(getRuntime, log);
    })
    .onRequest(acp.methods.agent.session.new, ({ params, client }) =>
      opening.run(async () => {
        await app.usableRuntime();
        const disabledTools = disabledToolsOf(params._meta);
        const worktree = await worktreeOf(params._meta);
        const session = await hub.create(params.cwd, clientMcpSpecs(params.mcpServers), params.additionalDirectories, worktree !== undefined ? { worktree } : {});
        if (disabledTools) {
          // The tools load after the first session/new otherwise; naming them needs them here.
          await (await getRuntime()).loadTools();
          const unknown = disableTools(session.agent, disabledTools);
          if (unknown.length > 0) {
            // Nothing half-made stays behind: the session is gone again, and the script is told why.
            await hub.delete(session.id);
            throw new AgentError("invalid_params", `_meta["hermes/disabledTools"]: no tool or toolset named ${unknown.join(", ")}`, { unknown });
          }
        }
        return { sessionId: session.id, ...(await opened(session, client)) };
      }),
    )
    .onRequest(acp.methods.agent.session.load, ({ params, client }) => opening.run(async () => {
      const { session, journal } = await hub.restore(params.sessionId, params.cwd, clientMcpSpecs(params.mcpServers), {
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
      const { session, journal } = await hub.restore(params.sessionId, params.cwd, params.mcpServers ? clientMcpSpecs(params.mcpServers) : undefined, {
        takeOver: takeOver(params._meta),
        additionalDirectories: params.additionalDirectories,
      });
      return opened(session, client, journal);
    }))
    .onRequest(acp.methods.agent.session.fork, ({ params, client }) => opening.run(async () => {
      const { session } = await hub.fork(params.sessionId, params.cwd, clientMcpSpecs(params.mcpServers ?? []), forkPoint(params._meta), params.additionalDirectories);
      return { sessionId: session.id, ...(await opened(session, client)) };
    }))
    .onRequest(acp.methods.agent.session.list, async ({ params }) => sessionListResponse(await hub.list(params)))
    // History search over message content (the panel's history view); params checked inside.
    .onRequest(SEARCH_SESSIONS_METHOD, (params: unknown) => params, async ({ params }) => {
      const [{ searchSessions }, current] = await Promise.all([import("../app/session-search"), getRuntime()]);
      return searchSessions(current.sessions, params);
    })
    // Which turns of a live session have a checkpoint (the panel's "Restore checkpoint"); params checked inside.
    .onRequest(LIST_CHECKPOINTS_METHOD, (params: unknown) => params, async ({ params }) => {
      const [{ listParams, listTurnCheckpoints }, current] = await Promise.all([import("../app/checkpoint-list"), getRuntime()]);
      return listTurnCheckpoints(current, hub.get(listParams(params).sessionId));
    })
    // "What Hermes knows" (the panel's view): memory entries and skills, read and changed; params checked inside.
    // A worktree chat's changes reviewed hunk by hunk in the panel, and the accepted part applied (acp/worktree-methods.ts checks the params).
    .onRequest(WORKTREE_METHODS.changes, (params: unknown) => params, async ({ params }) => {
      const { changesParams, worktreeChangesOf } = await import("./worktree-methods");
      return worktreeChangesOf(hub.get(changesParams(params).sessionId));
    })
    .onRequest(WORKTREE_METHODS.apply, (params: unknown) => params, async ({ params, client }) => {
      const { applyParams, applyAccepted } = await import("./worktree-methods");
      const checked = applyParams(params);
      return applyAccepted(hub.get(checked.sessionId), checked, client, log);
    })
    .onRequest(KNOWLEDGE_METHODS.get, (params: unknown) => params, async ({ params }) => (await knowledgeMethods()).getKnowledge((await getRuntime()).loaded, params))
    .onRequest(KNOWLEDGE_METHODS.memory, (params: unknown) => params, async ({ params }) => (await knowledgeMethods()).changeMemory((await getRuntime()).loaded, params))
    .onRequest(KNOWLEDGE_METHODS.skill, (params: unknown) => params, async ({ params }) => (await knowledgeMethods()).changeSkill((await getRuntime()).loaded, params))
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
        const [{ handlePrompt }, current] = await Promise.all([promptModule(), app.usableRuntime()]);
        await current.loadTools();
        // handlePrompt queues the turn (or answers /steer, /queue) before its first await.
        const switchable = session.isolationSwitchable;
        const answer = handlePrompt({ runtime: current, clientCapabilities, log, fork: (sessionId, turns) => app.rewind(sessionId, turns) }, session, params, client, signal);
        queued();
        // The first turn ends the isolation option: the client hears its list without it.
        if (switchable && !session.isolationSwitchable) {
          void optionsOf(current, session)
            .then((configOptions) => notifyAfterResponse(client, session.id, { sessionUpdate: "config_option_update", configOptions }, log))
            .catch((error: unknown) => log.warn("the config options after a first prompt could not be built", { sessionId: session.id, error }));
        }
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
      const options = await optionsOf(await getRuntime(), session);
      notifyAfterResponse(client, session.id, { sessionUpdate: "config_option_update", configOptions: options }, log);
      return {};
    })
    .onRequest(acp.methods.agent.session.setConfigOption, async ({ params, client }) => {
      if (params.configId === ISOLATION_OPTION) {
        const toWorktree = isolationRequest("value" in params ? params.value : undefined);
        // In the prompt order: a prompt sent right after waits for the move, then runs where the session now works.
        const moved = await promptArrivals.inOrder(params.sessionId, async () => hub.reisolate(params.sessionId, toWorktree));
        const current = await getRuntime();
        if (moved.agent.title) notifyAfterResponse(client, moved.id, { sessionUpdate: "session_info_update", title: moved.agent.title }, log);
        return { configOptions: await optionsOf(current, moved) };
      }
      const session = hub.get(params.sessionId);
      const current = await getRuntime();
      const changed = await setConfigOption(current, session.agent, params, log);
      if (changed === "mode") notifyAfterResponse(client, session.id, { sessionUpdate: "current_mode_update", currentModeId: session.agent.mode }, log);
      return { configOptions: await optionsOf(current, session) };
    });
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

/** A page of sessions as session/list answers it: the first prompt and the worktree (`hermes/worktree`) go in each row's `_meta`. */
function sessionListResponse(page: SessionListPage): acp.ListSessionsResponse {
  return {
    sessions: page.sessions.map(({ firstPrompt, worktree, ...row }) => {
      const meta = { ...(firstPrompt ? { [FIRST_PROMPT_META]: firstPrompt } : {}), ...(worktree ? { [WORKTREE_META]: worktree } : {}) };
      return { ...row, ...(Object.keys(meta).length > 0 ? { _meta: meta } : {}) };
    }),
    ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
  };
}
