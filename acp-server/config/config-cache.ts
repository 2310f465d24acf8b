// `hermes acp` starts with the configuration config.yaml gave last time, when config.yaml has not
// changed: parsing YAML and building the whole zod schema (schema.ts) was a tenth of a first
// session/new's CPU time. The cache holds the schema's own output, so zod stays the source of truth:
// - an entry is keyed by the exact bytes of config.yaml (or its absence) and the build that wrote it
//   (HERMES_BUILD_ID, a hash of the sources and the lockfile): any edit, or another Hermes, is a miss;
// - it is encrypted (AES-256-GCM) with a key derived from those same bytes, so the file reveals
//   nothing to whoever does not already have config.yaml (which may hold API keys), and a stale
//   entry is unreadable once config.yaml changed; the authentication tag rejects a damaged file;
// - anything unexpected (no file, another key, a bad tag, a read error) is a miss: the full parse
//   runs, as it always did, and its result is stored only when it was free of errors and survives
//   JSON unchanged. A build without the id (tests run from the sources) never uses the cache.
// .env is read every time (config-sources.ts): the cache never holds the environment.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { writeFileAtomicSync } from "../util/atomic-write";
import type { Logger } from "../util/log";
import { readConfigSources, type ConfigSources } from "./config-sources";
import type { LoadedConfig } from "./load";
import type { HermesConfig } from "./schema";

declare const HERMES_BUILD_ID: string | undefined;

const FORMAT = 1;

interface CacheFile {
  format: number;
  id: string;
  iv: string;
  tag: string;
  data: string;
}

export interface CachedConfigOptions {
  env?: NodeJS.ProcessEnv;
  home?: string;
  /** The build's identity; the bundle's HERMES_BUILD_ID unless given (tests). Without one, no cache. */
  buildId?: string;
  log?: Logger;
}

/** The configuration, as loadConfig (load.ts) gives it; from the cache when config.yaml is unchanged. */
export async function loadConfigCached(options: CachedConfigOptions = {}): Promise<LoadedConfig> {
  const sources = readConfigSources(options);
  const buildId = options.buildId ?? (typeof HERMES_BUILD_ID === "string" ? HERMES_BUILD_ID : undefined);
  const file = path.join(sources.home, "cache", "config.json");
  const keys = buildId !== undefined && sources.errors.length === 0 ? cacheKeys(buildId, sources) : undefined;
  const config = keys ? readEntry(file, keys) : undefined;
  if (config) {
    const { home, configPath, text, env, dotenv } = sources;
    return { home, configPath, configFound: text !== undefined, config, env, dotenv };
  }
  const { parseConfigSources } = await import("./load");
  const loaded = parseConfigSources(sources);
  if (keys && loaded.error === undefined && survivesJson(loaded.config)) {
    // After the answer that is waiting on this: the cache is worth no delay.
    setImmediate(() => {
      try {
        writeEntry(file, keys, loaded.config);
      } catch (error) {
        options.log?.debug("could not write the config cache", { file, error });
      }
    });
  }
  return loaded;
}

interface CacheKeys {
  /** Names the entry (which config.yaml, which build). */
  id: string;
  /** Encrypts it: derived from the same bytes, apart from the id. */
  key: Buffer;
}

function cacheKeys(buildId: string, sources: ConfigSources): CacheKeys {
  const material = (purpose: string) =>
    createHash("sha256")
      .update(`hermes config cache ${FORMAT} ${purpose}\0${buildId}\0`)
      .update(sources.text === undefined ? "absent" : `present\0${sources.text}`);
  return { id: material("id").digest("hex"), key: material("key").digest() };
}

function readEntry(file: string, keys: CacheKeys): HermesConfig | undefined {
  try {
    const entry = JSON.parse(readFileSync(file, "utf8")) as Partial<CacheFile>;
    if (entry.format !== FORMAT || entry.id !== keys.id || typeof entry.iv !== "string" || typeof entry.tag !== "string" || typeof entry.data !== "string") return undefined;
    const decipher = createDecipheriv("aes-256-gcm", keys.key, Buffer.from(entry.iv, "base64"));
    decipher.setAuthTag(Buffer.from(entry.tag, "base64"));
    const text = Buffer.concat([decipher.update(Buffer.from(entry.data, "base64")), decipher.final()]).toString("utf8");
    const config: unknown = JSON.parse(text);
    return typeof config === "object" && config !== null && !Array.isArray(config) ? (config as HermesConfig) : undefined;
  } catch {
    // expected: no cache entry, or one that is not this config's: config.yaml is parsed instead
    return undefined;
  }
}

function writeEntry(file: string, keys: CacheKeys, config: HermesConfig): void {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keys.key, iv);
  const data = Buffer.concat([cipher.update(JSON.stringify(config), "utf8"), cipher.final()]);
  const entry: CacheFile = { format: FORMAT, id: keys.id, iv: iv.toString("base64"), tag: cipher.getAuthTag().toString("base64"), data: data.toString("base64") };
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  writeFileAtomicSync(file, JSON.stringify(entry));
}

/** Whether the config reads back from JSON exactly as it is (plain data only: no undefined, Infinity, Date...). */
function survivesJson(config: HermesConfig): boolean {
  try {
    return isDeepStrictEqual(JSON.parse(JSON.stringify(config)), config);
  } catch {
    // expected: a config JSON cannot hold is simply not cached
    return false;
  }
}
