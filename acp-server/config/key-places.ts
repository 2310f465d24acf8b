// Every place Hermes takes an API key from, in the order it looks, for hints shown when a key is
// missing or rejected: the user should not have to guess which of them is in effect.
import path from "node:path";
import { PROVIDERS } from "./providers";
import type { ProviderId } from "./schema";

export function apiKeyPlaces(options: { provider: ProviderId; configPath: string; home: string; inUse?: string }): string {
  const providerVars = PROVIDERS[options.provider].keyEnv;
  const order = ["HERMES_API_KEY", `model.api_key in ${options.configPath}`, ...providerVars].join(", then ");
  const used = options.inUse ? ` The key in use now comes from ${options.inUse}.` : "";
  return (
    `Hermes reads the key from ${order}; the variables may be set in the environment or in ` +
    `${path.join(options.home, ".env")} (the environment wins).${used}`
  );
}
