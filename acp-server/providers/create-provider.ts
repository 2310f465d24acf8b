// Builds the provider for a resolved model. Provider SDKs load lazily inside each
// provider, so nothing heavy is imported before the first prompt.
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
    timeoutMs: model.timeoutMs,
  });
}
