// Turns config + environment into the models the agent can call (main, fallbacks, picker
// choices, auxiliary), or a reason (meant for the user's eyes) why there is none.
import { detectApiMode } from "./detect-api-mode";
import { endpointKey } from "./endpoint-key";
import { apiKeyPlaces } from "./key-places";
import type { LoadedConfig } from "./load";
import { lookupModel } from "./model-metadata";
import { modelSeesImages } from "./model-vision";
import { PROVIDERS } from "./providers";
import { ModelEntrySchema, PROVIDER_IDS } from "./model-entry-schema";
import type { ApiMode, ModelEntry, Price, ProviderId } from "./schema";

export interface ResolvedModel {
  /** Stable id for the model picker: "<provider>/<name>". */
  id: string;
  provider: ProviderId;
  name: string;
  baseUrl: string;
  apiKey?: string;
  /** Where the key came from, for --check (never the key itself). */
  apiKeySource?: string;
  /** Environment variable named in "check the API key" hints. */
  apiKeyEnv?: string;
  /** Every place a key may come from and which one is in use, for 401/403 hints. */
  apiKeyHint: string;
  apiMode: Exclude<ApiMode, "auto">;
  maxTokens?: number;
  temperature?: number;
  timeoutMs: number;
  idleTimeoutMs: number;
  maxRetries: number;
  contextWindow: number;
  maxOutputTokens: number;
  price?: Price;
  thinkingBudget?: number;
  reasoningEffort?: "minimal" | "low" | "medium" | "high";
  cacheTtl: "5m" | "1h";
  /** Whether the model accepts images (config's `vision`, else the built-in rule). */
  vision: boolean;
}

export type ModelResolution = { ok: true; model: ResolvedModel } | { ok: false; reason: string };

export const CONFIGURE_HINT = [
  "Configure a model in $HERMES_HOME/config.yaml (default ~/.hermes/config.yaml), for example:",
  "",
  "model:",
  "  provider: openai          # openai | anthropic | openrouter | deepseek | gemini | ollama | lmstudio | custom",
  "  name: gpt-4.1",
  "  # base_url: http://127.0.0.1:8080/v1   (for custom / local servers)",
  "",
  "and put the key in $HERMES_HOME/.env (OPENAI_API_KEY=...), or set HERMES_PROVIDER, HERMES_MODEL,",
  "HERMES_BASE_URL and HERMES_API_KEY in the environment. `hermes acp --check` shows what is resolved.",
].join("\n");

/** The main model: config.yaml's `model`, with the HERMES_* environment overrides on top. */
export function resolveModel(loaded: LoadedConfig): ModelResolution {
  const { env } = loaded;
  const model = loaded.config.model;
  const providerText = env.HERMES_PROVIDER?.trim();
  if (providerText && !(PROVIDER_IDS as readonly string[]).includes(providerText)) {
    return fail(`HERMES_PROVIDER: unknown provider "${providerText}" (expected one of ${PROVIDER_IDS.join(", ")})`);
  }
  const entry: ModelEntry = {
    ...model,
    ...(providerText ? { provider: providerText as ProviderId } : {}),
    ...(env.HERMES_MODEL?.trim() ? { name: env.HERMES_MODEL.trim() } : {}),
    ...(env.HERMES_BASE_URL?.trim() ? { base_url: env.HERMES_BASE_URL.trim() } : {}),
    ...(env.HERMES_API_KEY?.trim() ? { api_key: env.HERMES_API_KEY.trim() } : {}),
  };
  const keySource = env.HERMES_API_KEY?.trim() ? "HERMES_API_KEY" : `${loaded.configPath} (model.api_key)`;
  if (!entry.provider && !entry.name && !entry.base_url) return fail(`No model is configured.\n\n${CONFIGURE_HINT}`);
  return resolveEntry(entry, loaded, { keySource, where: "model" });
}

/**
 * Any model entry. Without its own provider, an entry inherits the main model's provider,
 * endpoint and key (so `fallback_models: [{name: gpt-4.1-mini}]` just works).
 */
