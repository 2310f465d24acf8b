// The end-to-end check of the VS Code extension: the packaged .vsix installed into code-server
// (a real VS Code), its chat panel driven in Debian's chromium, the agent answered by the
// scripted model server. One flow, as a user would go through it:
//   open the panel → a prompt gets a streamed reply → a command asks and is approved →
//   an edit is reviewed per hunk (one of two accepted) → the file on disk has only that hunk →
//   the window reloads → the session is found in history and opens again.
// Screenshots of every step (and of a failure) and the logs of code-server, the extension host
// and Hermes land in test-artifacts/e2e/. Run with `npm run test:e2e` (test/e2e/run.sh).
import assert from "node:assert/strict";
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import type { Browser, Frame, Page } from "playwright-core";
import { stringify as toYaml } from "yaml";
import { startScriptedModel, type ScriptedModel } from "../support/scripted-model";
import { checkTools, installExtension, ROOT, startCodeServer, type CodeServer } from "./code-server";
import { findPanelFrame, launchBrowser, openHermesView, resizeSidebar, waitForWorkbench } from "./workbench";

const ARTIFACTS = path.join(ROOT, "test-artifacts", "e2e");
const VSIX = path.resolve(process.env.HERMES_VSIX ?? path.join(ROOT, "hermes.vsix"));

const SIDEBAR_WIDTH = 560; // room for the panel in the screenshots
const FIRST_PROMPT = "Say hello to the end-to-end test";
const GREETING =
  "Hello from the **scripted model**! I can read, edit and run things in this workspace. Ask me to clean the build folder or to update your notes.";
const NOTES_BEFORE = Array.from({ length: 20 }, (_, i) => `Line ${i + 1}: note number ${i + 1}`).join("\n") + "\n";
// Two changes 16 lines apart: two separate hunks.
const NOTES_BOTH = NOTES_BEFORE.replace("Line 2: note number 2", "Line 2: note number 2, reviewed").replace("Line 19: note number 19", "Line 19: CHANGED");
const NOTES_FIRST_ONLY = NOTES_BEFORE.replace("Line 2: note number 2", "Line 2: note number 2, reviewed");

let model: ScriptedModel;
let server: CodeServer | undefined;
let browser: Browser | undefined;
let page: Page | undefined;
let base: string;
let workspace: string;
let hermesHome: string;
let userDataDir: string;
let codeServerLog: string;
const timings: string[] = [];
const consoleLines: string[] = [];

before(async () => {
  checkTools();
  assert.ok(existsSync(VSIX), `${VSIX} is missing: run npm run package (test/e2e/run.sh does)`);
  rmSync(ARTIFACTS, { recursive: true, force: true });
  mkdirSync(ARTIFACTS, { recursive: true });

  model = await startScriptedModel();
  base = path.join(os.tmpdir(), `hermes-e2e-${process.pid}`);
  rmSync(base, { recursive: true, force: true });
  workspace = path.join(base, "workspace");
  hermesHome = path.join(base, "hermes-home");
  userDataDir = path.join(base, "user-data");
  const extensionsDir = path.join(base, "extensions");
  codeServerLog = path.join(base, "code-server.log");
  for (const dir of [workspace, path.join(workspace, "build"), hermesHome, path.join(userDataDir, "User"), extensionsDir]) mkdirSync(dir, { recursive: true });

  writeFileSync(path.join(workspace, "notes.txt"), NOTES_BEFORE);
  writeFileSync(path.join(workspace, "build", "output.bin"), "stale build output\n");
  writeFileSync(
    path.join(hermesHome, "config.yaml"),
    toYaml({
      model: { provider: "custom", name: "fake-model", base_url: model.url, api_key: "sk-test-not-a-real-key", api_mode: "chat_completions" },
      // A background title request would take the scripted replies; the first-line title remains.
      sessions: { auto_title: false },
      logging: { level: "debug" },
    }),
  );
  writeFileSync(
    path.join(userDataDir, "User", "settings.json"),
    JSON.stringify(
      {
        "hermes.agent.env": { HERMES_HOME: hermesHome },
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
      },
      null,
      2,
    ),
  );

  installExtension(VSIX, { userDataDir, extensionsDir });
  server = await startCodeServer({ userDataDir, extensionsDir, workspace, logFile: codeServerLog });
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  // Errors in the workbench or the panel's frames, for test-artifacts/e2e/browser-console.log.
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") consoleLines.push(`[${message.type()}] ${message.text()}`);
  });
  page.on("pageerror", (error) => consoleLines.push(`[pageerror] ${error.stack ?? error.message}`));
});

