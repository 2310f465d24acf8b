// `npm run test:extension:electron`: the suite in test/extension/suite under @vscode/test-electron.
// It downloads a VS Code build (so it needs network access to update.code.visualstudio.com; it
// cannot run offline, where `npm run test:extension` runs the same suite in code-server), then
// starts it with this repository as the extension under development and
// test/extension/suite/index.cjs as the test runner. host-fixture.cjs prepares the scripted model,
// HERMES_HOME, workspace and settings, and removes them at the end.
//
// Environment: VSCODE_VERSION (default "stable"; e.g. "1.90.0" for the oldest supported),
// VSCODE_EXECUTABLE (use an installed VS Code instead of downloading one),
// HERMES_KEEP_TEST_DIRS=1 (keep the temporary folders for inspection).
"use strict";
const { runTests } = require("@vscode/test-electron");
const { agentsLeft, prepareHost } = require("./host-fixture.cjs");

async function main() {
  const host = await prepareHost();
  try {
    await runTests({
      version: process.env.VSCODE_VERSION || "stable",
      vscodeExecutablePath: process.env.VSCODE_EXECUTABLE || undefined,
      extensionDevelopmentPath: host.root,
      extensionTestsPath: host.suiteEntry,
      extensionTestsEnv: host.suiteEnv,
      launchArgs: [
        host.workspace,
        "--user-data-dir", host.userDataDir,
        "--extensions-dir", host.extensionsDir,
        "--disable-extensions", // other extensions; the one under development still loads
        "--disable-workspace-trust",
        "--skip-welcome",
        "--skip-release-notes",
        "--disable-gpu",
      ],
    });
    // Deactivation stops the agent's process group: nothing started with our HERMES_HOME survives VS Code.
    const leftovers = await agentsLeft(host.hermesHome, 5000);
    if (leftovers.length > 0) throw new Error(`agent processes outlived VS Code: ${leftovers.join(", ")}`);
  } finally {
    await host.cleanup();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error instanceof Error ? error.stack || error.message : error);
    process.exit(1);
  },
);
