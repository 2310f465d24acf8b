// The shared set-up of the panel's end-to-end tests: the packaged .vsix installed into a fresh
// code-server (a real VS Code) with its own workspace, HERMES_HOME and user settings, the
// scripted model as the agent's provider, and Debian's chromium driving the workbench. Each
// test file gets its own; steps take a screenshot named after them in test-artifacts/e2e/, and
// the logs of code-server, the extension host and Hermes are kept there (prefixed per file).
import assert from "node:assert/strict";
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before } from "node:test";
import type { Browser, Frame, Page } from "playwright-core";
import { stringify as toYaml } from "yaml";
import { startScriptedModel, type ScriptedModel } from "../support/scripted-model";
import { checkTools, installExtension, ROOT, startCodeServer, type CodeServer } from "./code-server";
import { launchBrowser } from "./workbench";

export const ARTIFACTS = path.join(ROOT, "test-artifacts", "e2e");
export const VSIX = path.resolve(process.env.HERMES_VSIX ?? path.join(ROOT, "hermes.vsix"));

export interface PanelWorkbench {
  model: ScriptedModel;
  server: CodeServer;
  page: Page;
  workspace: string;
  hermesHome: string;
  userDataDir: string;
  /** "Step: N ms" lines, written to <prefix>timings.txt. */
  timings: string[];
  /** Runs a step; screenshots it as <name>.png (failed-<name>.png on failure). */
  step: (name: string, body: () => Promise<void>) => Promise<void>;
  shot: (name: string) => Promise<void>;
}

export interface FixtureOptions {
  /** Prefix of this file's logs in test-artifacts/e2e/ ("" for the main flow). */
  logPrefix: string;
  /** Fills the workspace folder before code-server opens it. */
  prepareWorkspace?(workspace: string): void;
  /** Extra VS Code user settings. */
  settings?: Record<string, unknown>;
  /** $HERMES_HOME/config.yaml instead of the scripted model with a key (e.g. one without a key, to sign in). */
  hermesConfig?(modelUrl: string): Record<string, unknown>;
}

