// Changing a session's mode and model, whoever asks: the editor's pickers (the ACP edge's
// session/set_mode and set_config_option) or /model.
import type { AgentSession } from "../agent/session";
import type { AgentRuntime } from "../runtime/runtime";
import { isSessionMode, SESSION_MODES } from "../security/modes";
import { invalidParams } from "../util/agent-error";
import type { Logger } from "../util/log";

export function setMode(session: AgentSession, modeId: string): void {
  if (!isSessionMode(modeId)) {
    throw invalidParams(`unknown mode "${modeId}"; expected one of ${SESSION_MODES.map((m) => m.id).join(", ")}`, { modeId });
  }
  session.setMode(modeId);
}

/** Switches the model for the session's next call (journaled); the choice must be one the picker offers. */
export async function setModel(runtime: AgentRuntime, session: AgentSession, modelId: string, log: Logger): Promise<void> {
  await runtime.pickerChoices();
  if (!runtime.findModel(modelId)) {
    const known = (await runtime.pickerChoices()).map((model) => model.id);
    throw invalidParams(`unknown model "${modelId}"; choices: ${known.join(", ") || "none (no model configured)"}`, { value: modelId });
  }
  session.setModel(modelId);
  log.info("model switched", { sessionId: session.id, model: modelId });
  runtime.warmUp(modelId).catch((error: unknown) => log.warn("loading the provider SDK failed", { error }));
}
