// The web tools' settings: config.yaml's `web` section and the environment their keys come
// from. Set once per runtime load (runtime/runtime.ts) for the process, like the secret
// values registry: a tool's availability is a process-wide question (ToolDefinition.isAvailable
// takes no arguments), and web_search must be offered only when a backend is configured.
import { WebConfigSchema, type WebConfig } from "../../config/web-schema";
import { parseRange, type AddressRange } from "../../util/ip-address";

export interface WebSettings {
  config: WebConfig;
  /** Where API keys are read (process.env over $HERMES_HOME/.env). */
  env: Record<string, string | undefined>;
  /** config.allow_private, parsed. */
  allowPrivate: AddressRange[];
}

/** Until a runtime sets them: the defaults, made on first use (not at import: the runtime sets them at once). */
let current: WebSettings | undefined;

export function setWebSettings(config: WebConfig, env: Record<string, string | undefined>): void {
  current = settingsFrom(config, env);
}

export function webSettings(): WebSettings {
  return (current ??= settingsFrom(WebConfigSchema.parse({}), {}));
}

function settingsFrom(config: WebConfig, env: Record<string, string | undefined>): WebSettings {
  return { config, env, allowPrivate: config.allow_private.map((text) => parseRange(text)) };
}
