// Known providers: default endpoint and where their key usually lives.
import type { ProviderId } from "./schema";

export interface ProviderInfo {
  baseUrl?: string;
  /** Environment variables checked for the API key, in order. */
  keyEnv: string[];
  /** Local servers need no key. */
  keyRequired: boolean;
}

export const PROVIDERS: Record<ProviderId, ProviderInfo> = {
  openai: { baseUrl: "https://api.openai.com/v1", keyEnv: ["OPENAI_API_KEY"], keyRequired: true },
  anthropic: { baseUrl: "https://api.anthropic.com/v1", keyEnv: ["ANTHROPIC_API_KEY"], keyRequired: true },
  openrouter: { baseUrl: "https://openrouter.ai/api/v1", keyEnv: ["OPENROUTER_API_KEY"], keyRequired: true },
  deepseek: { baseUrl: "https://api.deepseek.com/v1", keyEnv: ["DEEPSEEK_API_KEY"], keyRequired: true },
  // Gemini's OpenAI-compatible endpoint.
  gemini: { baseUrl: "https://generativelanguage.googleapis.com/v1beta/openai", keyEnv: ["GEMINI_API_KEY", "GOOGLE_API_KEY"], keyRequired: true },
  ollama: { baseUrl: "http://127.0.0.1:11434/v1", keyEnv: ["OLLAMA_API_KEY"], keyRequired: false },
  lmstudio: { baseUrl: "http://127.0.0.1:1234/v1", keyEnv: ["LMSTUDIO_API_KEY"], keyRequired: false },
  // No provider variable: a custom endpoint's key is its own (key-hosts.ts), never OPENAI_API_KEY.
  custom: { keyEnv: [], keyRequired: false },
};
