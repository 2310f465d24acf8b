// Changing a session's mode and model, from session/set_mode or session/set_config_option,
// and telling the client about it.
import * as acp from "@agentclientprotocol/sdk/unstable";
import type { AgentSession } from "../agent/session";
import { SESSION_MODES } from "../security/modes";
import { setMode, setModel } from "../app/session-settings";
import type { Logger } from "../util/log";
import type { AgentRuntime } from "../runtime/runtime";
import { configOptions, MODE_OPTION, MODEL_OPTION, THINKING_OPTION } from "./config-options";
import { thinks } from "../config/resolve-model";
import { invalidParams } from "../util/agent-error";

/**
 * The session's options for this client. The thinking switch is a boolean option, so only for a
 * client that said it shows them (`session.configOptions.boolean`), and only for a model that thinks.
 */
export async function sessionConfigOptions(runtime: AgentRuntime, session: AgentSession, client?: acp.ClientCapabilities): Promise<acp.SessionConfigOption[]> {
  const choices = runtime.models ? await runtime.pickerChoices() : [];
  const currentModelId = session.modelId ?? runtime.models?.main.id;
  const current = currentModelId ? runtime.findModel(currentModelId) ?? (runtime.models?.main.id === currentModelId ? runtime.models.main : undefined) : undefined;
  const offerThinking = client?.session?.configOptions?.boolean != null && current !== undefined && thinks(current);
  return configOptions(session.mode, choices, currentModelId, offerThinking ? { thinking: session.thinking ?? true } : {});
}

export function modeState(session: AgentSession): acp.SessionModeState {
  return { currentModeId: session.mode, availableModes: SESSION_MODES.map(({ id, name, description }) => ({ id, name, description })) };
}

export async function setConfigOption(
  runtime: AgentRuntime,
  session: AgentSession,
  params: acp.SetSessionConfigOptionRequest,
  log: Logger,
): Promise<"mode" | "model" | "thinking"> {
  const value = "value" in params ? params.value : undefined;
  if (params.configId === THINKING_OPTION) {
    if (typeof value !== "boolean") throw invalidParams(`${THINKING_OPTION} takes a boolean value (type "boolean")`, { configId: params.configId });
    session.setThinking(value);
    return "thinking";
  }
  if (typeof value !== "string") throw invalidParams(`${params.configId} takes a string value`, { configId: params.configId });
  if (params.configId === MODE_OPTION) {
    setMode(session, value);
    return "mode";
  }
  if (params.configId === MODEL_OPTION) {
    await setModel(runtime, session, value, log);
    return "model";
  }
  throw invalidParams(`unknown config option "${params.configId}"; expected ${MODE_OPTION}, ${MODEL_OPTION} or ${THINKING_OPTION}`, { configId: params.configId });
}

/** Sends an update after the current response: some clients stall on updates that overtake it. */
export function notifyAfterResponse(client: acp.AgentContext, sessionId: string, update: acp.SessionUpdate, log: Logger): void {
  setImmediate(() => {
    client
      .notify(acp.methods.client.session.update, { sessionId, update })
      .catch((error: unknown) => log.warn(`${update.sessionUpdate} could not be sent`, { error }));
  });
}
