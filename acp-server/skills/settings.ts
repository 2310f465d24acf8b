// The skills section of config.yaml as discovery options. Tools and the prompt builder read
// config.yaml themselves (like the memory tool reads $HERMES_HOME), so they stay independent
// of the protocol edge; the edge passes the config it already loaded.
import type { HermesConfig } from "../config/schema";
import { createLogger } from "../util/log";
import { loadSkillCatalog, type SkillCatalog } from "./library";

const log = createLogger("skills");
/** Skipped files already logged by this process (each is named once, not on every lookup). */
const logged = new Set<string>();

export interface SkillsContext {
  cwd: string;
  home: string;
  config: HermesConfig;
  env: Record<string, string | undefined>;
}

/** The catalog for a working directory, with the given (already loaded) configuration. */
export function catalogFor(context: SkillsContext): SkillCatalog {
  const { skills } = context.config;
  const catalog = loadSkillCatalog({ cwd: context.cwd, home: context.home, bundled: skills.bundled, disabled: skills.disabled, env: context.env });
  for (const warning of catalog.warnings) {
    if (logged.has(warning)) continue;
    logged.add(warning);
    log.warn(warning);
  }
  return catalog;
}
