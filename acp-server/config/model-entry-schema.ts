// One model entry of config.yaml (the main model, a fallback, a picker entry, the auxiliary
// model), apart from the rest of the schema (schema.ts): resolving models needs only this, and a
// start whose config comes from the cache (config-cache.ts) never builds the rest. Built on first
// use (z.lazy), like the rest: such a start resolves the configured models without parsing any.
import * as z from "zod";

export const PROVIDER_IDS = ["openai", "anthropic", "openrouter", "deepseek", "gemini", "ollama", "lmstudio", "custom"] as const;
export const API_MODES = ["auto", "chat_completions", "anthropic_messages", "codex_responses"] as const;

/** USD per million tokens. */
export const PriceSchema = z.lazy(() =>
  z
    .object({
      input: z.number().nonnegative(),
      output: z.number().nonnegative(),
      cache_read: z.number().nonnegative().optional(),
      cache_write: z.number().nonnegative().optional(),
    })
    .strict(),
);

/** One model: the main one, a fallback, a picker entry or the auxiliary model. */
export const ModelEntrySchema = z.lazy(() =>
  z
    .object({
      provider: z.enum(PROVIDER_IDS).optional(),
      name: z.string().min(1).optional(),
      base_url: z.url().optional(),
      api_key: z.string().min(1).optional(),
      /** The variable (environment or $HERMES_HOME/.env) holding this endpoint's key; `hermes setup` writes it for an endpoint that is not a provider's own. */
      api_key_env: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be a variable name").optional(),
      api_mode: z.enum(API_MODES).default("auto"),
      max_tokens: z.number().int().positive().optional(),
      temperature: z.number().min(0).max(2).optional(),
      /** Seconds to wait for a model response to start. */
      timeout: z.number().positive().default(600),
      /** Seconds a streaming response may go silent before it is abandoned and retried. */
      stream_idle_timeout: z.number().positive().default(120),
      /** Retries of one model call (429, 5xx, network, stalls) before falling back. */
      max_retries: z.number().int().min(0).max(10).default(3),
      /** Overrides of the built-in model table. */
      context_length: z.number().int().positive().optional(),
      max_output_tokens: z.number().int().positive().optional(),
      price: PriceSchema.optional(),
      /** Anthropic extended thinking budget in tokens (off when unset). */
      thinking_budget: z.number().int().min(1024).optional(),
      /** Reasoning effort for the Responses API. */
      reasoning_effort: z.enum(["minimal", "low", "medium", "high"]).optional(),
      /** Prompt cache lifetime (Anthropic, and Claude models on OpenRouter). */
      cache_ttl: z.enum(["5m", "1h"]).default("5m"),
      /** Whether the model accepts images; unset: the built-in rule (config/model-vision.ts), unknown models none. */
      vision: z.boolean().optional(),
    })
    .strict(),
);