/** Registers before/after hooks; the returned object is filled in once `before` ran. */
export function usePanelWorkbench(options: FixtureOptions): PanelWorkbench {
  const bench = { timings: [] as string[] } as PanelWorkbench;
  let browser: Browser | undefined;
  let base = "";
  let codeServerLog = "";
  const consoleLines: string[] = [];

  before(async () => {
    checkTools();
    assert.ok(existsSync(VSIX), `${VSIX} is missing: run npm run package (test/e2e/run.sh does)`);
    mkdirSync(ARTIFACTS, { recursive: true });

    bench.model = await startScriptedModel();
    base = path.join(os.tmpdir(), `hermes-e2e-${options.logPrefix || "main"}${process.pid}`);
    rmSync(base, { recursive: true, force: true });
    bench.workspace = path.join(base, "workspace");
    bench.hermesHome = path.join(base, "hermes-home");
    bench.userDataDir = path.join(base, "user-data");
    const extensionsDir = path.join(base, "extensions");
    codeServerLog = path.join(base, "code-server.log");
    for (const dir of [bench.workspace, bench.hermesHome, path.join(bench.userDataDir, "User"), extensionsDir]) mkdirSync(dir, { recursive: true });
    options.prepareWorkspace?.(bench.workspace);
    writeFileSync(
      path.join(bench.hermesHome, "config.yaml"),
      toYaml(options.hermesConfig?.(bench.model.url) ?? {
        // `vision`: the scripted model takes images (an unknown name is taken as text-only).
        model: { provider: "custom", name: "fake-model", base_url: bench.model.url, api_key: "sk-test-not-a-real-key", api_mode: "chat_completions", vision: true },
        // A background title request would take the scripted replies; the first-line title remains.
        sessions: { auto_title: false },
        // Likewise a background learning review after a long scripted turn.
        learning: { review: "off" },
        logging: { level: "debug" },
      }),
    );
    writeFileSync(
      path.join(bench.userDataDir, "User", "settings.json"),
      JSON.stringify(
        {
          "hermes.agent.env": { HERMES_HOME: bench.hermesHome },
          "hermes.trace": true,
          "workbench.startupEditor": "none",
          "workbench.tips.enabled": false,
          "workbench.welcomePage.walkthroughs.openOnInstall": false,
          "workbench.secondarySideBar.defaultVisibility": "hidden",
          "chat.disableAIFeatures": true,
          "security.workspace.trust.enabled": false,
          "extensions.autoCheckUpdates": false,
          "extensions.autoUpdate": false,
          "extensions.ignoreRecommendations": true,
          "telemetry.telemetryLevel": "off",
          "update.mode": "none",
          "git.enabled": false,
          "terminal.integrated.enablePersistentSessions": false,
          "window.confirmBeforeClose": "never",
          ...options.settings,
        },
        null,
        2,
      ),
    );

    installExtension(VSIX, { userDataDir: bench.userDataDir, extensionsDir });
    bench.server = await startCodeServer({ userDataDir: bench.userDataDir, extensionsDir, workspace: bench.workspace, logFile: codeServerLog });
    browser = await launchBrowser();
    bench.page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    // Errors in the workbench or the panel's frames, for test-artifacts/e2e/<prefix>browser-console.log.
    bench.page.on("console", (message) => {
      if (message.type() === "error" || message.type() === "warning") consoleLines.push(`[${message.type()}] ${message.text()}`);
    });
    bench.page.on("pageerror", (error) => consoleLines.push(`[pageerror] ${error.stack ?? error.message}`));
  });

  after(async () => {
    await browser?.close().catch(() => undefined);
    await bench.server?.stop();
    const leftovers = await waitForAgentsToExit(bench.hermesHome, 5000);
    saveLogs(options.logPrefix, codeServerLog, bench.userDataDir, bench.hermesHome);
    await bench.model?.close();
    if (bench.timings.length) writeFileSync(path.join(ARTIFACTS, `${options.logPrefix}timings.txt`), bench.timings.join("\n") + "\n");
    writeFileSync(path.join(ARTIFACTS, `${options.logPrefix}browser-console.log`), consoleLines.join("\n") + "\n");
    if (base) rmSync(base, { recursive: true, force: true, maxRetries: 2 });
    assert.deepEqual(leftovers, [], "agent processes outlived code-server (orphans)");
  });

  bench.shot = async (name) => {
    await bench.page?.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true }).catch(() => undefined);
  };
  bench.step = async (name, body) => {
    const started = Date.now();
    try {
      await body();
    } catch (error) {
      await bench.shot(`failed-${name}`);
      bench.timings.push(`${name}: FAILED after ${Date.now() - started} ms`);
      throw error;
    }
    await bench.shot(name);
    bench.timings.push(`${name}: ${Date.now() - started} ms`);
  };
  return bench;
}

/** code-server's log, the extension host's logs (with the "Hermes" output channel) and Hermes's own logs. */
function saveLogs(prefix: string, codeServerLog: string, userDataDir: string, hermesHome: string): void {
  mkdirSync(ARTIFACTS, { recursive: true });
  const copy = (from: string, to: string) => {
    if (from && existsSync(from)) cpSync(from, path.join(ARTIFACTS, `${prefix}${to}`), { recursive: true });
  };
  copy(codeServerLog, "code-server.log");
  copy(path.join(userDataDir, "logs"), "vscode-logs");
  copy(path.join(hermesHome, "logs"), "hermes-logs");
  copy(path.join(hermesHome, "config.yaml"), "hermes-config.yaml");
  // The "Hermes" output channel of each extension host (one per window load), at the top level.
  const channels = userDataDir && existsSync(path.join(userDataDir, "logs"))
    ? readdirSync(path.join(userDataDir, "logs"), { recursive: true, encoding: "utf8" }).filter((file) => path.basename(file) === "Hermes.log").sort()
    : [];
  channels.forEach((file, i) => copy(path.join(userDataDir, "logs", file), `hermes-output-${i + 1}.log`));
}

