// Every place Hermes takes an API key from, in the order it looks, for hints shown when a key is
// missing or rejected: the user should not have to guess which of them is in effect.
import path from "node:path";

/** `variables`: those this endpoint reads (a provider's only at its own host; see endpoint-key.ts). */
export function apiKeyPlaces(options: { variables: readonly string[]; configPath: string; home: string; inUse?: string }): string {
  const order = ["HERMES_API_KEY", `model.api_key in ${options.configPath}`, ...options.variables].join(", then ");
  const used = options.inUse ? ` The key in use now comes from ${options.inUse}.` : "";
  return (
    `Hermes reads the key from ${order}; the variables may be set in the environment or in ` +
    `${path.join(options.home, ".env")} (the environment wins).${used}`
  );
}
