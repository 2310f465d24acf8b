// The session's pickers as ACP config options: the mode (category "mode"), the model
// (category "model") and, for a model configured to think, an extended-thinking switch (a
// boolean option, category "model_config": a setting of the model, not a level picker).
// Pure, so the same list answers session/new and set_config_option.
import type * as acp from "@agentclientprotocol/sdk/unstable";
import type { ResolvedModel } from "../config/resolve-model";
import { SESSION_MODES, type SessionMode } from "../security/modes";

export const MODE_OPTION = "mode";
export const MODEL_OPTION = "model";
export const THINKING_OPTION = "thinking";

export function configOptions(
  mode: SessionMode,
  models: ResolvedModel[],
  currentModelId: string | undefined,
  /** `thinking`: offer the switch, in this state (absent: not offered). */
  extras: { thinking?: boolean } = {},
): acp.SessionConfigOption[] {
  const options: acp.SessionConfigOption[] = [
    {
      id: MODE_OPTION,
      name: "Mode",
      category: "mode",
      type: "select",
      currentValue: mode,
      options: SESSION_MODES.map(({ id, name, description }) => ({ value: id, name, description })),
    },
  ];
  if (models.length > 0 && currentModelId) {
    options.push({
      id: MODEL_OPTION,
      name: "Model",
      category: "model",
      type: "select",
      currentValue: currentModelId,
      options: models.map((model) => ({ value: model.id, name: model.name, description: describe(model) })),
    });
  }
  if (extras.thinking !== undefined) {
    options.push({
      id: THINKING_OPTION,
      name: "Extended thinking",
      description: "Let the model think before it answers (its configured thinking budget or reasoning effort); off saves time and tokens",
      category: "model_config",
      type: "boolean",
      currentValue: extras.thinking,
    });
  }
  return options;
}

function describe(model: ResolvedModel): string {
  const context = model.contextWindow >= 1_000_000 ? `${(model.contextWindow / 1_000_000).toFixed(1)}M` : `${Math.round(model.contextWindow / 1000)}k`;
  const price = model.price ? ` · $${model.price.input}/$${model.price.output} per M tokens` : "";
  return `${model.provider} · ${context} context${price}`;
}
