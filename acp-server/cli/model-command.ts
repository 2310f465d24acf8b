// `hermes model [list|set NAME]`: the main model, the choices (config and the endpoint's list),
// and switching model.name (or provider/name for a known provider) in config.yaml.
import path from "node:path";
import { setConfigValue } from "../config/config-edit";
import { describeConfigError } from "../config/config-error";
import { loadConfig } from "../config/load";
import { discoverModels } from "../config/model-discovery";
import { resolveModel, resolveModelSet } from "../config/resolve-model";
import { PROVIDER_IDS, type ProviderId } from "../config/schema";
import { checkFlags, parseArgs, printJson, runCommand, UsageError, withProgress } from "./cli-output";
import { printText } from "./terminal-safe";

export async function runModel(args: string[]): Promise<number> {
  return runCommand("model", async () => {
    const parsed = parseArgs(args);
    checkFlags(parsed, ["json", "offline"]);
    const json = parsed.flags.has("json");
    const [verb, name] = parsed.words;
    const loaded = loadConfig();
    // A broken config.yaml is named, not taken for "no model": the model it names is not in use.
    if (loaded.error) {
      process.stderr.write(describeConfigError(loaded));
      return 2;
    }
    const main = resolveModel(loaded);
    if (verb === undefined || verb === "list") {
      if (!main.ok) {
        if (json) printJson({ model: null, reason: main.reason });
        else process.stderr.write(`${main.reason}\n\nRun \`hermes setup\` to choose one.\n`);
        return 1;
      }
      const set = resolveModelSet(loaded, main.model);
      const configured = set.choices.map((m) => m.id);
      let listed: string[] = [];
      if (verb === "list" && !parsed.flags.has("offline") && main.model.apiMode !== "anthropic_messages") {
        listed = await withProgress(`Asking ${main.model.baseUrl} for its models`, () =>
          discoverModels({ baseUrl: main.model.baseUrl, apiKey: main.model.apiKey }, path.join(loaded.home, "cache")),
        ).catch(() => []); // expected: the endpoint cannot list its models (offline, no /models): only the configured ones are shown
      }
      if (json) printJson({ model: main.model.id, fallbacks: set.fallbacks.map((m) => m.id), configured, listed });
      else {
        process.stdout.write(`${main.model.id}  (${main.model.baseUrl})\n`);
        if (verb === "list") {
          for (const id of configured.slice(1)) process.stdout.write(`  ${id}  (config)\n`);
          // Names the endpoint listed: its words, no control codes on a terminal.
          for (const id of listed) printText(`  ${main.model.provider}/${id}\n`);
        }
      }
      return 0;
    }
    if (verb === "set") {
      if (!name) throw new UsageError("set needs a model name, e.g. hermes model set gpt-4.1 (or openai/gpt-4.1)");
      const slash = name.indexOf("/");
      const provider = slash > 0 && (PROVIDER_IDS as readonly string[]).includes(name.slice(0, slash)) ? (name.slice(0, slash) as ProviderId) : undefined;
      const model = provider ? name.slice(slash + 1) : name;
      const failed = (provider ? setConfigValue(loaded.configPath, ["model", "provider"], provider) : undefined) ?? setConfigValue(loaded.configPath, ["model", "name"], model);
      if (failed) {
        process.stderr.write(`hermes model: not saved: ${failed}\n`);
        return 1;
      }
      if (json) printJson({ provider: provider ?? loaded.config.model.provider ?? null, name: model, config: loaded.configPath });
      else process.stderr.write(`Model set to ${provider ? `${provider}/` : ""}${model} in ${loaded.configPath}. New sessions use it.\n`);
      return 0;
    }
    throw new UsageError(`unknown model command "${verb}" (list, set)`);
  });
}
