// `hermes doctor` on a good setup (scripted model server, a real MCP server) and on broken
// ones: each problem is a FAIL line with its fix, and the exit code says whether any failed.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { promisify } from "node:util";
import { stringify as toYaml } from "yaml";
import { HERMES_BIN, makeTempDir, scriptedConfig } from "../support/acp-harness";
import { FILESYSTEM, freePort } from "../support/mcp-servers";
import { useScriptedModel } from "../support/scripted-model";

const run = promisify(execFile);
const scripted = useScriptedModel();

interface Check {
  name: string;
  status: "ok" | "warn" | "fail";
  detail: string;
  fix?: string;
}

async function doctorHome(options: { config?: unknown; configText?: string; env?: string; homeMode?: number; envMode?: number }): Promise<string> {
  const home = path.join(await makeTempDir("hermes-doctor-"), "home");
  await mkdir(home, { mode: options.homeMode ?? 0o700 });
  await chmod(home, options.homeMode ?? 0o700); // the umask must not decide the mode under test
  if (options.config !== undefined) await writeFile(path.join(home, "config.yaml"), toYaml(options.config));
  if (options.configText !== undefined) await writeFile(path.join(home, "config.yaml"), options.configText);
  if (options.env !== undefined) {
    await writeFile(path.join(home, ".env"), options.env);
    await chmod(path.join(home, ".env"), options.envMode ?? 0o600);
  }
  return home;
}

