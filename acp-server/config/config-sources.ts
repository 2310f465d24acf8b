// What a configuration is made from: $HERMES_HOME/.env, config.yaml's text and the environment.
// Reading them needs neither YAML nor the schema, so a start whose config.yaml is unchanged
// (config-cache.ts) reads them without loading either; load.ts parses them.
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseEnv } from "node:util";
import { hermesHome } from "./paths";

export interface ConfigSources {
  home: string;
  configPath: string;
  /** config.yaml's text; undefined when there is none (or it could not be read: see errors). */
  text?: string;
  /** process.env over the values of $HERMES_HOME/.env (the real environment wins, unless empty). */
  env: Record<string, string | undefined>;
  /** $HERMES_HOME/.env alone, without the environment: where an older `hermes setup` left a custom endpoint's key (resolve-model.ts). */
  dotenv: Record<string, string>;
  /** Problems reading the files, each naming its file. */
  errors: string[];
}

export function readConfigSources(options: { env?: NodeJS.ProcessEnv; home?: string } = {}): ConfigSources {
  const processEnv = options.env ?? process.env;
  const home = options.home ?? hermesHome(processEnv);
  const configPath = path.join(home, "config.yaml");
  const errors: string[] = [];

  const dotenv = readDotEnv(path.join(home, ".env"), errors);
  // The real environment wins, but an empty variable is as good as unset: `OPENAI_API_KEY=` passed
  // by an editor's agent settings must not hide the key a sign-in stored in .env.
  const env = { ...dotenv, ...Object.fromEntries(Object.entries(processEnv).filter(([, value]) => value !== undefined && value !== "")) };
  const text = readOptional(configPath, errors);
  return { home, configPath, ...(text !== undefined ? { text } : {}), env, dotenv, errors };
}

function readOptional(file: string, errors: string[]): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT") errors.push(`${file}: cannot be read (${code ?? (error as Error).message})`);
    return undefined;
  }
}

function readDotEnv(file: string, errors: string[]): Record<string, string> {
  const text = readOptional(file, errors);
  if (text === undefined) return {};
  try {
    return parseEnv(text) as Record<string, string>;
  } catch (error) {
    errors.push(`${file}: ${(error as Error).message}`);
    return {};
  }
}
