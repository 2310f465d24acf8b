// `hermes doctor`'s browser line: which Chromium the browser tools will drive, or how to get one.
import { existsSync } from "node:fs";
import type { LoadedConfig } from "../config/load";
import { chooseBrowser } from "../tools/browser/browser-executable";
import type { CheckResult } from "./doctor-checks";

export function checkBrowser(loaded: LoadedConfig, env: NodeJS.ProcessEnv = process.env): CheckResult {
  const name = "browser";
  const config = loaded.config.browser;
  if (config.cdp_url) return { name, status: "ok", detail: `attaches to your Chrome at ${config.cdp_url} (browser.cdp_url)` };
  const chosen = chooseBrowser(config.executable, env);
  if (chosen.source === "config" && !existsSync(chosen.executable as string)) {
    return { name, status: "warn", detail: `browser.executable ${chosen.executable} does not exist`, fix: "Point browser.executable at a Chrome or Chromium binary, or remove it to use the system's." };
  }
  if (chosen.executable) return { name, status: "ok", detail: `${chosen.executable} (${chosen.source === "config" ? "browser.executable" : "the system's"})` };
  return {
    name,
    status: "warn",
    detail: "no Chrome or Chromium found: the browser tools will try Playwright's own, if it was installed",
    fix: "Install Chromium (apt install chromium, brew install --cask chromium) or set browser.executable; see docs/browser.md.",
  };
}
