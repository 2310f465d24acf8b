// With no model configured, look for a local Ollama or LM Studio before giving up.
import type { ProviderId } from "./schema";
import { PROVIDERS } from "./providers";

export interface LocalServer {
  provider: Extract<ProviderId, "ollama" | "lmstudio">;
  baseUrl: string;
  models: string[];
}

const DEFAULT_CANDIDATES = (["ollama", "lmstudio"] as const).map((provider) => ({ provider, baseUrl: PROVIDERS[provider].baseUrl! }));

/** Asks the local servers for their models at once; the first (in order) that lists any wins. */
export async function probeLocalServers(
  timeoutMs = 400,
  servers: { provider: LocalServer["provider"]; baseUrl: string }[] = DEFAULT_CANDIDATES,
): Promise<LocalServer | undefined> {
  const candidates = servers.map(async ({ provider, baseUrl }): Promise<LocalServer | undefined> => {
    try {
      const response = await fetch(`${baseUrl}/models`, { signal: AbortSignal.timeout(timeoutMs) });
      if (!response.ok) return undefined;
      const body = (await response.json()) as { data?: { id?: unknown }[] };
      const models = (body.data ?? []).map((m) => m.id).filter((id): id is string => typeof id === "string");
      return models.length > 0 ? { provider, baseUrl, models } : undefined;
    } catch {
      // expected: nothing listening, or not an OpenAI-compatible server: no local model found there
      return undefined;
    }
  });
  for (const found of await Promise.all(candidates)) if (found) return found;
  return undefined;
}
