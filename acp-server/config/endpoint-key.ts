// Which key a model entry sends, and from where, under the rule of key-hosts.ts: a provider's
// variable only to that provider's own origin; any other endpoint reads its own variable. What
// cannot be told apart is not sent (fails closed): an unparsable base_url gets no provider key.
import { endpointKeyVariable, endpointOrigin, isEndpointKeyVariable, providerKeyVariables, providerServes } from "./key-hosts";
import type { LoadedConfig } from "./load";
import { PROVIDERS } from "./providers";
import type { ModelEntry, ProviderId } from "./schema";

export interface EndpointKey {
  apiKey?: string;
  /** Where it came from, for --check and hints (never the key itself). */
  apiKeySource?: string;
  /** The variable to name in "set the key" hints. */
  hintVariable?: string;
  /** The variables this endpoint reads, in order, for the "where keys come from" hint. */
  variables: string[];
  /** A configuration that would send a key where it does not belong: refused. */
  refused?: string;
}

interface Inherited {
  baseUrl: string;
  apiKey?: string;
  apiKeySource?: string;
}

export function endpointKey(
  entry: Pick<ModelEntry, "api_key" | "api_key_env">,
  provider: ProviderId,
  baseUrl: string,
  loaded: Pick<LoadedConfig, "env" | "dotenv" | "configPath">,
  options: { parent?: Inherited; keySource?: string; where: string },
): EndpointKey {
  const own = providerServes(provider, baseUrl);
  const endpointVariable = endpointKeyVariable(baseUrl);
  const variables = own ? [...PROVIDERS[provider].keyEnv] : endpointVariable ? [endpointVariable] : [];
  const read = (name: string) => loaded.env[name]?.trim() || undefined;

  if (entry.api_key) {
    return { apiKey: entry.api_key, apiKeySource: options.keySource ?? `${loaded.configPath} (${options.where}.api_key)`, variables };
  }
  if (entry.api_key_env) {
    const name = entry.api_key_env;
    if (providerKeyVariables().has(name) && !providerOwning(name, baseUrl)) {
      return {
        variables,
        refused:
          `${options.where}.api_key_env names ${name}, a provider's key, but ${options.where} goes to ${endpointOrigin(baseUrl) ?? baseUrl}, ` +
          `which is not that provider's host: the key is not sent there. Put this endpoint's key in ${endpointVariable ?? "a variable of its own"} ` +
          "(in the environment or $HERMES_HOME/.env) and name that, or run `hermes setup` again.",
      };
    }
    // Another endpoint's own variable (say, left after base_url was edited) is that endpoint's key.
    if (isEndpointKeyVariable(name) && name !== endpointVariable) {
      return { variables, refused: `${options.where}.api_key_env names ${name}, another endpoint's key; ${options.where} goes to ${endpointOrigin(baseUrl) ?? baseUrl}, whose variable is ${endpointVariable ?? "none"}. Run \`hermes setup\` again, or name the right variable.` };
    }
    const value = read(name);
    return { ...(value ? { apiKey: value, apiKeySource: name } : {}), hintVariable: name, variables: [name] };
  }
  // An entry without a provider of its own shares its parent's key only at the parent's origin:
  // `fallback_models: [{name: x, base_url: <elsewhere>}]` must not carry the main key there.
  const parent = options.parent;
  if (parent?.apiKey && endpointOrigin(parent.baseUrl) !== undefined && endpointOrigin(parent.baseUrl) === endpointOrigin(baseUrl)) {
    return { apiKey: parent.apiKey, apiKeySource: parent.apiKeySource, variables };
  }
  for (const name of variables) {
    const value = read(name);
    if (value) return { apiKey: value, apiKeySource: name, variables };
  }
  const legacy = own ? undefined : legacyKey(provider, loaded.dotenv);
  if (legacy) return { ...legacy, hintVariable: endpointVariable, variables };
  return { hintVariable: variables[0], variables };
}

/**
 * Migration: before keys were kept per endpoint, `hermes setup` stored a custom endpoint's key as
 * OPENAI_API_KEY (a known provider's with its base_url overridden: as that provider's variable) in
 * $HERMES_HOME/.env. That value, from the file only, is still this endpoint's key until setup is
 * run again (which moves it); a variable of that name in the environment (a real OpenAI key) is
 * never read for it.
 */
function legacyKey(provider: ProviderId, dotenv: Record<string, string> | undefined): Pick<EndpointKey, "apiKey" | "apiKeySource"> | undefined {
  const name = legacyKeyVariable(provider);
  const value = name ? dotenv?.[name]?.trim() : undefined;
  if (!name || !value) return undefined;
  return { apiKey: value, apiKeySource: `${name} in $HERMES_HOME/.env, ${LEGACY_MARK} (run it again to move the key to this endpoint's own variable)` };
}

const LEGACY_MARK = "stored for this endpoint by an older `hermes setup`";

/** Whether a key came from where an older setup left it (doctor warns; setup moves it). */
export function isLegacyKeySource(source: string | undefined): boolean {
  return source?.includes(LEGACY_MARK) ?? false;
}

/** Where an older setup stored a key for this provider's endpoint when it was not the provider's own. */
export function legacyKeyVariable(provider: ProviderId): string | undefined {
  return provider === "custom" ? "OPENAI_API_KEY" : PROVIDERS[provider].keyEnv[0];
}

/** Whether some provider owning variable `name` is the one at `baseUrl`. */
function providerOwning(name: string, baseUrl: string): boolean {
  return (Object.keys(PROVIDERS) as ProviderId[]).some((id) => PROVIDERS[id].keyEnv.includes(name) && providerServes(id, baseUrl));
}