after(async () => {
  await browser?.close().catch(() => undefined);
  await server?.stop();
  const leftovers = await waitForAgentsToExit(hermesHome, 5000);
  saveLogs();
  await model?.close();
  if (timings.length) writeFileSync(path.join(ARTIFACTS, "timings.txt"), timings.join("\n") + "\n");
  writeFileSync(path.join(ARTIFACTS, "browser-console.log"), consoleLines.join("\n") + "\n");
  rmSync(base, { recursive: true, force: true, maxRetries: 2 });
  assert.deepEqual(leftovers, [], "agent processes outlived code-server (orphans)");
});

test("the packaged extension in code-server: chat, permission, per-hunk review, history after reload", async () => {
  const p = page!;
  const started = Date.now();

  let panel!: Frame;
  await step("01-panel-open", async () => {
    await p.goto(`${server!.url}/?folder=${encodeURIComponent(workspace)}`);
    await waitForWorkbench(p);
    await openHermesView(p);
    await resizeSidebar(p, SIDEBAR_WIDTH);
    panel = await findPanelFrame(p);
    await panel.locator("[data-testid=composer]").waitFor({ state: "visible", timeout: 30_000 });
    // Opening the view starts the agent, with the environment from hermes.agent.env.
    await waitForAttribute(panel.locator("[data-testid=connection-status]").first(), "data-status", /^ready$/, 60_000);
    assert.ok(agentProcesses(hermesHome).length > 0, "no agent process runs with HERMES_HOME from hermes.agent.env");
  });

  await step("02-streamed-reply", async () => {
    model.enqueue({ text: GREETING, chunkDelayMs: 60 });
    await send(panel, FIRST_PROMPT);
    await panel.locator("[data-testid=msg-user]").filter({ hasText: FIRST_PROMPT }).waitFor({ timeout: 30_000 });
    const seen = await watchAgentText(panel, "Ask me to clean the build folder or to update your notes.", 60_000);
    // The reply arrived in pieces: the panel showed it growing before it was complete.
    const partial = seen.filter((text) => text.length > 0 && !text.includes("update your notes"));
    assert.ok(partial.length >= 2, `the reply should stream in visibly; saw only ${JSON.stringify(seen)}`);
    await panel.locator("[data-testid=msg-agent] strong").filter({ hasText: "scripted model" }).first().waitFor({ timeout: 10_000 });
    await waitForIdle(panel);
  });

  await step("03-permission-card", async () => {
    model.enqueue({ toolCalls: [{ name: "terminal", arguments: { command: "rm -rfv build" } }] }, { text: "The build folder is gone." });
    await send(panel, "Clean the build folder");
    const card = panel.locator("[data-testid=permission-card]").last();
    await card.waitFor({ state: "visible", timeout: 60_000 });
    await card.locator("[data-option-kind=allow_once]").waitFor({ state: "visible", timeout: 10_000 });
    // The card says why it asks (the command screen's reason), not just what.
    await card.getByText(/recursive delete/).waitFor({ state: "visible", timeout: 10_000 });
    assert.ok(existsSync(path.join(workspace, "build")), "nothing runs before the user answers");
  });

  await step("04-permission-approved", async () => {
    await panel.locator("[data-testid=permission-card]").last().locator("[data-option-kind=allow_once]").click();
    await panel.locator("[data-testid=msg-agent]").filter({ hasText: "The build folder is gone." }).waitFor({ timeout: 60_000 });
    await waitFor(() => !existsSync(path.join(workspace, "build")), 30_000, "build/ was not removed after the approval");
    await waitForAttribute(panel.locator("[data-testid=tool-card]").last(), "data-status", /^completed$/, 30_000);
    // The command ran in a VS Code terminal; its output (rm -v names what it removed) shows in the card.
    await panel.locator("[data-testid=tool-card]").last().getByText(/removed .*output\.bin/).waitFor({ state: "visible", timeout: 30_000 });
    await waitForIdle(panel);
  });

  await step("05-review-card", async () => {
    model.enqueue({ toolCalls: [{ name: "write_file", arguments: { path: "notes.txt", content: NOTES_BOTH } }] }, { text: "I updated notes.txt as you reviewed it." });
    await send(panel, "Update the second and the second-to-last note");
    const review = panel.locator("[data-testid=review-card]").last();
    const permission = panel.locator("[data-testid=permission-card] [data-option-kind=allow_once]");
    // In the default mode the edit may ask first (as a permission card) and then be held for review.
    await Promise.race([review.waitFor({ state: "visible", timeout: 60_000 }), permission.last().waitFor({ state: "visible", timeout: 60_000 })]);
    if (!(await review.isVisible()) && (await permission.count()) > 0) {
      await shot("05a-edit-permission");
      await permission.last().click();
    }
    await review.waitFor({ state: "visible", timeout: 60_000 });
    await waitForCount(review.locator("[data-testid=review-hunk]"), 2, 30_000);
    assert.equal(readFileSync(path.join(workspace, "notes.txt"), "utf8"), NOTES_BEFORE, "nothing is written before the review");
  });

  await step("06-review-decided", async () => {
    const review = panel.locator("[data-testid=review-card]").last();
    const hunks = review.locator("[data-testid=review-hunk]");
    await hunks.nth(0).locator("[data-testid=hunk-accept]").click();
    await waitForAttribute(hunks.nth(0), "data-decision", /^accepted$/, 10_000);
    await hunks.nth(1).locator("[data-testid=hunk-reject]").click();
    await waitForAttribute(hunks.nth(1), "data-decision", /^rejected$/, 10_000);
    await waitFor(() => readFileSync(path.join(workspace, "notes.txt"), "utf8") === NOTES_FIRST_ONLY, 30_000, () => `notes.txt on disk is not the first hunk only:\n${readFileSync(path.join(workspace, "notes.txt"), "utf8")}`);
    await waitForAttribute(review, "data-status", /^applied$/, 30_000);
    await panel.locator("[data-testid=msg-agent]").filter({ hasText: "I updated notes.txt" }).waitFor({ timeout: 60_000 });
    await waitForIdle(panel);
    // The model learnt that only part of its edit was written.
    const toolResults = model.requests.flatMap((r) => (r.body?.messages ?? []).filter((m: { role: string }) => m.role === "tool"));
    assert.ok(
      toolResults.some((m: { content: unknown }) => JSON.stringify(m.content).includes("accepted 1 of 2 hunks")),
      "the write_file result tells the model 1 of 2 hunks were accepted",
    );
  });

  await step("07-history-after-reload", async () => {
    await p.reload();
    await waitForWorkbench(p);
    await openHermesView(p);
    await resizeSidebar(p, SIDEBAR_WIDTH);
    panel = await findPanelFrame(p);
    await panel.locator("[data-testid=history-button]").click();
    const search = panel.locator("[data-testid=history-search]");
    await search.waitFor({ state: "visible", timeout: 30_000 });
    await search.fill("end-to-end");
    await panel.locator("[data-testid=history-item]").filter({ hasText: FIRST_PROMPT }).first().waitFor({ timeout: 30_000 });
  });

  await step("08-session-reopened", async () => {
    await panel.locator("[data-testid=history-item]").filter({ hasText: FIRST_PROMPT }).first().click();
    await panel.locator("[data-testid=msg-user]").filter({ hasText: FIRST_PROMPT }).waitFor({ timeout: 30_000 });
    await panel.locator("[data-testid=msg-agent]").filter({ hasText: "I updated notes.txt" }).waitFor({ timeout: 30_000 });
  });

  timings.push(`whole flow: ${Date.now() - started} ms`);
  assert.equal(readFileSync(path.join(workspace, "notes.txt"), "utf8"), NOTES_FIRST_ONLY);
});

