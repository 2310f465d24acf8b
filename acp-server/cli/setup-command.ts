// `hermes setup`: provider, key, model (from the provider's list when it has one) or a running
// Ollama / LM Studio, one real test call, then config.yaml and .env are written and named.
// Interactive on a terminal; `--provider ... --model ...` (with --api-key / --api-key-env /
// --base-url) for scripts. Nothing is written unless the key is accepted and the test call
// answers (--no-test skips the call; a key the endpoint rejects is never stored).
// Exit codes: 0 saved, 1 the key or the test call failed, 2 usage, 130 interrupted.
import type { Document } from "yaml";
import { yaml } from "../util/yaml";
import { editConfigFile } from "../config/config-edit";
import { removeEnvVariables, setEnvVariable } from "../config/env-file";
import { loadConfig, type LoadedConfig } from "../config/load";
import { endpointKey, isLegacyKeySource, legacyKeyVariable } from "../config/endpoint-key";
import { endpointKeyVariable, providerServes } from "../config/key-hosts";
import { probeEndpoint } from "../config/probe-endpoint";
import { probeLocalServers, type LocalServer } from "../config/probe-local";
import { PROVIDERS } from "../config/providers";
import { resolveEntry, type ResolvedModel } from "../config/resolve-model";
import { ModelEntrySchema, PROVIDER_IDS, type ProviderId } from "../config/schema";
import { API_KEY_METHODS } from "../config/sign-in-methods";
import { hermesHome } from "../config/paths";
import { configureLogging } from "../util/log";
import { checkModelCall } from "./doctor-checks";
import { Interrupted, terminalQuestions, type Questions } from "./terminal-questions";
import { counted } from "../util/plural";

export const SETUP_EXIT = { ok: 0, failed: 1, usage: 2, interrupted: 130 } as const;

export interface SetupOptions {
  provider?: string;
  model?: string;
  apiKey?: string;
  /** Read the key from this environment variable (keeps it out of the process list). */
  apiKeyEnv?: string;
  baseUrl?: string;
  /** Make the real test call (default). */
  test: boolean;
  /** Ask on the terminal for whatever the flags leave open. */
  interactive: boolean;
  /** Also print what was saved as one JSON object on stdout (never the key itself). */
  json?: boolean;
}

interface Choice {
  provider: ProviderId;
  name: string;
  baseUrl?: string;
  /** A key to store; undefined when none is needed or the existing one is kept. */
  newKey?: string;
  /** The key the test call uses (new or existing). */
  key?: string;
  /** An existing key found only where an older setup left it (legacy OPENAI_API_KEY): moved on save. */
  legacyKey?: string;
}

const out = (text: string) => process.stderr.write(text);

export async function runSetup(options: SetupOptions): Promise<number> {
  configureLogging({ home: hermesHome(), stderrLevel: "warn" });
  const loaded = loadConfig();
  if (loaded.error && !loaded.error.startsWith(`${loaded.configPath}: `)) {
    out(`hermes: ${loaded.error}\n`);
    return SETUP_EXIT.usage;
  }
  if (options.provider && !(PROVIDER_IDS as readonly string[]).includes(options.provider)) {
    out(`hermes: unknown provider "${options.provider}" (one of ${PROVIDER_IDS.join(", ")})\n`);
    return SETUP_EXIT.usage;
  }
  const questions = options.interactive ? terminalQuestions() : undefined;
  try {
    const choice = questions ? await interview(questions, loaded, options) : fromFlags(loaded, options);
    if (typeof choice === "string") {
      out(`hermes: ${choice}\n`);
      return SETUP_EXIT.usage;
    }
    const model = resolved(loaded, choice);
    if (typeof model === "string") {
      out(`hermes: ${model}\n`);
      return SETUP_EXIT.usage;
    }
    if (options.test) {
      out(`Testing ${model.id} with one short request...\n`);
      const result = await checkModelCall(loaded, model);
      if (result.status !== "ok") {
        out(`The test call failed: ${result.detail}\n${result.fix ? `${result.fix}\n` : ""}Nothing was saved.\n`);
        return SETUP_EXIT.failed;
      }
      out(`OK: ${result.detail}\n`);
    }
    return save(loaded, choice, options.json === true);
  } catch (error) {
    if (error instanceof Interrupted) {
      out("Setup stopped; nothing was saved.\n");
      return SETUP_EXIT.interrupted;
    }
    throw error;
  } finally {
    questions?.close();
  }
}

