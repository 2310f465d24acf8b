// The shape of $HERMES_HOME/config.yaml. Zod is the single source of truth: the type
// below is inferred from it, and validation errors name the offending key.
import { z } from "zod";

export const PROVIDER_IDS = ["openai", "anthropic", "openrouter", "ollama", "lmstudio", "custom"] as const;
export const API_MODES = ["auto", "chat_completions", "anthropic_messages", "codex_responses"] as const;

export const ModelConfigSchema = z
  .object({
    provider: z.enum(PROVIDER_IDS).optional(),
    name: z.string().min(1).optional(),
    base_url: z.url().optional(),
    api_key: z.string().min(1).optional(),
    api_mode: z.enum(API_MODES).default("auto"),
    max_tokens: z.number().int().positive().optional(),
    temperature: z.number().min(0).max(2).optional(),
    /** Seconds before a model request with no response is abandoned. */
    timeout: z.number().positive().default(600),
  })
  .strict();

export const AgentConfigSchema = z
  .object({
    max_turns: z.number().int().positive().max(10_000).default(90),
    /** The mode new sessions start in. */
    default_mode: z.enum(["default", "accept_edits", "dont_ask"]).default("default"),
  })
  .strict();

export const LoggingConfigSchema = z
  .object({
    level: z.enum(["debug", "info", "warn", "error"]).default("info"),
  })
  .strict();

export const ConfigSchema = z
  .object({
    model: ModelConfigSchema.default(ModelConfigSchema.parse({})),
    agent: AgentConfigSchema.default(AgentConfigSchema.parse({})),
    logging: LoggingConfigSchema.default(LoggingConfigSchema.parse({})),
  })
  // Unknown top-level sections are tolerated: later versions (memory, skills, mcp_servers...)
  // add them, and an older binary must still start on a newer config.
  .loose();

export type HermesConfig = z.infer<typeof ConfigSchema>;
export type ModelConfig = z.infer<typeof ModelConfigSchema>;
export type ApiMode = (typeof API_MODES)[number];
export type ProviderId = (typeof PROVIDER_IDS)[number];
