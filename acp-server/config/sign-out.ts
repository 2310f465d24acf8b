// Signing out: the API keys Hermes keeps in $HERMES_HOME/.env are removed, for one provider or
// for all. Keys that come from elsewhere cannot be removed from here (the shell's or the editor's
// environment, model.api_key in config.yaml): they are named, so the user knows what still signs
// Hermes in. Used by `hermes logout` and by ACP's `logout`.
import path from "node:path";
import { removeEnvVariables } from "./env-file";
import { isEndpointKeyVariable } from "./key-hosts";
import { loadConfig } from "./load";
import { PROVIDERS } from "./providers";
import type { ProviderId } from "./schema";

export interface SignOutResult {
  envFile: string;
  /** Variables removed from .env. */
  removed: string[];
  /** Where a key still comes from after the removal. */
  remaining: { source: string; fix: string }[];
}

/**
 * The variables a provider's key is read from (HERMES_API_KEY overrides every provider). Signing
 * out of everything also takes the endpoints' own keys (HERMES_<HOST>_<PORT>_API_KEY) among
 * `present`, the names set in .env or the environment.
 */
export function keyVariables(provider?: ProviderId, present: Iterable<string> = []): string[] {
  const providers = provider ? [provider] : (Object.keys(PROVIDERS) as ProviderId[]);
  const endpoints = provider ? [] : [...present].filter(isEndpointKeyVariable);
  return [...new Set(["HERMES_API_KEY", ...providers.flatMap((id) => PROVIDERS[id].keyEnv), ...endpoints])];
}

export function signOut(options: { provider?: ProviderId; env?: NodeJS.ProcessEnv; home?: string } = {}): SignOutResult {
  const env = options.env ?? process.env;
  const loaded = loadConfig({ env, home: options.home });
  const variables = keyVariables(options.provider, [...Object.keys(loaded.dotenv ?? {}), ...Object.keys(env)]);
  const removed = removeEnvVariables(loaded.home, variables);
  const remaining: SignOutResult["remaining"] = [];
  for (const name of variables) {
    if (env[name]?.trim()) remaining.push({ source: `${name} in the environment`, fix: `unset ${name} where it is set (your shell profile, or the editor's agent settings)` });
  }
  const configured = loaded.config.model;
  if (configured.api_key && (!options.provider || configured.provider === options.provider)) {
    remaining.push({ source: `model.api_key in ${loaded.configPath}`, fix: `remove model.api_key from ${loaded.configPath}` });
  }
  return { envFile: path.join(loaded.home, ".env"), removed, remaining };
}