function fromFlags(loaded: LoadedConfig, options: SetupOptions): Choice | string {
  if (!options.provider) return "setup needs --provider (and --model) when not run in a terminal; see hermes --help";
  const provider = options.provider as ProviderId;
  const name = options.model ?? API_KEY_METHODS.find((m) => m.provider === provider)?.defaultModel;
  if (!name) return `--model is required for provider "${provider}"`;
  if (provider === "custom" && !options.baseUrl) return "--base-url is required for provider custom";
  let newKey = options.apiKey?.trim();
  if (options.apiKeyEnv) {
    newKey = process.env[options.apiKeyEnv]?.trim();
    if (!newKey) return `--api-key-env ${options.apiKeyEnv}: that variable is not set`;
  }
  const existing = existingKey(loaded, provider, options.baseUrl);
  const key = newKey ?? existing.key;
  if (PROVIDERS[provider].keyRequired && !key) return `provider "${provider}" needs a key: --api-key-env VAR (or --api-key KEY)`;
  return { provider, name, baseUrl: options.baseUrl, newKey, key, ...(newKey ? {} : { legacyKey: existing.legacyKey }) };
}

async function interview(questions: Questions, loaded: LoadedConfig, options: SetupOptions): Promise<Choice | string> {
  out("Hermes setup: pick a model provider, give its key, pick a model. Ctrl-C stops without saving.\n\n");
  const local = await probeLocalServers();
  const entries: { label: string; provider: ProviderId; server?: LocalServer }[] = [
    ...(local ? [{ label: `${local.provider === "ollama" ? "Ollama" : "LM Studio"} (running at ${local.baseUrl}, ${counted(local.models.length, "model")}, no key)`, provider: local.provider, server: local }] : []),
    ...API_KEY_METHODS.map((m) => ({ label: `${m.label}${existingKey(loaded, m.provider, options.baseUrl).key ? " (key found)" : ""}`, provider: m.provider })),
    { label: "Custom OpenAI-compatible endpoint (base URL)", provider: "custom" as ProviderId },
  ];
  let index = options.provider ? entries.findIndex((e) => e.provider === options.provider) : -1;
  if (index < 0) index = await questions.choose("Provider:", entries.map((e) => e.label), 0);
  const entry = entries[index];
  if (!entry) return "no such provider";
  const provider = entry.provider;

  let baseUrl = options.baseUrl ?? entry.server?.baseUrl;
  if (provider === "custom" && !baseUrl) {
    baseUrl = await questions.ask("Base URL (e.g. http://127.0.0.1:8080/v1)");
    if (!baseUrl) return "a custom endpoint needs a base URL";
  }
  const endpoint = baseUrl ?? PROVIDERS[provider].baseUrl!;
  const apiMode = provider === "anthropic" ? "anthropic_messages" : "chat_completions";

  // The key: asked until the endpoint does not reject it (listing models is free).
  const found = existingKey(loaded, provider, baseUrl);
  const existing = found.key;
  let newKey = options.apiKey;
  let listed: string[] | undefined = entry.server?.models;
  for (let attempt = 0; ; attempt++) {
    if (PROVIDERS[provider].keyRequired && !newKey) {
      const variable = keyVariable(provider, baseUrl);
      newKey = (await questions.askHidden(existing ? `API key (input hidden; Enter keeps the key in ${variable})` : `API key for ${variable} (input hidden)`)) || undefined;
      if (!newKey && !existing) {
        out("A key is needed for this provider.\n");
        continue;
      }
    }
    const key = newKey ?? existing;
    if (listed) break;
    out(`Checking ${endpoint}...\n`);
    const probe = await probeEndpoint({ baseUrl: endpoint, apiKey: key, apiMode });
    if (probe.ok) {
      listed = probe.models;
      break;
    }
    if (probe.keyRejected && attempt < 2) {
      out(`The endpoint rejected that key (HTTP ${probe.status}). Try again.\n`);
      newKey = undefined;
      continue;
    }
    if (probe.keyRejected) return `the endpoint rejected the key (HTTP ${probe.status}); nothing was saved`;
    out(`Could not list models: ${probe.detail}\n`);
    break;
  }

  const fallback = options.model ?? API_KEY_METHODS.find((m) => m.provider === provider)?.defaultModel ?? listed?.[0];
  let name: string;
  if (options.model) name = options.model;
  else if (listed && listed.length > 0) {
    const shown = orderModels(listed, fallback).slice(0, 30);
    const picked = await questions.choose(`Model (${listed.length} listed${listed.length > shown.length ? `, first ${shown.length} shown` : ""}):`, [...shown, "another (type its name)"], 0);
    name = shown[picked] ?? (await questions.ask("Model name", fallback)); // past the list: "another"
  } else name = await questions.ask("Model name", fallback);
  if (!name) return "a model name is needed";
  return { provider, name, baseUrl, newKey, key: newKey ?? existing, ...(newKey ? {} : { legacyKey: found.legacyKey }) };
}

/** The default (or the provider's usual model) first, then the rest in the endpoint's order. */
function orderModels(models: string[], preferred: string | undefined): string[] {
  return preferred && models.includes(preferred) ? [preferred, ...models.filter((m) => m !== preferred)] : models;
}

