// Builds the provider for a resolved model. Provider SDKs load lazily inside each
// provider, so nothing heavy is imported before the first prompt.
import { PROVIDERS } from "../config/providers";
import type { ResolvedModel } from "../config/resolve-model";
import { ChatCompletionsProvider } from "./chat-completions";
import type { ModelProvider } from "./types";

export function createProvider(model: ResolvedModel): ModelProvider {
  // Only Chat Completions exists so far; resolveModel refuses the other modes.
  return new ChatCompletionsProvider({
    provider: model.provider,
    model: model.name,
    baseURL: model.baseUrl,
    apiKey: model.apiKey,
    // Named in "check the API key" hints; a key from config.yaml is reported by path instead.
    apiKeyEnv: model.apiKeySource && /^[A-Z0-9_]+$/.test(model.apiKeySource) ? model.apiKeySource : PROVIDERS[model.provider].keyEnv[0],
    timeoutMs: model.timeoutMs,
  });
}
