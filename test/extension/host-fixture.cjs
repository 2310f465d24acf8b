// What the extension suite (test/extension/suite) needs around whichever VS Code runs it, shared
// by run-tests.cjs (@vscode/test-electron) and run-code-server.ts (code-server + chromium):
//   - checks the bundles exist (`npm run build` first),
//   - starts the scripted model server (test/support/scripted-model-cli.ts, real HTTP + SSE,
//     OpenAI Chat Completions) with the replies the suite expects, in order,
//   - writes a temporary HERMES_HOME whose config.yaml points at it,
//   - writes a temporary workspace and user settings (hermes.agent.env → that HERMES_HOME).
// `cleanup()` stops the model server and removes everything temporary
// (HERMES_KEEP_TEST_DIRS=1 keeps the folders for inspection).
"use strict";
const { spawn } = require("node:child_process");
const { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const readline = require("node:readline");
const { REPLIES } = require("./suite/replies.cjs");

const ROOT = path.resolve(__dirname, "../..");
const SUITE_ENTRY = path.join(__dirname, "suite", "index.cjs");

async function prepareHost() {
  for (const bundle of ["dist/extension.cjs", "dist/hermes.js", "dist/webview.js"]) {
    if (!existsSync(path.join(ROOT, bundle))) throw new Error(`${bundle} is missing: run npm run build first`);
  }

  const base = mkdtempSync(path.join(os.tmpdir(), "hermes-vscode-test-"));
  const workspace = path.join(base, "workspace");
  const hermesHome = path.join(base, "hermes-home");
  const userDataDir = path.join(base, "user-data");
  const extensionsDir = path.join(base, "extensions");
  for (const dir of [workspace, hermesHome, path.join(userDataDir, "User"), extensionsDir]) mkdirSync(dir, { recursive: true });

  const model = await startModel(path.join(base, "replies.json"));
  const cleanup = async () => {
    await model.stop();
    if (process.env.HERMES_KEEP_TEST_DIRS === "1") console.log(`kept ${base}`);
    else rmSync(base, { recursive: true, force: true, maxRetries: 2 });
  };
  try {
    writeFileSync(path.join(workspace, "greeting.txt"), "hello\nworld\n");
    writeFileSync(
      path.join(hermesHome, "config.yaml"),
      [
        "model:",
        "  provider: custom",
        "  name: fake-model",
        `  base_url: ${model.url}`,
        "  api_key: sk-test-not-a-real-key",
        "  api_mode: chat_completions",
        "sessions:",
        "  auto_title: false # a title request would take the scripted replies",
        "logging:",
        "  level: debug",
        "",
      ].join("\n"),
    );
    writeFileSync(
      path.join(userDataDir, "User", "settings.json"),
      JSON.stringify(
        {
          "hermes.agent.env": { HERMES_HOME: hermesHome },
          "hermes.trace": true,
          // The suite checks an edit lands in the editor without a review card to click.
          "hermes.defaultMode": "accept_edits",
          "hermes.review.edits": "off",
          "workbench.startupEditor": "none",
          "security.workspace.trust.enabled": false,
          "chat.disableAIFeatures": true,
          "telemetry.telemetryLevel": "off",
          "update.mode": "none",
          "extensions.autoUpdate": false,
          "git.enabled": false,
        },
        null,
        2,
      ),
    );
  } catch (error) {
    await cleanup();
    throw error;
  }
  return {
    root: ROOT,
    suiteEntry: SUITE_ENTRY,
    workspace,
    hermesHome,
    userDataDir,
    extensionsDir,
    base,
    /** The environment the suite reads (test/extension/suite/chat.test.cjs). */
    suiteEnv: { HERMES_TEST_WORKSPACE: workspace, HERMES_TEST_HOME: hermesHome, HERMES_TEST_MODEL_URL: model.url },
    cleanup,
  };
}

/** Pids of processes whose environment has our HERMES_HOME, once they had `timeoutMs` to exit (Linux only). */
async function agentsLeft(home, timeoutMs) {
  if (!existsSync("/proc/self/environ")) return [];
  const needle = `HERMES_HOME=${home}\0`;
  const find = () =>
    readdirSync("/proc").filter((entry) => {
      if (!/^\d+$/.test(entry) || Number(entry) === process.pid) return false;
      try {
        return readFileSync(`/proc/${entry}/environ`, "latin1").includes(needle);
      } catch {
        return false;
      }
    });
  // Not our children: no exit event reaches us, so this polls /proc until the deadline.
  const deadline = Date.now() + timeoutMs;
  let found = find();
  while (found.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    found = find();
  }
  for (const pid of found) {
    try {
      process.kill(Number(pid), "SIGKILL");
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** The scripted model in its own process (it is TypeScript; tsx runs it), serving REPLIES in order. */
function startModel(repliesFile) {
  writeFileSync(repliesFile, JSON.stringify(REPLIES));
  const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "test/support/scripted-model-cli.ts"), repliesFile], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error("the scripted model server did not start within 30 s"));
    }, 30_000);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the scripted model server exited (${code})`));
    });
    readline.createInterface({ input: child.stdout }).once("line", (line) => {
      clearTimeout(timer);
      resolve({ url: JSON.parse(line).url, stop });
    });
  });
}

module.exports = { prepareHost, agentsLeft };
