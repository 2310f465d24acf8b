// The ACP agent: registers the protocol handlers and wires them to sessions and the
// agent loop. Orchestration only; the work lives in the modules it calls. Everything
// heavy (config, tools, the loop, provider SDKs) is imported on first use so that
// `initialize` is answered as soon as the process is up.
import * as acp from "@agentclientprotocol/sdk";
import { randomUUID } from "node:crypto";
import { statSync } from "node:fs";
import path from "node:path";
import { AgentSession } from "../agent/session";
import type { Logger } from "../util/log";
import { AcpSession } from "./acp-session";
import type { AgentRuntime } from "./agent-runtime";
import { initializeResponse } from "./initialize-response";
import { modeState, notifyAfterResponse, sessionConfigOptions, setConfigOption, setMode } from "./session-settings";

export interface AgentAppOptions {
  version: string;
  log: Logger;
  /** Loads configuration and the model; called once, after initialize is answered. */
  loadRuntime: () => Promise<AgentRuntime>;
}

export function createAgentApp(options: AgentAppOptions): acp.AgentApp {
  const { log } = options;
  const sessions = new Map<string, AcpSession>();
  let clientCapabilities: acp.ClientCapabilities = {};
  let runtime: Promise<AgentRuntime> | undefined;
  const getRuntime = () => (runtime ??= options.loadRuntime());
  const promptModule = () => import("./prompt-handler");

  const findSession = (sessionId: string): AcpSession => {
    const session = sessions.get(sessionId);
    if (!session) throw acp.RequestError.sessionNotFound(sessionId);
    return session;
  };

  return acp
    .agent({ name: "hermes" })
    .onRequest(acp.methods.agent.initialize, ({ params }) => {
      clientCapabilities = params.clientCapabilities ?? {};
      log.info("initialize", { client: params.clientInfo?.name, protocolVersion: params.protocolVersion, capabilities: clientCapabilities });
      // Warm up what the first session/prompt needs while the client reads the answer.
      setImmediate(() => {
        getRuntime().catch((error: unknown) => log.error("loading the runtime failed", { error }));
        promptModule().catch((error: unknown) => log.error("loading the agent failed", { error }));
      });
      return initializeResponse(options.version);
    })
    .onRequest(acp.methods.agent.session.new, async ({ params }) => {
      const cwd = checkedCwd(params.cwd);
      const current = await getRuntime();
      const agentSession = new AgentSession(randomUUID(), cwd, current.loaded.config.agent.default_mode);
      const session = new AcpSession(agentSession, params.mcpServers);
      sessions.set(session.id, session);
      log.info("session created", { sessionId: session.id, cwd, mcpServers: params.mcpServers.length });
      // Get the first prompt's work out of its way: the frozen system prompt (git status)
      // and the provider SDK.
      setImmediate(() => {
        promptModule()
          .then(({ prepareSystemPrompt }) => prepareSystemPrompt(agentSession))
          .catch((error: unknown) => log.warn("preparing the system prompt failed", { error }));
        current.warmUp().catch((error: unknown) => log.warn("loading the provider SDK failed", { error }));
      });
      return { sessionId: session.id, modes: modeState(agentSession), configOptions: await sessionConfigOptions(current, agentSession) };
    })
    .onRequest(acp.methods.agent.session.prompt, async ({ params, client, signal }) => {
      const session = findSession(params.sessionId);
      const [{ handlePrompt }, current] = await Promise.all([promptModule(), getRuntime()]);
      return handlePrompt({ runtime: current, clientCapabilities, log }, session, params, client, signal);
    })
    .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
      const session = sessions.get(params.sessionId);
      if (!session) return log.warn("cancel for an unknown session", { sessionId: params.sessionId });
      session.cancel();
    })
    .onRequest(acp.methods.agent.session.setMode, async ({ params, client }) => {
      const session = findSession(params.sessionId).agent;
      setMode(session, params.modeId);
      notifyAfterResponse(client, session.id, { sessionUpdate: "current_mode_update", currentModeId: session.mode }, log);
      const options = await sessionConfigOptions(await getRuntime(), session);
      notifyAfterResponse(client, session.id, { sessionUpdate: "config_option_update", configOptions: options }, log);
      return {};
    })
    .onRequest(acp.methods.agent.session.setConfigOption, async ({ params, client }) => {
      const session = findSession(params.sessionId).agent;
      const current = await getRuntime();
      const changed = await setConfigOption(current, session, params, log);
      if (changed === "mode") notifyAfterResponse(client, session.id, { sessionUpdate: "current_mode_update", currentModeId: session.mode }, log);
      return { configOptions: await sessionConfigOptions(current, session) };
    });
}

/** ACP requires an absolute cwd; it must also exist, or every tool would fail later. */
function checkedCwd(cwd: string): string {
  if (!path.isAbsolute(cwd)) throw acp.RequestError.invalidParams({ cwd }, `cwd must be an absolute path, got "${cwd}"`);
  try {
    if (!statSync(cwd).isDirectory()) throw new Error("not a directory");
  } catch {
    throw acp.RequestError.invalidParams({ cwd }, `cwd "${cwd}" is not an existing directory`);
  }
  return path.resolve(cwd);
}