/** The extension host's log lines of this run (every window load), for checks on activation errors. */
export function extensionHostLog(userDataDir: string): string {
  const dir = path.join(userDataDir, "logs");
  if (!existsSync(dir)) return "";
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((file) => /exthost\.log$/.test(path.basename(file)))
    .map((file) => readFileSync(path.join(dir, file), "utf8"))
    .join("\n");
}

// ── panel helpers ────────────────────────────────────────────────────────────────────────

export async function send(panel: Frame, text: string): Promise<void> {
  const composer = panel.locator("[data-testid=composer]");
  await composer.click();
  await composer.fill(text);
  await panel.locator("[data-testid=send]").click();
}

/** Polls the last agent message until it contains `final`; returns every distinct text seen. */
export async function watchAgentText(panel: Frame, final: string, timeoutMs: number): Promise<string[]> {
  const seen: string[] = [];
  const deadline = Date.now() + timeoutMs;
  const messages = panel.locator("[data-testid=msg-agent]");
  for (;;) {
    const count = await messages.count();
    const text = count > 0 ? ((await messages.nth(count - 1).textContent()) ?? "") : "";
    if (seen[seen.length - 1] !== text) seen.push(text);
    if (text.includes(final)) return seen;
    if (Date.now() > deadline) throw new Error(`the reply never completed; last text: ${JSON.stringify(text)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The turn is over: the stop button is gone and the send button is back. */
export async function waitForIdle(panel: Frame): Promise<void> {
  await panel.locator("[data-testid=stop]").waitFor({ state: "hidden", timeout: 60_000 });
  await panel.locator("[data-testid=send]").waitFor({ state: "visible", timeout: 60_000 });
}

export type Locator = ReturnType<Frame["locator"]>;

export async function waitForAttribute(locator: Locator, name: string, expected: RegExp, timeoutMs: number): Promise<void> {
  let last: string | null = null;
  await waitFor(
    async () => {
      last = (await locator.count()) > 0 ? await locator.getAttribute(name) : null;
      return last !== null && expected.test(last);
    },
    timeoutMs,
    () => `${name} is ${JSON.stringify(last)}, expected ${expected}`,
  );
}

export async function waitForCount(locator: Locator, n: number, timeoutMs: number): Promise<void> {
  let last = 0;
  await waitFor(async () => (last = await locator.count()) === n, timeoutMs, () => `expected ${n} elements, found ${last}`);
}

export async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs: number, message: string | (() => string)): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(typeof message === "string" ? message : message());
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// ── logs and processes ───────────────────────────────────────────────────────────────────

/** Processes started with our HERMES_HOME (the agent); waits for them to end, kills and names any left. */
export async function waitForAgentsToExit(home: string, timeoutMs: number): Promise<string[]> {
  if (!home) return [];
  const deadline = Date.now() + timeoutMs;
  let found = agentProcesses(home);
  while (found.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    found = agentProcesses(home);
  }
  for (const { pid } of found) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  return found.map(({ pid, command }) => `${pid} ${command}`);
}

export function agentProcesses(home: string): { pid: number; command: string }[] {
  const needle = `HERMES_HOME=${home}\0`;
  const found: { pid: number; command: string }[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const environ = readFileSync(`/proc/${entry}/environ`, "latin1");
      if (!environ.includes(needle)) continue;
      found.push({ pid: Number(entry), command: readFileSync(`/proc/${entry}/cmdline`, "latin1").replace(/\0/g, " ").trim() });
    } catch {
      // exited meanwhile, or not ours to read
    }
  }
  return found;
}
