// Turns config + environment into the one model the agent will call, or a reason
// (meant for the user's eyes) why there is none.
import type { LoadedConfig } from "./load";
import { PROVIDERS } from "./providers";
import { PROVIDER_IDS, type ApiMode, type ProviderId } from "./schema";

export interface ResolvedModel {
  provider: ProviderId;
  name: string;
  baseUrl: string;
  apiKey?: string;
  /** Where the key came from, for --check (never the key itself). */
  apiKeySource?: string;
  apiMode: Exclude<ApiMode, "auto">;
  maxTokens?: number;
  temperature?: number;
  timeoutMs: number;
}

export type ModelResolution = { ok: true; model: ResolvedModel } | { ok: false; reason: string };

export const CONFIGURE_HINT = [
  "Configure a model in $HERMES_HOME/config.yaml (default ~/.hermes/config.yaml), for example:",
  "",
  "model:",
  "  provider: openai          # openai | anthropic | openrouter | ollama | lmstudio | custom",
  "  name: gpt-4.1",
  "  # base_url: http://127.0.0.1:8080/v1   (for custom / local servers)",
  "",
  "and put the key in $HERMES_HOME/.env (OPENAI_API_KEY=...), or set HERMES_PROVIDER, HERMES_MODEL,",
  "HERMES_BASE_URL and HERMES_API_KEY in the environment. `hermes acp --check` shows what is resolved.",
].join("\n");

export function resolveModel(loaded: LoadedConfig): ModelResolution {
  const { config, env } = loaded;
  const model = config.model;

  const providerText = env.HERMES_PROVIDER?.trim() || model.provider;
  const baseUrlOverride = env.HERMES_BASE_URL?.trim() || model.base_url;
  if (providerText && !(PROVIDER_IDS as readonly string[]).includes(providerText)) {
    return fail(`HERMES_PROVIDER: unknown provider "${providerText}" (expected one of ${PROVIDER_IDS.join(", ")})`);
  }
  const provider = (providerText || (baseUrlOverride ? "custom" : undefined)) as ProviderId | undefined;
  const name = env.HERMES_MODEL?.trim() || model.name;

  if (!provider && !name) return fail(`No model is configured.\n\n${CONFIGURE_HINT}`);
  if (!provider) return fail(`model.provider is not set (model.name is "${name}").\n\n${CONFIGURE_HINT}`);
  if (!name) return fail(`model.name is not set for provider "${provider}".\n\n${CONFIGURE_HINT}`);

  const info = PROVIDERS[provider];
  const baseUrl = baseUrlOverride || info.baseUrl;
  if (!baseUrl) return fail(`model.base_url is required for provider "custom" (e.g. http://127.0.0.1:8080/v1).`);

  let apiKey: string | undefined;
  let apiKeySource: string | undefined;
  if (env.HERMES_API_KEY?.trim()) {
    apiKey = env.HERMES_API_KEY.trim();
    apiKeySource = "HERMES_API_KEY";
  } else if (model.api_key) {
    apiKey = model.api_key;
    apiKeySource = `${loaded.configPath} (model.api_key)`;
  } else {
    for (const variable of info.keyEnv) {
      const value = env[variable]?.trim();
      if (value) {
        apiKey = value;
        apiKeySource = variable;
        break;
      }
    }
  }
  if (info.keyRequired && !apiKey) {
    return fail(
      `No API key for provider "${provider}". Set ${info.keyEnv[0]} (in the environment or $HERMES_HOME/.env), ` +
        `HERMES_API_KEY, or model.api_key in ${loaded.configPath}.`,
    );
  }

  // Only Chat Completions ships in this version; the Anthropic Messages and Responses
  // modes come next. Every provider above also serves an OpenAI-compatible endpoint.
  const apiMode = model.api_mode === "auto" ? "chat_completions" : model.api_mode;
  if (apiMode !== "chat_completions") {
    return fail(`${loaded.configPath}: model.api_mode: "${apiMode}" is not available in this version; use "chat_completions" or "auto".`);
  }

  return {
    ok: true,
    model: {
      provider,
      name,
      baseUrl,
      apiKey,
      apiKeySource,
      apiMode,
      maxTokens: model.max_tokens,
      temperature: model.temperature,
      timeoutMs: model.timeout * 1000,
    },
  };
}

function fail(reason: string): ModelResolution {
  return { ok: false, reason };
}
