// Loads $HERMES_HOME/config.yaml and $HERMES_HOME/.env. A broken file never stops the
// server: the error is kept (naming the file, the key and the problem) and reported
// by `hermes acp --check` and by the first prompt, while defaults are used meanwhile.
// `hermes acp` reads it through config-cache.ts, which skips this parse when config.yaml is unchanged.
import { YAML_PARSER_MISSING } from "./config-error";
import { describeIssues } from "./config-issues";
import { readConfigSources, type ConfigSources } from "./config-sources";
import { ConfigSchema, type HermesConfig } from "./schema";
import { yaml } from "../util/yaml";

export { describeIssues } from "./config-issues";

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
  /** $HERMES_HOME/.env alone (absent: treated as empty). */
  dotenv?: Record<string, string>;
}

export function loadConfig(options: { env?: NodeJS.ProcessEnv; home?: string } = {}): LoadedConfig {
  return parseConfigSources(readConfigSources(options));
}

/** config.yaml's text through YAML and the schema (ConfigSchema, the one source of truth). */
export function parseConfigSources(sources: ConfigSources): LoadedConfig {
  const { home, configPath, text, env, dotenv } = sources;
  const errors = [...sources.errors];
  let raw: unknown = {};
  const configFound = text !== undefined;
  if (text !== undefined) {
    let parser: ReturnType<typeof yaml> | undefined;
    try {
      parser = yaml();
    } catch (error) {
      // Not the user's YAML: this installation lacks its parser (a packaging fault). Saying
      // "invalid YAML" would send them to fix a file that is fine.
      errors.push(`${configPath}: ${YAML_PARSER_MISSING} (${(error as Error).message.split("\n")[0]})`);
    }
    if (parser) {
      try {
        raw = parser.parse(text) ?? {};
      } catch (error) {
        // The whole message: after the first line the yaml package shows the offending lines with a caret.
        errors.push(`${configPath}: invalid YAML: ${(error as Error).message.trimEnd()}`);
      }
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
  return { home, configPath, configFound, config, env, dotenv, error: errors.length ? errors.join("\n") : undefined };
}
