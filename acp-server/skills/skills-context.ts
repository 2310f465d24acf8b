// The skills context of code that has no loaded configuration at hand (tools, the CLI, the
// prompt builder): config.yaml and .env read here. Apart from settings.ts, which the first
// session/new uses with the config it already has, so that one does not load YAML and the schema.
import { loadConfig } from "../config/load";
import type { SkillsContext } from "./settings";

/** The skills context from $HERMES_HOME's config.yaml and .env (a broken config gives the defaults). */
export function skillsContext(cwd: string, home?: string): SkillsContext {
  const loaded = loadConfig(home ? { home } : {});
  return { cwd, home: loaded.home, config: loaded.config, env: loaded.env };
}
