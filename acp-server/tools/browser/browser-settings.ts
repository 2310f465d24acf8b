// The browser tools' settings (config.yaml's `browser` section and Hermes's home folder), set once
// per runtime load like the web tools' (web/web-settings.ts): tools read them when they run.
import { BrowserConfigSchema, type BrowserConfig } from "../../config/browser-schema";

export interface BrowserSettings {
  config: BrowserConfig;
  /** $HERMES_HOME: where a persisted profile lives. */
  home: string | undefined;
}

let current: BrowserSettings | undefined;

export function setBrowserSettings(config: BrowserConfig, home: string | undefined): void {
  current = { config, home };
}

export function browserSettings(): BrowserSettings {
  return (current ??= { config: BrowserConfigSchema.parse({}), home: undefined });
}
