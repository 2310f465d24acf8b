// Which host a key may go to. A provider's variable (OPENAI_API_KEY, ANTHROPIC_API_KEY, ...) is
// a credential for that provider's own API: it is read only for an endpoint at that provider's
// origin, never for an overridden base_url, a custom endpoint, a fallback elsewhere, a probe or a
// model list. Any other endpoint has a variable of its own, named after its origin, so two
// endpoints never share (or overwrite) each other's key.
import { PROVIDERS } from "./providers";
import type { ProviderId } from "./schema";

/**
 * scheme://host:port of a URL, or undefined when it does not parse. The origin, not the host
 * alone: a key for https://api.openai.com must not travel in clear to http://api.openai.com, nor
 * to another port of the same machine (another server).
 */
export function endpointOrigin(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    // expected: an unparsable base_url matches no provider (fails closed: no provider key goes there)
    return undefined;
  }
}

/** Whether `baseUrl` is `provider`'s own API, where its variables may be sent. */
export function providerServes(provider: ProviderId, baseUrl: string): boolean {
  const own = PROVIDERS[provider].baseUrl;
  if (!own) return false; // custom: no host of its own, so no provider variable is ever its
  const origin = endpointOrigin(baseUrl);
  return origin !== undefined && origin !== "null" && origin === endpointOrigin(own);
}

/** Every known provider variable (OPENAI_API_KEY, GOOGLE_API_KEY, ...). */
export function providerKeyVariables(): Set<string> {
  return new Set(Object.values(PROVIDERS).flatMap((info) => info.keyEnv));
}

/**
 * The variable that holds the key of the endpoint at `baseUrl`: HERMES_<HOST>_<PORT>_API_KEY, e.g.
 * http://127.0.0.1:8080/v1 → HERMES_127_0_0_1_8080_API_KEY, https://llm.example.com/v1 →
 * HERMES_LLM_EXAMPLE_COM_443_API_KEY. The HERMES_ prefix keeps it apart from every provider's
 * variable (a host named "openai" must not become OPENAI_API_KEY); the port is always written, so
 * two servers on one machine get two names; the _API_KEY tail marks it as a credential for the
 * redactor and the secret registry. Undefined for a URL that does not parse.
 */
export function endpointKeyVariable(baseUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    // expected: no URL, no endpoint to name
    return undefined;
  }
  const port = url.port || (url.protocol === "https:" ? "443" : url.protocol === "http:" ? "80" : "");
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (!host || !port) return undefined;
  const token = `${host}_${port}`.toUpperCase().replace(/[^A-Z0-9]+/g, "_").replace(/^_+|_+$/g, "");
  return `HERMES_${token}_API_KEY`;
}

/** Whether a variable name is one Hermes derived for an endpoint (sign-out removes these too). */
export function isEndpointKeyVariable(name: string): boolean {
  return /^HERMES_[A-Z0-9_]+_API_KEY$/.test(name) && name !== "HERMES_API_KEY";
}
