// Loads $HERMES_HOME/config.yaml and $HERMES_HOME/.env. A broken file never stops the
// server: the error is kept (naming the file, the key and the problem) and reported
// by `hermes acp --check` and by the first prompt, while defaults are used meanwhile.
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseEnv } from "node:util";
import { parse as parseYaml } from "yaml";
import type { z } from "zod";
import { ConfigSchema, type HermesConfig } from "./schema";
import { hermesHome } from "./paths";

export interface LoadedConfig {
  home: string;
  configPath: string;
  /** Whether config.yaml exists. */
  configFound: boolean;
  config: HermesConfig;
  /** Set when config.yaml or .env could not be used; `config` then holds defaults. */
  error?: string;
  /** process.env over the values of $HERMES_HOME/.env (the real environment wins, unless empty). */
  env: Record<string, string | undefined>;
}

export function loadConfig(options: { env?: NodeJS.ProcessEnv; home?: string } = {}): LoadedConfig {
  const processEnv = options.env ?? process.env;
  const home = options.home ?? hermesHome(processEnv);
  const configPath = path.join(home, "config.yaml");
  const errors: string[] = [];

  const dotenv = readDotEnv(path.join(home, ".env"), errors);
  // The real environment wins, but an empty variable is as good as unset: `OPENAI_API_KEY=` passed
  // by an editor's agent settings must not hide the key a sign-in stored in .env.
  const env = { ...dotenv, ...Object.fromEntries(Object.entries(processEnv).filter(([, value]) => value !== undefined && value !== "")) };

  let raw: unknown = {};
  let configFound = false;
  const text = readOptional(configPath, errors);
  if (text !== undefined) {
    configFound = true;
    try {
      raw = parseYaml(text) ?? {};
    } catch (error) {
      // The whole message: after the first line the yaml package shows the offending lines with a caret.
      errors.push(`${configPath}: invalid YAML: ${(error as Error).message.trimEnd()}`);
    }
  }

  const parsed = ConfigSchema.safeParse(raw);
  let config: HermesConfig;
  if (parsed.success) {
    config = parsed.data;
  } else {
    errors.push(...describeIssues(configPath, parsed.error.issues));
    config = ConfigSchema.parse({});
  }
  return { home, configPath, configFound, config, env, error: errors.length ? errors.join("\n") : undefined };
}

/** "config.yaml: model.provider: Invalid option: expected one of ..." for each problem. */
export function describeIssues(file: string, issues: z.core.$ZodIssue[]): string[] {
  return issues.map((issue) => {
    const key = issue.path.length ? issue.path.join(".") : "(top level)";
    return `${file}: ${key}: ${issue.message}`;
  });
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
