// Before `hermes chat` starts the agent: is there a configuration it can use? A chat with a
// broken config.yaml would silently run on defaults, and one without a model can only say so;
// both are configuration errors (exit 2), reported with the file, the key and the fix.
import { loadConfig, type LoadedConfig } from "../config/load";
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

function describeConfigError(loaded: LoadedConfig): string {
  const lines = (loaded.error ?? "").split("\n");
  const prefix = `${loaded.configPath}: `;
  const keys = new Set<string>();
  let yamlSyntax = false;
  for (const line of lines) {
    if (!line.startsWith(prefix)) continue;
    const rest = line.slice(prefix.length);
    if (rest.startsWith("invalid YAML")) yamlSyntax = true;
    else if (!rest.startsWith("cannot be read")) keys.add(rest.split(": ")[0]);
  }
  const fix = yamlSyntax
    ? `Fix the YAML syntax in ${loaded.configPath} at the line shown above`
    : keys.size > 0
      ? `Fix ${[...keys].join(", ")} in ${loaded.configPath} as described above`
      : "Fix the file named above";
  return (
    `hermes: the configuration cannot be used:\n${loaded.error}\n\n` +
    `${fix}, then run \`hermes acp --check\` to confirm. (Hermes ignores the whole file until it is valid.)\n`
  );
}
