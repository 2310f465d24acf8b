// `hermes doctor`: checks what Hermes depends on and explains each problem with its fix.
// Exits 1 when any check fails (warnings alone exit 0); `--json` prints one object instead.
// `--offline` skips the checks that need the network (the endpoint probe and the model call).
import { checkBrowser } from "./doctor-browser";
import { loadConfig } from "../config/load";
import { configureLogging, createLogger } from "../util/log";
import { VERSION } from "../version";
import { paletteFor } from "./terminal-colour";
import {
  checkConfig,
  checkDiskSpace,
  checkEndpoint,
  checkHomePermissions,
  checkMcpServers,
  checkPlugins,
  checkProjectPlugins,
  checkWorktrees,
  checkModel,
  checkModelCall,
  checkNode,
  checkPrograms,
  checkSandbox,
  checkSessionIndex,
  type CheckResult,
} from "./doctor-checks";

export interface DoctorOptions {
  json: boolean;
  offline: boolean;
  cwd: string;
}

export async function runDoctor(options: DoctorOptions): Promise<number> {
  const loaded = loadConfig();
  // Findings are the output; the modules the checks load must not add log lines to it.
  configureLogging({ home: loaded.home, stderrLevel: "error" });
  const log = createLogger("doctor");
  const print = options.json ? () => {} : printResult;
  const results: CheckResult[] = [];
  const add = (...found: CheckResult[]) => {
    for (const result of found) {
      results.push(result);
      print(result);
    }
  };

  if (!options.json) process.stdout.write(`hermes ${VERSION} doctor\n\n`);
  add(checkNode());
  add(...checkHomePermissions(loaded.home));
  add(checkDiskSpace(loaded.home));
  add(checkConfig(loaded));
  const { result: modelResult, model } = await checkModel(loaded);
  add(modelResult);
  if (model && !options.offline) {
    const endpoint = await checkEndpoint(loaded, model);
    add(endpoint);
    // The call would only repeat the endpoint's failure, slower.
    if (endpoint.status !== "fail") add(await checkModelCall(loaded, model));
  } else if (model) {
    add({ name: "endpoint", status: "warn", detail: "not checked (--offline)", fix: "Run `hermes doctor` without --offline to check the endpoint and the key." });
  }
  add(...checkPrograms());
  add(await checkSandbox(loaded, options.cwd));
  add(checkBrowser(loaded));
  add(await checkSessionIndex(loaded.home, log));
  add(...(await checkPlugins(loaded.home)));
  add(...(await checkProjectPlugins(loaded.home, options.cwd)));
  add(...(await checkWorktrees(loaded, log)));
  add(...(await checkMcpServers(loaded, options.cwd, log)));

  const failed = results.filter((r) => r.status === "fail").length;
  const warned = results.filter((r) => r.status === "warn").length;
  if (options.json) {
    process.stdout.write(`${JSON.stringify({ version: VERSION, ok: failed === 0, checks: results }, null, 2)}\n`);
  } else {
    const summary = failed ? `${failed} problem${failed === 1 ? "" : "s"} to fix` : "everything needed works";
    process.stdout.write(`\n${summary}${warned ? ` (${warned} warning${warned === 1 ? "" : "s"})` : ""}\n`);
  }
  return failed ? 1 : 0;
}

const LABEL: Record<CheckResult["status"], string> = { ok: "ok  ", warn: "warn", fail: "FAIL" };

function printResult(result: CheckResult): void {
  const [first, ...rest] = result.detail.split("\n");
  const colours = paletteFor(process.stdout);
  const paint = result.status === "ok" ? colours.green : result.status === "warn" ? colours.yellow : (text: string) => colours.bold(colours.red(text));
  const lines = [`${paint(LABEL[result.status])}  ${result.name.padEnd(12)} ${first}`, ...rest.map((line) => `      ${" ".repeat(12)} ${line}`)];
  if (result.fix) lines.push(...result.fix.split("\n").map((line, i) => `      ${" ".repeat(12)} ${i === 0 ? "fix: " : "     "}${line}`));
  process.stdout.write(`${lines.join("\n")}\n`);
}