/**
 * The key this endpoint already has, read by the rule the agent uses (endpoint-key.ts): a
 * provider's variable only at its own host. A key that only an older setup's OPENAI_API_KEY line
 * holds is returned as legacyKey too, so that saving moves it to the endpoint's own variable.
 */
function existingKey(loaded: LoadedConfig, provider: ProviderId, baseUrl: string | undefined): { key?: string; legacyKey?: string } {
  const endpoint = baseUrl ?? PROVIDERS[provider].baseUrl;
  if (!endpoint) return {};
  const found = endpointKey({}, provider, endpoint, loaded, { where: "model" });
  const legacy = isLegacyKeySource(found.apiKeySource);
  return { key: found.apiKey, ...(legacy ? { legacyKey: found.apiKey } : {}) };
}

/**
 * Where setup stores the key: the provider's variable for the provider's own API, the endpoint's
 * own variable (HERMES_<HOST>_<PORT>_API_KEY) for anything else, so that the provider's key is
 * never read for it and it never goes to the provider.
 */
function keyVariable(provider: ProviderId, baseUrl: string | undefined): string | undefined {
  const endpoint = baseUrl ?? PROVIDERS[provider].baseUrl;
  if (!endpoint) return undefined;
  return providerServes(provider, endpoint) ? PROVIDERS[provider].keyEnv[0] : endpointKeyVariable(endpoint);
}

function resolved(loaded: LoadedConfig, choice: Choice): ResolvedModel | string {
  const entry = ModelEntrySchema.parse({ provider: choice.provider, name: choice.name, ...(choice.baseUrl ? { base_url: choice.baseUrl } : {}), ...(choice.key ? { api_key: choice.key } : {}) });
  const result = resolveEntry(entry, loaded, { where: "model" });
  return result.ok ? result.model : result.reason;
}

function save(loaded: LoadedConfig, choice: Choice, json: boolean): number {
  let envFile: string | undefined;
  const keyName = keyVariable(choice.provider, choice.baseUrl);
  const toStore = choice.newKey ?? choice.legacyKey;
  if (toStore) {
    try {
      if (!keyName) throw new Error(`${choice.provider} at ${choice.baseUrl ?? "its default URL"} has no place for an API key`);
      envFile = setEnvVariable(loaded.home, keyName, toStore);
      // Moved, not copied: left under the provider's name, this endpoint's key would go to that
      // provider the day the user switches to it.
      const legacyName = choice.legacyKey ? legacyKeyVariable(choice.provider) : undefined;
      if (legacyName && legacyName !== keyName && loaded.dotenv?.[legacyName]?.trim() === choice.legacyKey) removeEnvVariables(loaded.home, [legacyName]);
    } catch (error) {
      out(`hermes: ${(error as Error).message}\n`);
      return SETUP_EXIT.usage;
    }
  }
  const ownVariable = keyName && toStore && !providerServes(choice.provider, choice.baseUrl ?? PROVIDERS[choice.provider].baseUrl ?? "") ? keyName : undefined;
  const problem = editConfigFile(loaded.configPath, (document) => setModel(document, choice, ownVariable));
  if (problem) {
    out(`hermes: the model could not be saved: ${problem}\n${envFile ? `(The key was stored in ${envFile}.)\n` : ""}`);
    return SETUP_EXIT.failed;
  }
  out(`Saved the model ${choice.provider}/${choice.name} in ${loaded.configPath}`);
  out(envFile ? ` and the key in ${envFile} (mode 600, as ${keyName}${choice.legacyKey && !choice.newKey ? ", moved from OPENAI_API_KEY where an older setup kept it" : ""}).\n` : ".\n");
  out("Next: `hermes chat` here, or add Hermes to your editor (hermes acp).\n");
  if (json) {
    const saved = { ok: true, provider: choice.provider, model: choice.name, config_path: loaded.configPath, ...(envFile ? { key_file: envFile, key_variable: keyName } : {}) };
    process.stdout.write(`${JSON.stringify(saved)}\n`);
  }
  return SETUP_EXIT.ok;
}

/**
 * model.provider / name / base_url as chosen; a stale model.api_key would win over the new key, so
 * it goes. api_key_env names the endpoint's own variable when the key is stored there, and goes
 * otherwise (an old one would point a provider's own API at another endpoint's key).
 */
function setModel(document: Document, choice: Choice, ownVariable: string | undefined): string | undefined {
  const model = document.get("model");
  if (model !== undefined && model !== null && !yaml().isMap(model)) return "model is not a mapping";
  document.setIn(["model", "provider"], choice.provider);
  document.setIn(["model", "name"], choice.name);
  if (choice.baseUrl) document.setIn(["model", "base_url"], choice.baseUrl);
  else document.deleteIn(["model", "base_url"]);
  if (choice.newKey) document.deleteIn(["model", "api_key"]);
  if (ownVariable) document.setIn(["model", "api_key_env"], ownVariable);
  else document.deleteIn(["model", "api_key_env"]);
  return undefined;
}
