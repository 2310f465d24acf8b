// The ways a client can sign Hermes in, as advertised in `initialize`'s authMethods. Static
// data, free of the SDK and of any file access, so the early handshake can send it at once.
//
// API-key methods are ACP's default ("agent") type: the client calls `authenticate` with the
// method id and Hermes stores the key. The key comes from `_meta["hermes/apiKey"]`, or from the
// agent's environment: the provider's own variable or the one acpx sets for a configured
// credential (ACPX_AUTH_<ID>); the provider's variable only for the provider's own API (key-hosts.ts). The ids are chosen so that acpx's environment lookup for
// "openai-api-key" is OPENAI_API_KEY, the variable the user already has.
import { PROVIDERS } from "./providers";
import type { ProviderId } from "./schema";

export interface ApiKeyMethod {
  id: string;
  provider: ProviderId;
  label: string;
  /** The model configured when config.yaml names none (also the setup wizard's default). */
  defaultModel: string;
}

export const API_KEY_METHODS: ApiKeyMethod[] = [
  { id: "openai-api-key", provider: "openai", label: "OpenAI", defaultModel: "gpt-4.1" },
  { id: "anthropic-api-key", provider: "anthropic", label: "Anthropic", defaultModel: "claude-sonnet-4-5" },
  { id: "openrouter-api-key", provider: "openrouter", label: "OpenRouter", defaultModel: "anthropic/claude-sonnet-4.5" },
  { id: "deepseek-api-key", provider: "deepseek", label: "DeepSeek", defaultModel: "deepseek-chat" },
  { id: "gemini-api-key", provider: "gemini", label: "Google Gemini", defaultModel: "gemini-2.5-pro" },
];

/** The terminal method: the client runs `<the configured hermes command> --setup`, i.e. `hermes acp --setup`. */
export const TERMINAL_SETUP_METHOD = { id: "hermes-setup", args: ["--setup"] } as const;

/** `_meta` keys an `authenticate` request may carry. */
export const AUTH_META = { apiKey: "hermes/apiKey", model: "hermes/model" } as const;

/** How this Hermes was started (`node …/hermes.js acp`): the command a client runs for the legacy terminal key. */
export interface SelfLaunch {
  command: string;
  args: string[];
}

/**
 * The key clients used for terminal sign-in before ACP 1.21 typed it (Zed's first version): the
 * whole command to run, since such a client does not add args to its own agent command.
 */
export const LEGACY_TERMINAL_AUTH_META = "terminal-auth";

export interface AdvertisedMethod {
  id: string;
  name: string;
  description: string;
  type?: "terminal";
  args?: string[];
  _meta?: Record<string, unknown>;
}

/**
 * authMethods for `initialize`. The typed terminal method only for clients that can run it (the
 * spec's MUST); it and, for older clients, a plain method carry the legacy `_meta["terminal-auth"]`
 * when Hermes knows its own command line (`hermes acp`, not an agent run inside a test).
 */
export function signInMethods(options: { terminal: boolean; launch?: SelfLaunch }): AdvertisedMethod[] {
  const keys: AdvertisedMethod[] = API_KEY_METHODS.map((method) => ({
    id: method.id,
    name: `${method.label} API key`,
    description:
      `Stores the key in $HERMES_HOME/.env (mode 600) as ${PROVIDERS[method.provider].keyEnv[0]}. The key is taken from ` +
      `_meta "${AUTH_META.apiKey}" or from ${PROVIDERS[method.provider].keyEnv[0]} in Hermes's environment. ` +
      `With a configured base_url that is not ${method.label}'s own API, the key is that endpoint's: stored under its own variable, and taken only from _meta or acpx's credential.`,
  }));
  const setup = {
    id: TERMINAL_SETUP_METHOD.id,
    name: "Set up Hermes in a terminal",
    description: "Choose a provider, key and model (or a local Ollama / LM Studio) with `hermes setup`",
  };
  const legacy = options.launch
    ? { _meta: { [LEGACY_TERMINAL_AUTH_META]: { label: "hermes setup", command: options.launch.command, args: [...options.launch.args, ...TERMINAL_SETUP_METHOD.args] } } }
    : undefined;
  if (options.terminal) return [{ ...setup, type: "terminal", args: [...TERMINAL_SETUP_METHOD.args], ...legacy }, ...keys];
  // A client without the capability gets the setup only as the legacy key it may know (authenticate refuses the id).
  return legacy ? [{ ...setup, ...legacy }, ...keys] : keys;
}

export function apiKeyMethod(id: string): ApiKeyMethod | undefined {
  return API_KEY_METHODS.find((method) => method.id === id);
}

/** The variable acpx puts a configured credential in: ACPX_AUTH_ + the id as an env token. */
export function acpxCredentialVariable(methodId: string): string {
  return `ACPX_AUTH_${methodId.replace(/[^a-zA-Z0-9]+/g, "_").replace(/^_+|_+$/g, "").toUpperCase()}`;
}