// ── steps and screenshots ────────────────────────────────────────────────────────────────

async function step(name: string, body: () => Promise<void>): Promise<void> {
  const started = Date.now();
  try {
    await body();
  } catch (error) {
    await shot(`failed-${name}`);
    timings.push(`${name}: FAILED after ${Date.now() - started} ms`);
    throw error;
  }
  await shot(name);
  timings.push(`${name}: ${Date.now() - started} ms`);
}

async function shot(name: string): Promise<void> {
  await page?.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true }).catch(() => undefined);
}

// ── panel helpers ────────────────────────────────────────────────────────────────────────

async function send(panel: Frame, text: string): Promise<void> {
  const composer = panel.locator("[data-testid=composer]");
  await composer.click();
  await composer.fill(text);
  await panel.locator("[data-testid=send]").click();
}

/** Polls the last agent message until it contains `final`; returns every distinct text seen. */
async function watchAgentText(panel: Frame, final: string, timeoutMs: number): Promise<string[]> {
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
async function waitForIdle(panel: Frame): Promise<void> {
  await panel.locator("[data-testid=stop]").waitFor({ state: "hidden", timeout: 60_000 });
  await panel.locator("[data-testid=send]").waitFor({ state: "visible", timeout: 60_000 });
}

type Locator = ReturnType<Frame["locator"]>;

async function waitForAttribute(locator: Locator, name: string, expected: RegExp, timeoutMs: number): Promise<void> {
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

async function waitForCount(locator: Locator, n: number, timeoutMs: number): Promise<void> {
  let last = 0;
  await waitFor(async () => (last = await locator.count()) === n, timeoutMs, () => `expected ${n} elements, found ${last}`);
}

async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs: number, message: string | (() => string)): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(typeof message === "string" ? message : message());
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// ── logs and processes ───────────────────────────────────────────────────────────────────

/** code-server's log, the extension host's logs (with the "Hermes" output channel) and Hermes's own logs. */
function saveLogs(): void {
  mkdirSync(ARTIFACTS, { recursive: true });
  const copy = (from: string, to: string) => {
    if (existsSync(from)) cpSync(from, path.join(ARTIFACTS, to), { recursive: true });
  };
  copy(codeServerLog, "code-server.log");
  copy(path.join(userDataDir, "logs"), "vscode-logs");
  copy(path.join(hermesHome, "logs"), "hermes-logs");
  copy(path.join(hermesHome, "config.yaml"), "hermes-config.yaml");
  // The "Hermes" output channel of each extension host (one per window load), at the top level.
  const channels = existsSync(path.join(userDataDir, "logs"))
    ? readdirSync(path.join(userDataDir, "logs"), { recursive: true, encoding: "utf8" }).filter((file) => path.basename(file) === "Hermes.log").sort()
    : [];
  channels.forEach((file, i) => copy(path.join(userDataDir, "logs", file), `hermes-output-${i + 1}.log`));
}

/** Processes started with our HERMES_HOME (the agent); waits for them to end, kills and names any left. */
async function waitForAgentsToExit(home: string, timeoutMs: number): Promise<string[]> {
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

function agentProcesses(home: string): { pid: number; command: string }[] {
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
