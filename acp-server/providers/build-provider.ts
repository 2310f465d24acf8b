// The provider implementation for a resolved model's API (create-provider.ts imports this on the
// first call or warm-up). Provider SDKs load lazily inside each provider in turn.
import type { ResolvedModel } from "../config/resolve-model";
import { AnthropicMessagesProvider } from "./anthropic-messages";
import { ChatCompletionsProvider } from "./chat-completions";
import { CodexResponsesProvider } from "./codex-responses";
import type { ModelProvider } from "./types";

export function buildProvider(model: ResolvedModel): ModelProvider {
  const common = {
    provider: model.provider,
    model: model.name,
    baseURL: model.baseUrl,
    apiKey: model.apiKey,
    apiKeyEnv: model.apiKeyEnv,
    apiKeyHint: model.apiKeyHint,
    timeoutMs: model.timeoutMs,
    idleTimeoutMs: model.idleTimeoutMs,
  };
  switch (model.apiMode) {
    case "anthropic_messages":
      return new AnthropicMessagesProvider({
        ...common,
        maxTokens: model.maxTokens ?? model.maxOutputTokens,
        ...(model.thinkingBudget ? { thinking: { budgetTokens: model.thinkingBudget } } : {}),
        cache: { ttl: model.cacheTtl },
      });
    case "codex_responses":
      return new CodexResponsesProvider({
        ...common,
        maxOutputTokens: model.maxTokens ?? model.maxOutputTokens,
        ...(model.reasoningEffort ? { reasoningEffort: model.reasoningEffort } : {}),
      });
    case "chat_completions":
      return new ChatCompletionsProvider({
        ...common,
        // Claude behind OpenRouter caches only where the request marks breakpoints.
        ...(isClaudeOnOpenRouter(model) ? { promptCache: { ttl: model.cacheTtl } } : {}),
      });
  }
}

function isClaudeOnOpenRouter(model: ResolvedModel): boolean {
  const viaOpenRouter = model.provider === "openrouter" || /openrouter\.ai/i.test(model.baseUrl);
  return viaOpenRouter && /(^|\/)(anthropic\/)?claude/i.test(model.name);
}
