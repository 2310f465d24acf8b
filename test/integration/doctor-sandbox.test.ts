// `hermes doctor`'s sandbox line is the result of a probe command run inside the sandbox with
// the mounts a command in this folder would get, for a new user whose HOME is under /tmp too
// (there every command failed while doctor said the sandbox was fine).
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { promisify } from "node:util";
import { stringify as toYaml } from "yaml";
import { HERMES_BIN, scriptedConfig } from "../support/acp-harness";
import { sandboxSkip } from "../support/sandbox";
import { makeTempDirSync } from "../support/temp-dirs";

const run = promisify(execFile);

async function doctorSandboxCheck(home: string, hermesHome: string, cwd: string) {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && !key.startsWith("HERMES_") && !key.endsWith("_API_KEY")) env[key] = value;
  const result = await run(process.execPath, [HERMES_BIN, "doctor", "--json", "--offline"], { cwd, env: { ...env, HOME: home, HERMES_HOME: hermesHome }, timeout: 60_000 }).catch((error: any) => error);
  const report = JSON.parse(result.stdout) as { checks: { name: string; status: string; detail: string; fix?: string }[] };
  return report.checks.find((check) => check.name === "sandbox");
}

for (const base of ["/tmp", "/var/tmp"]) {
  test(`doctor with HOME and the workspace under ${base}: the sandbox is ok because a probe ran in it`, { skip: sandboxSkip() }, async () => {
    const root = makeTempDirSync("hermes-doctor-home-", base);
    const home = path.join(root, "home");
    const hermesHome = path.join(home, ".hermes");
    const workspace = path.join(root, "project");
    for (const dir of [hermesHome, workspace]) mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(hermesHome, "config.yaml"), toYaml(scriptedConfig("http://127.0.0.1:9/v1", { terminal: { sandbox: "on" } })));
    const check = await doctorSandboxCheck(home, hermesHome, workspace);
    assert.equal(check?.status, "ok", JSON.stringify(check));
    assert.match(check!.detail, new RegExp(`a probe command ran inside it with ${workspace} as the workspace`));
  });
}
