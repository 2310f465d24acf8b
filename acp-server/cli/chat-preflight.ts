// Before `hermes chat` starts the agent: is there a configuration it can use? A chat with a
// broken config.yaml would silently run on defaults, and one without a model can only say so;
// both are configuration errors (exit 2), reported with the file, the key and the fix.
import { describeConfigError } from "../config/config-error";
import { loadConfig } from "../config/load";
import { probeLocalServers } from "../config/probe-local";
import { resolveModel } from "../config/resolve-model";

/** Why chat cannot start (a message for stderr), or undefined when it can. */
export async function chatPreflight(): Promise<string | undefined> {
  const loaded = loadConfig();
  if (loaded.error) return describeConfigError(loaded);
  const model = resolveModel(loaded);
  if (model.ok) return undefined;
  // Nothing configured at all: a running Ollama or LM Studio is used, as `hermes acp` would.
  if (/^No model is configured/.test(model.reason) && (await probeLocalServers())) return undefined;
  return `hermes: ${model.reason}\n`;
}