async function doctor(home: string, args: string[] = []) {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && !key.startsWith("HERMES_") && !key.endsWith("_API_KEY")) env[key] = value;
  try {
    const { stdout, stderr } = await run(process.execPath, [HERMES_BIN, "doctor", ...args], { env: { ...env, HERMES_HOME: home }, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error: any) {
    return { code: error.code as number, stdout: error.stdout as string, stderr: error.stderr as string };
  }
}

async function doctorJson(home: string, args: string[] = []) {
  const result = await doctor(home, ["--json", ...args]);
  const report = JSON.parse(result.stdout) as { ok: boolean; checks: Check[] };
  const byName = (name: string) => report.checks.find((c) => c.name === name);
  return { ...result, report, byName };
}

test("a good setup passes: the key works in one real call, the endpoint answers, the index opens, MCP tools are listed", async () => {
  const model = scripted();
  const before = model.requests.length;
  model.enqueue({ text: "OK" });
  const home = await doctorHome({
    config: scriptedConfig(model.url, { mcp_servers: { files: { command: process.execPath, args: [FILESYSTEM, "${HOME_DIR}"] } } }),
    env: "HOME_DIR=/tmp\n",
  });
  const { code, report, byName, stderr } = await doctorJson(home);
  assert.equal(code, 0, JSON.stringify(report.checks, null, 2) + stderr);
  assert.equal(report.ok, true);
  for (const name of ["node", "home", ".env", "disk", "config", "model", "endpoint", "model call", "sessions", "mcp files"]) {
    assert.equal(byName(name)?.status, "ok", `${name}: ${JSON.stringify(byName(name))}`);
  }
  assert.match(byName("model call")!.detail, /fake-model answered .*"OK"/);
  assert.match(byName("mcp files")!.detail, /stdio: \d+ tools/);
  assert.equal(model.requests.length, before + 1, "exactly one model call");
  assert.equal(model.requests.at(-1)!.body.stream, true);
  assert.ok(["git", "ripgrep", "sandbox"].every((name) => byName(name)), "git, ripgrep and the sandbox are looked at");
  assert.equal(stderr, "", "no log noise");

  // The same, for a person: one line per check, a summary, exit 0.
  model.enqueue({ text: "OK" });
  const text = await doctor(home);
  assert.equal(text.code, 0);
  assert.match(text.stdout, /^ok {4}model call {3}/m);
  assert.match(text.stdout, /everything needed works/);
});

test("a broken setup fails, naming each problem with its fix", async () => {
  const model = scripted();

  // Group-writable home, a readable .env, and a model server that rejects the key.
  model.enqueue({ status: 401 });
  const exposed = await doctorHome({ config: scriptedConfig(model.url), env: "OPENAI_API_KEY=sk-x\n", homeMode: 0o775, envMode: 0o644 });
  const insecure = await doctorJson(exposed);
  assert.equal(insecure.code, 1);
  assert.equal(insecure.report.ok, false);
  assert.equal(insecure.byName("home")?.status, "fail");
  assert.match(insecure.byName("home")!.fix!, /^chmod go-w /);
  assert.equal(insecure.byName(".env")?.status, "fail");
  assert.match(insecure.byName(".env")!.fix!, /^chmod 600 .*\.env$/);
  assert.equal(insecure.byName("model call")?.status, "fail");
  assert.match(insecure.byName("model call")!.detail, /401/);
  for (const place of ["HERMES_API_KEY", "model.api_key in", `HERMES_127_0_0_1_${new URL(model.url).port}_API_KEY`, ".env"]) assert.ok(insecure.byName("model call")!.fix!.includes(place), place);

  // Invalid YAML: the config check fails with the whole message; no model follows from it.
  const yaml = await doctorJson(await doctorHome({ configText: "model:\n  provider: [openai\n" }));
  assert.equal(yaml.code, 1);
  assert.equal(yaml.byName("config")?.status, "fail");
  assert.match(yaml.byName("config")!.detail, /invalid YAML: .*line \d+, column \d+/);
  assert.match(yaml.byName("config")!.fix!, /Fix the YAML syntax in .*config\.yaml at the line shown above/);

  // Nothing listens at the endpoint: the endpoint fails and no model call is attempted.
  const closed = `http://127.0.0.1:${await freePort()}/v1`;
  const down = await doctorJson(await doctorHome({ config: scriptedConfig(closed, { mcp_servers: { ghost: { command: "/nonexistent/mcp-server" } } }) }));
  assert.equal(down.code, 1);
  assert.equal(down.byName("endpoint")?.status, "fail");
  assert.match(down.byName("endpoint")!.detail, /connection refused/);
  assert.match(down.byName("endpoint")!.fix!, /model\.base_url/);
  assert.equal(down.byName("model call"), undefined);
  assert.equal(down.byName("mcp ghost")?.status, "fail");
  assert.match(down.byName("mcp ghost")!.fix!, /mcp_servers\.ghost/);

  // --offline skips the network checks: the same broken endpoint is then only a warning.
  // A sandbox turned off is a warning that says how to turn it back on.
  const offline = await doctorJson(await doctorHome({ config: scriptedConfig(closed, { terminal: { sandbox: "off" } }) }), ["--offline"]);
  assert.equal(offline.code, 0, JSON.stringify(offline.report.checks, null, 2));
  assert.equal(offline.byName("endpoint")?.status, "warn");
  assert.equal(offline.byName("sandbox")?.status, "warn");
  assert.match(offline.byName("sandbox")!.fix!, /terminal\.sandbox: auto/);

  // The human form shows FAIL lines with their fixes and exits 1.
  const text = await doctor(await doctorHome({ configText: "model:\n  provider: [openai\n" }));
  assert.equal(text.code, 1);
  assert.match(text.stdout, /^FAIL {2}config {7}/m);
  assert.match(text.stdout, /fix: /);
  assert.match(text.stdout, /problems? to fix/);

  const usage = await doctor(exposed, ["--bogus"]);
  assert.equal(usage.code, 2);
});

test("a custom endpoint whose key an older setup stored as OPENAI_API_KEY still works, and doctor says to move it", async () => {
  const model = scripted();
  model.enqueue({ text: "OK" });
  const config = { model: { provider: "custom", name: "fake-model", base_url: model.url, api_mode: "chat_completions" }, sessions: { auto_title: false } };
  const home = await doctorHome({ config, env: "OPENAI_API_KEY=sk-custom-legacy\n" });
  const { byName } = await doctorJson(home);
  assert.equal(byName("model call")?.status, "ok", JSON.stringify(byName("model call")));
  assert.equal(model.requests.at(-1)!.headers.authorization, "Bearer sk-custom-legacy");
  const check = byName("model")!;
  assert.equal(check.status, "warn", JSON.stringify(check));
  assert.match(check.detail, /OPENAI_API_KEY in \$HERMES_HOME\/\.env, stored for this endpoint by an older `hermes setup`/);
  assert.match(check.fix!, new RegExp(`hermes setup --provider custom --base-url ${model.url} --model fake-model\` again: it moves the key to HERMES_127_0_0_1_${new URL(model.url).port}_API_KEY`));
});
