// The models an OpenAI-compatible endpoint lists at GET /models, for the model picker.
// Answers are cached on disk for an hour, so later sessions and processes need not ask.
import { createHash } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";

const TTL_MS = 60 * 60 * 1000;
/** The picker is not worth a long wait; a slow endpoint just offers fewer choices. */
const DEFAULT_TIMEOUT_MS = 1_500;
/** Endpoints list hundreds of models (OpenRouter); the picker shows the first ones. */
const MAX_MODELS = 200;

interface CacheFile {
  fetchedAt: number;
  models: string[];
}

export async function discoverModels(
  endpoint: { baseUrl: string; apiKey?: string },
  cacheDir: string,
  options: { timeoutMs?: number; now?: number } = {},
): Promise<string[]> {
  const now = options.now ?? Date.now();
  const cacheFile = path.join(cacheDir, `models-${createHash("sha256").update(endpoint.baseUrl).digest("hex").slice(0, 16)}.json`);
  const cached = await readCache(cacheFile);
  if (cached && now - cached.fetchedAt < TTL_MS) return cached.models;

  try {
    const response = await fetch(`${endpoint.baseUrl.replace(/\/+$/, "")}/models`, {
      headers: endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {},
      signal: AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    });
    if (!response.ok) return cached?.models ?? [];
    const body = (await response.json()) as { data?: { id?: unknown }[] };
    const models = (body.data ?? [])
      .map((entry) => entry.id)
      .filter((id): id is string => typeof id === "string" && id.length > 0)
      .slice(0, MAX_MODELS);
    await writeCache(cacheFile, { fetchedAt: now, models });
    return models;
  } catch {
    return cached?.models ?? []; // offline or slow: a stale list beats none
  }
}

async function readCache(file: string): Promise<CacheFile | undefined> {
  try {
    const data = JSON.parse(await readFile(file, "utf8")) as CacheFile;
    return Array.isArray(data.models) && typeof data.fetchedAt === "number" ? data : undefined;
  } catch {
    return undefined;
  }
}

async function writeCache(file: string, data: CacheFile): Promise<void> {
  try {
    await mkdir(path.dirname(file), { recursive: true });
    const temp = `${file}.${process.pid}.tmp`;
    await writeFile(temp, JSON.stringify(data));
    await rename(temp, file);
  } catch {
    // A read-only home only costs the cache.
  }
}