export function resolveEntry(
  entry: ModelEntry,
  loaded: LoadedConfig,
  options: { inheritFrom?: ResolvedModel; keySource?: string; where: string },
): ModelResolution {
  const parent = entry.provider ? undefined : options.inheritFrom;
  const provider = entry.provider ?? parent?.provider ?? (entry.base_url ? "custom" : undefined);
  const name = entry.name;
  if (!provider) return fail(`${options.where}.provider is not set (model.name is "${name}").\n\n${CONFIGURE_HINT}`);
  if (!name) return fail(`${options.where}.name is not set for provider "${provider}".\n\n${CONFIGURE_HINT}`);

  const info = PROVIDERS[provider];
  const baseUrl = entry.base_url ?? parent?.baseUrl ?? info.baseUrl;
  if (!baseUrl) return fail(`${options.where}.base_url is required for provider "custom" (e.g. http://127.0.0.1:8080/v1).`);

  const key = endpointKey(entry, provider, baseUrl, loaded, { parent, keySource: options.keySource, where: options.where });
  if (key.refused) return fail(key.refused);
  const { apiKey, apiKeySource } = key;
  if (info.keyRequired && !apiKey) {
    return fail(
      `No API key for provider "${provider}" (${options.where}) at ${baseUrl}. Set ${key.hintVariable ?? "HERMES_API_KEY"} (in the environment or $HERMES_HOME/.env), ` +
        `HERMES_API_KEY, or ${options.where}.api_key in ${loaded.configPath}.`,
    );
  }

  const apiMode = entry.api_mode === "auto" ? detectApiMode(provider, baseUrl, name, loaded.config.responses_models) : entry.api_mode;
  const known = lookupModel(name);
  const price = entry.price ?? known.price;
  return {
    ok: true,
    model: {
      id: `${provider}/${name}`,
      provider,
      name,
      baseUrl,
      apiKey,
      apiKeySource,
      apiKeyEnv: apiKeySource && /^[A-Z0-9_]+$/.test(apiKeySource) ? apiKeySource : key.hintVariable,
      apiKeyHint: apiKeyPlaces({ variables: key.variables, configPath: loaded.configPath, home: loaded.home, inUse: apiKeySource }),
      apiMode,
      maxTokens: entry.max_tokens,
      temperature: entry.temperature,
      timeoutMs: entry.timeout * 1000,
      idleTimeoutMs: entry.stream_idle_timeout * 1000,
      maxRetries: entry.max_retries,
      contextWindow: entry.context_length ?? known.contextWindow,
      maxOutputTokens: entry.max_output_tokens ?? known.maxOutputTokens,
      ...(price ? { price } : {}),
      ...(entry.thinking_budget ? { thinkingBudget: entry.thinking_budget } : {}),
      ...(entry.reasoning_effort ? { reasoningEffort: entry.reasoning_effort } : {}),
      cacheTtl: entry.cache_ttl,
      vision: entry.vision ?? modelSeesImages(name),
    },
  };
}

export interface ModelSet {
  main: ResolvedModel;
  /** In the order to try them. */
  fallbacks: ResolvedModel[];
  /** Everything the picker offers (main, fallbacks, `models:`), without duplicates. */
  choices: ResolvedModel[];
  auxiliary: ResolvedModel;
  /** The model that looks at images: `auxiliary_vision`, else the auxiliary or the main model if it sees; none otherwise. */
  vision?: ResolvedModel;
  /** Entries that could not be used, for the log and --check. */
  problems: string[];
}

export function resolveModelSet(loaded: LoadedConfig, main: ResolvedModel): ModelSet {
  const problems: string[] = [];
  const resolveAll = (entries: ModelEntry[], where: string) =>
    entries.flatMap((entry, index) => {
      const resolved = resolveEntry(entry, loaded, { inheritFrom: main, where: `${where}[${index}]` });
      if (resolved.ok) return [resolved.model];
      problems.push(resolved.reason.split("\n")[0] ?? resolved.reason);
      return [];
    });
  const fallbacks = resolveAll(loaded.config.fallback_models, "fallback_models");
  const extra = resolveAll(
    loaded.config.models.map((entry) => (typeof entry === "string" ? ModelEntrySchema.parse({ name: entry }) : entry)),
    "models",
  );
  const choices = dedupe([main, ...fallbacks, ...extra]);
  const auxiliaryEntry = loaded.config.auxiliary;
  let auxiliary = main;
  if (auxiliaryEntry) {
    const resolved = resolveEntry(auxiliaryEntry, loaded, { inheritFrom: main, where: "auxiliary" });
    if (resolved.ok) auxiliary = resolved.model;
    else problems.push(resolved.reason.split("\n")[0] ?? resolved.reason);
  }
  let vision = [auxiliary, main].find((model) => model.vision);
  const visionEntry = loaded.config.auxiliary_vision;
  if (visionEntry) {
    const resolved = resolveEntry(visionEntry, loaded, { inheritFrom: main, where: "auxiliary_vision" });
    if (resolved.ok) vision = resolved.model;
    else problems.push(resolved.reason.split("\n")[0] ?? resolved.reason);
  }
  return { main, fallbacks, choices, auxiliary, ...(vision ? { vision } : {}), problems };
}

function dedupe(models: ResolvedModel[]): ResolvedModel[] {
  const seen = new Set<string>();
  return models.filter((model) => !seen.has(model.id) && seen.add(model.id));
}

function fail(reason: string): ModelResolution {
  return { ok: false, reason };
}

/**
 * Whether a model is configured to think in a way its API sends: Anthropic Messages' thinking
 * budget, the Responses API's reasoning effort (build-provider.ts passes only these).
 */
export function thinks(model: ResolvedModel): boolean {
  if (model.apiMode === "anthropic_messages") return model.thinkingBudget !== undefined;
  if (model.apiMode === "codex_responses") return model.reasoningEffort !== undefined;
  return false;
}
