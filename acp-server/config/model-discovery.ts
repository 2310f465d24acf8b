// The models an OpenAI-compatible endpoint lists at GET /models, for the model picker.
// Answers are cached on disk for an hour, so later sessions and processes need not ask.
import { createHash } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { httpGet } from "../util/http-get";
import { createLogger, type Logger } from "../util/log";

const modelsLog = createLogger("models");

const TTL_MS = 60 * 60 * 1000;
/** The picker is not worth a long wait; a slow endpoint just offers fewer choices. */
const DEFAULT_TIMEOUT_MS = 1_500;
/** Endpoints list hundreds of models (OpenRouter); the picker shows the first ones. */
const MAX_MODELS = 200;

interface CacheFile {
  fetchedAt: number;
  models: string[];
}

// The cache file and the endpoint's answer, read through zod (built on first use). An entry of
// the answer without a usable id is skipped, not a reason to drop the list.
let schemas: { cache: z.ZodType<CacheFile>; answer: z.ZodType<{ data?: unknown[] }> } | undefined;

function discoverySchemas(): NonNullable<typeof schemas> {
  schemas ??= {
    cache: z.looseObject({ fetchedAt: z.number(), models: z.array(z.string()) }),
    answer: z.looseObject({ data: z.array(z.unknown()).optional() }),
  };
  return schemas;
}

const modelEntry = (entry: unknown): string | undefined => {
  const id = typeof entry === "object" && entry !== null ? (entry as { id?: unknown }).id : undefined;
  return typeof id === "string" && id.length > 0 ? id : undefined;
};

export async function discoverModels(
  endpoint: { baseUrl: string; apiKey?: string },
  cacheDir: string,
  options: { timeoutMs?: number; now?: number; log?: Logger } = {},
): Promise<string[]> {
  const now = options.now ?? Date.now();
  const log = options.log ?? modelsLog;
  const cacheFile = path.join(cacheDir, `models-${createHash("sha256").update(endpoint.baseUrl).digest("hex").slice(0, 16)}.json`);
  const cached = await readCache(cacheFile, log);
  if (cached && now - cached.fetchedAt < TTL_MS) return cached.models;

  try {
    // Not the global fetch: loading it (undici) would cost the first session/new ~20 ms of CPU.
    const response = await httpGet(`${endpoint.baseUrl.replace(/\/+$/, "")}/models`, {
      headers: endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {},
      signal: AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    });
    if (!response.ok) return cached?.models ?? [];
    const body = discoverySchemas().answer.safeParse(JSON.parse(response.text));
    if (!body.success) {
      log.warn("the endpoint's model list has an unknown shape; offering the cached one", { baseUrl: endpoint.baseUrl, problem: body.error.issues[0]?.message });
      return cached?.models ?? [];
    }
    const models = (body.data.data ?? [])
      .map(modelEntry)
      .filter((id): id is string => id !== undefined)
      .slice(0, MAX_MODELS);
    await writeCache(cacheFile, { fetchedAt: now, models });
    return models;
  } catch {
    return cached?.models ?? []; // offline or slow: a stale list beats none
  }
}

/** The cached list; a missing file is no cache, a damaged one is warned about and asked again. */
async function readCache(file: string, log: Logger): Promise<CacheFile | undefined> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") log.warn("model list cache unreadable; asking the endpoint", { file, error });
    return undefined;
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    log.warn("model list cache is not valid JSON; asking the endpoint", { file, error });
    return undefined;
  }
  const parsed = discoverySchemas().cache.safeParse(data);
  if (!parsed.success) log.warn("model list cache has an unknown shape; asking the endpoint", { file, problem: parsed.error.issues[0]?.message });
  return parsed.success ? parsed.data : undefined;
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
