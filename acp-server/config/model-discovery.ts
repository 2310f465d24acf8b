// The models an OpenAI-compatible endpoint lists at GET /models, for the model picker.
// Answers are cached on disk for an hour, so later sessions and processes need not ask. A failed
// ask (refused, timed out, an error status, an unknown shape) is remembered for a few minutes:
// every new editor window would otherwise try again before its first session/new is answered,
// and an endpoint that drops packets costs each of them the whole timeout.
import { createHash } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import * as z from "zod";
import { httpGet } from "../util/http-get";
import { createLogger, type Logger } from "../util/log";

const modelsLog = createLogger("models");

const TTL_MS = 60 * 60 * 1000;
/** After a failed ask, how long the cached list (or none) is offered without asking again. */
const RETRY_AFTER_FAILURE_MS = 5 * 60 * 1000;
/** The picker is not worth a long wait; a slow endpoint just offers fewer choices. */
const DEFAULT_TIMEOUT_MS = 1_500;
/** Endpoints list hundreds of models (OpenRouter); the picker shows the first ones. */
const MAX_MODELS = 200;

interface CacheFile {
  fetchedAt: number;
  models: string[];
  /** When the last ask failed (absent after a success)... */
  failedAt?: number;
  /** ...and with which key (a hash): a new key, after a 401, asks again at once. */
  failedKey?: string;
}

// The cache file and the endpoint's answer, read through zod (built on first use). An entry of
// the answer without a usable id is skipped, not a reason to drop the list.
let schemas: { cache: z.ZodType<CacheFile>; answer: z.ZodType<{ data?: unknown[] }> } | undefined;

function discoverySchemas(): NonNullable<typeof schemas> {
  schemas ??= {
    cache: z.looseObject({ fetchedAt: z.number(), models: z.array(z.string()), failedAt: z.number().optional(), failedKey: z.string().optional() }),
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
  const cacheFile = path.join(cacheDir, `models-${shortHash(endpoint.baseUrl)}.json`);
  const keyHash = shortHash(`key:${endpoint.apiKey ?? ""}`);
  const cached = await readCache(cacheFile, log);
  if (cached && now - cached.fetchedAt < TTL_MS) return cached.models;
  const recentFailure = cached?.failedAt !== undefined && cached.failedKey === keyHash && now - cached.failedAt >= 0 && now - cached.failedAt < RETRY_AFTER_FAILURE_MS;
  if (recentFailure) return cached.models;
  /** The list to offer after a failed ask, remembered as failed so that others do not ask at once. */
  const failed = async () => {
    await writeCache(cacheFile, { fetchedAt: cached?.fetchedAt ?? 0, models: cached?.models ?? [], failedAt: now, failedKey: keyHash });
    return cached?.models ?? [];
  };

  try {
    // Not the global fetch: loading it (undici) would cost the first session/new ~20 ms of CPU.
    const response = await httpGet(`${endpoint.baseUrl.replace(/\/+$/, "")}/models`, {
      headers: endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {},
      signal: AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    });
    if (!response.ok) return await failed();
    const body = discoverySchemas().answer.safeParse(JSON.parse(response.text));
    if (!body.success) {
      log.warn("the endpoint's model list has an unknown shape; offering the cached one", { baseUrl: endpoint.baseUrl, problem: body.error.issues[0]?.message });
      return await failed();
    }
    const models = (body.data.data ?? [])
      .map(modelEntry)
      .filter((id): id is string => id !== undefined)
      .slice(0, MAX_MODELS);
    await writeCache(cacheFile, { fetchedAt: now, models });
    return models;
  } catch {
    // expected: offline or slow: a stale list beats none, and no list is the caller's normal "unknown"
    return await failed();
  }
}

function shortHash(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 16);
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
    // expected: a read-only home only costs the cache
  }
}
