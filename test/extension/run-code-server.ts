// `npm run test:extension`: the extension suite (test/extension/suite) in code-server, the real
// VS Code that runs offline here (test/e2e/setup-tools.sh installs it). Same suite, same checks
// as under @vscode/test-electron (run-tests.cjs), which needs to download VS Code.
//
// VS Code's web workbench takes the extension under development and the test runner from its
// `payload` query parameter, as vscode-remote URIs: the extension then loads from this checkout
// into code-server's extension host (Node), which runs suite/index.cjs against the real `vscode`
// API. A built workbench reads those only with its smoke-test driver enabled (VS Code's server
// flag --enable-smoke-test-driver, which code-server's command line does not pass on): this
// script sets `developmentOptions.enableSmokeTestDriver` in the configuration the workbench page
// carries, on its way to chromium. When the suite is done the extension host exits with its code (0: every test passed) and
// the workbench hands that code to `window.codeAutomationExit`, which this script provides
// through chromium (playwright-core), with the host's console lines (`ok - …`) printed as they come.
//
// Exits 0 when the suite passed and no agent process outlived it, 1 otherwise.
// Environment: HERMES_KEEP_TEST_DIRS=1 keeps the temporary folders (code-server.log in them).
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { chromium, type Browser } from "playwright-core";
import { checkTools, startCodeServer, type CodeServer } from "../e2e/code-server";
import { CHROMIUM_ARGS } from "../e2e/workbench";

interface Host {
  root: string;
  suiteEntry: string;
  workspace: string;
  hermesHome: string;
  userDataDir: string;
  extensionsDir: string;
  base: string;
  suiteEnv: Record<string, string>;
  cleanup: () => Promise<void>;
}
interface HostFixture {
  prepareHost: () => Promise<Host>;
  agentsLeft: (home: string, timeoutMs: number) => Promise<string[]>;
}

const { prepareHost, agentsLeft } = createRequire(import.meta.url)("./host-fixture.cjs") as HostFixture;

/** The whole suite: activation, then chats with the scripted model (each test has its own timeout). */
const SUITE_TIMEOUT_MS = Number(process.env.HERMES_SUITE_TIMEOUT_MS ?? 300_000);

async function main(): Promise<number> {
  checkTools();
  const started = Date.now();
  const host = await prepareHost();
  let server: CodeServer | undefined;
  let browser: Browser | undefined;
  try {
    const logFile = path.join(host.base, "code-server.log");
    server = await startCodeServer({
      userDataDir: host.userDataDir,
      extensionsDir: host.extensionsDir,
      workspace: host.workspace,
      logFile,
      // The extension host inherits code-server's environment: the suite reads these.
      env: host.suiteEnv,
    });
    // A page fulfilled by the route below counts as a public one to chromium, which would then
    // block its connections to code-server on 127.0.0.1 (the extension host's web socket).
    browser = await chromium.launch({
      executablePath: process.env.E2E_CHROMIUM ?? "/usr/bin/chromium",
      args: [...CHROMIUM_ARGS, "--disable-features=LocalNetworkAccessChecks"],
    });
    const page = await browser.newPage();

    await page.route(`${server.url}/?*`, async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, body: withSmokeTestDriver(await response.text()) });
    });
    const exitCode = new Promise<number>((resolve) => {
      void page.exposeFunction("codeAutomationExit", (code: number) => resolve(code));
    });
    // The extension host's console reaches the page's console in an extension test run.
    page.on("console", (message) => {
      // Forwarded lines come as "%c INFO color: #33f <text>" (the workbench styles them).
      const text = message.text().replace(/^%c\s+\w+\s+color: #\w+\s/, "");
      if (process.env.HERMES_TEST_VERBOSE === "1" || /^(not )?ok - |^\s{2}|passed, \d+ failed/.test(text)) console.log(text);
    });

    const remote = (file: string) => `vscode-remote://127.0.0.1:${server!.port}${file.split(path.sep).join("/")}`;
    const payload = [
      ["extensionDevelopmentPath", remote(host.root)],
      ["extensionTestsPath", remote(host.suiteEntry)],
      ["skipWelcome", "true"],
    ];
    await page.goto(`${server.url}/?folder=${encodeURIComponent(host.workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`);

    let timer: NodeJS.Timeout | undefined;
    const code = await Promise.race([
      exitCode,
      new Promise<number>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`the suite did not finish within ${SUITE_TIMEOUT_MS / 1000} s; see ${logFile}`)), SUITE_TIMEOUT_MS);
      }),
    ]).finally(() => clearTimeout(timer));
    console.log(`extension suite in code-server: exit code ${code} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
    if (code !== 0) {
      if (existsSync(logFile)) console.log(`code-server log: ${logFile} (HERMES_KEEP_TEST_DIRS=1 keeps it)`);
      return 1;
    }

    // The extension host ended with the suite: the agent it started must not outlive it.
    await browser.close();
    browser = undefined;
    const leftovers = await agentsLeft(host.hermesHome, 5_000);
    if (leftovers.length > 0) {
      console.error(`agent processes outlived the extension host: ${leftovers.join(", ")}`);
      return 1;
    }
    return 0;
  } finally {
    await browser?.close();
    await server?.stop();
    await host.cleanup();
  }
}

const WEB_CONFIGURATION = /(<meta\b[^>]*\bid="vscode-workbench-web-configuration"[^>]*\bdata-settings=")([^"]*)(")/;

/** The workbench page with `developmentOptions.enableSmokeTestDriver` set in its configuration. */
function withSmokeTestDriver(html: string): string {
  const match = WEB_CONFIGURATION.exec(html);
  if (!match) throw new Error("the workbench page has no vscode-workbench-web-configuration element");
  const unescaped = match[2].replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
  const config = JSON.parse(unescaped) as { developmentOptions?: Record<string, unknown> };
  config.developmentOptions = { ...config.developmentOptions, enableSmokeTestDriver: true };
  const escaped = JSON.stringify(config).replace(/&/g, "&amp;").replace(/"/g, "&quot;");
  return html.replace(WEB_CONFIGURATION, (_, open: string, _value: string, close: string) => `${open}${escaped}${close}`);
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  },
);
