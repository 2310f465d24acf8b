// `api_mode: auto`: which wire format a model is spoken to in.
import type { ApiMode, ProviderId } from "./schema";

export function detectApiMode(provider: ProviderId, baseUrl: string, model: string, responsesPatterns: string[]): Exclude<ApiMode, "auto"> {
  const host = hostOf(baseUrl);
  if (provider === "anthropic" || host === "api.anthropic.com") return "anthropic_messages";
  const onOpenAI = provider === "openai" || host === "api.openai.com";
  if (onOpenAI && responsesPatterns.some((pattern) => globMatch(pattern, model))) return "codex_responses";
  return "chat_completions";
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    // expected: a malformed URL has no host, and so matches no known provider
    return "";
  }
}

/** Case-insensitive match with `*` as "any characters". */
export function globMatch(pattern: string, text: string): boolean {
  const source = pattern
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${source}$`, "i").test(text);
}
