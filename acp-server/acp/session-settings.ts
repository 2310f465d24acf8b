// Changing a session's mode and model, from session/set_mode or session/set_config_option,
// and telling the client about it.
import * as acp from "@agentclientprotocol/sdk/unstable";
import type { AgentSession } from "../agent/session";
import { SESSION_MODES } from "../security/modes";
import { setMode, setModel } from "../app/session-settings";
import type { Logger } from "../util/log";
import type { AgentRuntime } from "../runtime/runtime";
import { configOptions, MODE_OPTION, MODEL_OPTION } from "./config-options";
import { invalidParams } from "../util/agent-error";

export async function sessionConfigOptions(runtime: AgentRuntime, session: AgentSession): Promise<acp.SessionConfigOption[]> {
  const choices = runtime.models ? await runtime.pickerChoices() : [];
  return configOptions(session.mode, choices, session.modelId ?? runtime.models?.main.id);
}

export function modeState(session: AgentSession): acp.SessionModeState {
  return { currentModeId: session.mode, availableModes: SESSION_MODES.map(({ id, name, description }) => ({ id, name, description })) };
}

export async function setConfigOption(
  runtime: AgentRuntime,
  session: AgentSession,
  params: acp.SetSessionConfigOptionRequest,
  log: Logger,
): Promise<"mode" | "model"> {
  const value = "value" in params ? params.value : undefined;
  if (typeof value !== "string") throw invalidParams(`${params.configId} takes a string value`, { configId: params.configId });
  if (params.configId === MODE_OPTION) {
    setMode(session, value);
    return "mode";
  }
  if (params.configId === MODEL_OPTION) {
    await setModel(runtime, session, value, log);
    return "model";
  }
  throw invalidParams(`unknown config option "${params.configId}"; expected ${MODE_OPTION} or ${MODEL_OPTION}`, { configId: params.configId });
}

/** Sends an update after the current response: some clients stall on updates that overtake it. */
export function notifyAfterResponse(client: acp.AgentContext, sessionId: string, update: acp.SessionUpdate, log: Logger): void {
  setImmediate(() => {
    client
      .notify(acp.methods.client.session.update, { sessionId, update })
      .catch((error: unknown) => log.warn(`${update.sessionUpdate} could not be sent`, { error }));
  });
}
