// Which Chromium the browser tools launch: config's browser.executable, else the system's Chrome
// or Chromium, else (undefined) the one Playwright installed. Nothing is downloaded.
import { accessSync, constants } from "node:fs";
import path from "node:path";

const SYSTEM_NAMES = ["google-chrome-stable", "google-chrome", "chromium", "chromium-browser", "chrome"];
const MAC_APPS = ["/Applications/Google Chrome.app/Contents/MacOS/Google Chrome", "/Applications/Chromium.app/Contents/MacOS/Chromium"];

export interface ChosenBrowser {
  /** undefined: Playwright's own Chromium (if it was installed). */
  executable: string | undefined;
  source: "config" | "system" | "playwright";
}

export function chooseBrowser(configured: string | undefined, env: NodeJS.ProcessEnv = process.env): ChosenBrowser {
  if (configured) return { executable: configured, source: "config" };
  const dirs = (env.PATH ?? "").split(path.delimiter).filter(Boolean);
  for (const name of SYSTEM_NAMES) {
    for (const dir of dirs) {
      const candidate = path.join(dir, name);
      if (executable(candidate)) return { executable: candidate, source: "system" };
    }
  }
  if (process.platform === "darwin") {
    const app = MAC_APPS.find(executable);
    if (app) return { executable: app, source: "system" };
  }
  return { executable: undefined, source: "playwright" };
}

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    // expected: not there or not executable; try the next candidate
    return false;
  }
}
