// What the agent needs beyond the protocol: configuration, the resolved model and the
// provider. Loaded on demand (right after `initialize` is answered), so parsing YAML and
// loading the tools never delays the editor's handshake.
import { loadConfig, type LoadedConfig } from "../config/load";
import { resolveModel, type ModelResolution } from "../config/resolve-model";
import { createProvider } from "../providers/create-provider";
import type { ModelProvider } from "../providers/types";
import { configureLogging, type Logger } from "../util/log";

export interface AgentRuntime {
  loaded: LoadedConfig;
  model: ModelResolution;
  /** The provider for the resolved model, created on first use. Throws when there is none. */
  provider(): ModelProvider;
}

export function loadAgentRuntime(log: Logger, options: { stderrLevel?: "warn" } = {}): AgentRuntime {
  const loaded = loadConfig();
  configureLogging({ level: loaded.config.logging.level, stderrLevel: options.stderrLevel ?? loaded.config.logging.level });
  if (loaded.error) log.warn(`configuration problem:\n${loaded.error}`);
  const model = resolveModel(loaded);
  if (model.ok) log.info("model", { provider: model.model.provider, name: model.model.name, baseUrl: model.model.baseUrl });
  else log.warn(`no usable model: ${model.reason.split("\n")[0]}`);

  let provider: ModelProvider | undefined;
  return {
    loaded,
    model,
    provider: () => {
      if (!model.ok) throw new Error(`no model configured: ${model.reason}`);
      provider ??= createProvider(model.model);
      return provider;
    },
  };
}
