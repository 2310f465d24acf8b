// The `hermes` command line: --version, --help, acp --check, and a chat turn that runs
// through the same agent app as `hermes acp`.
import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { promisify } from "node:util";
import { stringify as toYaml } from "yaml";
import { useScriptedModel } from "../support/scripted-model";
import { HERMES_BIN, makeTempDir, scriptedConfig } from "../support/acp-harness";

const run = promisify(execFile);
const scripted = useScriptedModel();

async function hermes(args: string[], options: { config?: unknown; env?: Record<string, string>; cwd?: string } = {}) {
  const home = await makeTempDir("hermes-home-");
  if (options.config !== undefined) await writeFile(path.join(home, "config.yaml"), toYaml(options.config));
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && !key.startsWith("HERMES_") && !key.endsWith("_API_KEY")) env[key] = value;
  Object.assign(env, { HERMES_HOME: home }, options.env);
  try {
    const { stdout, stderr } = await run(process.execPath, [HERMES_BIN, ...args], { env, cwd: options.cwd, timeout: 30_000 });
    return { code: 0, stdout, stderr };
  } catch (error: any) {
    return { code: error.code as number, stdout: error.stdout as string, stderr: error.stderr as string };
  }
}

test("--version and --help", async () => {
  const pkg = JSON.parse(await readFile(new URL("../../package.json", import.meta.url), "utf8"));
  const version = await hermes(["--version"]);
  assert.equal(version.code, 0);
  assert.equal(version.stdout.trim(), pkg.version);
  const help = await hermes(["--help"]);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /hermes acp/);
  assert.match(help.stdout, /hermes chat/);
  const wrong = await hermes(["frobnicate"]);
  assert.equal(wrong.code, 2);
  assert.match(wrong.stderr, /unknown command: frobnicate/);
});

test("acp --check prints the resolved model, or exits 1 with the reason", async () => {
  const model = scripted();
  const ok = await hermes(["acp", "--check"], { config: scriptedConfig(model.url) });
  assert.equal(ok.code, 0, ok.stderr);
  assert.match(ok.stdout, /provider:\s+custom/);
  assert.match(ok.stdout, /model:\s+fake-model/);
  assert.match(ok.stdout, new RegExp(`base_url:\\s+${model.url.replace(/[.]/g, "\\.")}`));
  assert.doesNotMatch(ok.stdout, /sk-test-not-a-real-key/, "the key itself is never printed");

  const envOverride = await hermes(["acp", "--check", "--offline"], { env: { HERMES_PROVIDER: "ollama", HERMES_MODEL: "qwen3:8b" } });
  assert.equal(envOverride.code, 0, envOverride.stderr);
  assert.match(envOverride.stdout, /base_url:\s+http:\/\/127\.0\.0\.1:11434\/v1/);
  assert.match(ok.stdout, /vision:\s+yes/, "the scripted model is configured to see");
  assert.match(envOverride.stdout, /vision:\s+no: images reach the model as a note \(set auxiliary_vision/, "an unknown model is taken as text-only");

  const missing = await hermes(["acp", "--check"]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /No model is configured/);

  const invalid = await hermes(["acp", "--check"], { config: { model: { provider: "custom", name: "m", base_url: "not a url" } } });
  assert.equal(invalid.code, 1);
  assert.match(invalid.stderr, /config\.yaml: model\.base_url: /);
  assert.match(invalid.stderr, /Fix model\.base_url in .*config\.yaml as described above, then run `hermes acp --check`/);
  assert.doesNotMatch(invalid.stderr, /No model is configured/, "the cause, not the generic consequence");

  const noKey = await hermes(["acp", "--check"], { config: { model: { provider: "openai", name: "gpt-4.1" } } });
  assert.equal(noKey.code, 1);
  assert.match(noKey.stderr, /OPENAI_API_KEY/);

  const dotenvKey = await hermes(["acp", "--check", "--offline"], { config: { model: { provider: "openai", name: "gpt-4.1" } }, env: { OPENAI_API_KEY: "sk-from-env-000000000000" } });
  assert.equal(dotenvKey.code, 0);
  assert.match(dotenvKey.stdout, /api_key:\s+set \(from OPENAI_API_KEY\)/);
});

test("acp --check probes the endpoint: a closed port and a rejected key fail with the fix, --offline skips the probe", async () => {
  const model = scripted();
  const ok = await hermes(["acp", "--check"], { config: scriptedConfig(model.url) });
  assert.equal(ok.code, 0, ok.stderr);
  assert.match(ok.stdout, /endpoint:\s+\S+\/models answered \(\d+ models? listed\)/);

  const closedUrl = `http://127.0.0.1:${await closedPort()}/v1`;
  const closed = await hermes(["acp", "--check"], { config: scriptedConfig(closedUrl) });
  assert.equal(closed.code, 1, "nobody listening is not ok");
  assert.match(closed.stdout, /endpoint:.*FAILED: connection refused/);
  assert.match(closed.stderr, /connection refused: nothing is listening there/);
  assert.match(closed.stderr, /model\.base_url in .*config\.yaml/);
  assert.match(closed.stderr, /--offline/);

  const offline = await hermes(["acp", "--check", "--offline"], { config: scriptedConfig(closedUrl) });
  assert.equal(offline.code, 0, offline.stderr);
  assert.match(offline.stdout, /endpoint:\s+not probed \(--offline\)/);

  // A server that answers 401: the hint names every place a key can come from.
  const rejecting = createServer((_req, res) => res.writeHead(401, { "content-type": "application/json" }).end('{"error":"bad key"}'));
  await new Promise<void>((resolve) => rejecting.listen(0, "127.0.0.1", resolve));
  try {
    const url = `http://127.0.0.1:${(rejecting.address() as AddressInfo).port}/v1`;
    const rejected = await hermes(["acp", "--check"], { config: { model: { provider: "openai", name: "gpt-4.1", base_url: url, api_key: "sk-wrong-000000" } } });
    assert.equal(rejected.code, 1);
    assert.match(rejected.stderr, /rejected the API key \(HTTP 401\)/);
    // Not OPENAI_API_KEY: that goes to OpenAI's host only; this endpoint reads its own variable.
    for (const place of ["HERMES_API_KEY", "model.api_key in", `HERMES_127_0_0_1_${new URL(url).port}_API_KEY`, ".env"]) assert.ok(rejected.stderr.includes(place), `${place} in: ${rejected.stderr}`);
    assert.match(rejected.stderr, /key in use now comes from .*config\.yaml \(model\.api_key\)/);
    assert.doesNotMatch(rejected.stderr + rejected.stdout, /sk-wrong/, "the key itself is never printed");
  } finally {
    rejecting.close();
  }

  const misuse = await hermes(["acp", "--offline"]);
  assert.equal(misuse.code, 2);
});

/** A port that was free a moment ago and has no listener now. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

test("chat streams the reply to stdout and tool steps to stderr; edits need --yes off a TTY", async () => {
  const model = scripted();
  const project = await makeTempDir();
  model.enqueue(
    { toolCalls: [{ id: "w1", name: "write_file", arguments: { path: "hello.txt", content: "hi\n" } }] },
    { text: "Tried to write hello.txt." },
  );
  const denied = await hermes(["chat", "--cwd", project, "write a file"], { config: scriptedConfig(model.url) });
  assert.equal(denied.code, 0, denied.stderr);
  assert.equal(denied.stdout, "Tried to write hello.txt.\n");
  assert.match(denied.stderr, /▸ /);
  assert.match(denied.stderr, /pass --yes/);
  await assert.rejects(readFile(path.join(project, "hello.txt")));

  model.enqueue(
    { toolCalls: [{ id: "w2", name: "write_file", arguments: { path: "hello.txt", content: "hi\n" } }] },
    { text: "Wrote hello.txt." },
  );
  const allowed = await hermes(["chat", "--yes", "--cwd", project, "write a file"], { config: scriptedConfig(model.url) });
  assert.equal(allowed.code, 0, allowed.stderr);
  assert.equal(allowed.stdout, "Wrote hello.txt.\n");
  assert.equal(await readFile(path.join(project, "hello.txt"), "utf8"), "hi\n");
});

test("chat without a model is a configuration error (exit 2) with the steps to configure one", async () => {
  const project = await makeTempDir();
  const result = await hermes(["chat", "--cwd", project, "hello"]);
  assert.equal(result.code, 2);
  assert.equal(result.stdout, "");
  assert.match(result.stderr, /^hermes: No model is configured/);
  assert.match(result.stderr, /config\.yaml/);
  assert.match(result.stderr, /HERMES_API_KEY/);
});

test("chat: a missing --cwd folder is one clear line and exit 2, not a stack trace", async () => {
  const missing = path.join(await makeTempDir(), "not-there");
  const result = await hermes(["chat", "--cwd", missing, "hello"]);
  assert.equal(result.code, 2);
  assert.equal(result.stderr, `hermes: --cwd ${missing}: no such folder\n`);
});

test("chat: a broken config.yaml names the file, the key and the fix, with the whole YAML message and no generic no-model text", async () => {
  const project = await makeTempDir();
  const home = await makeTempDir("hermes-home-");
  const configPath = path.join(home, "config.yaml");

  await writeFile(configPath, "model:\n  provider: [openai\n  name: gpt-4.1\n");
  const yaml = await hermes(["chat", "--cwd", project, "hello"], { env: { HERMES_HOME: home } });
  assert.equal(yaml.code, 2);
  assert.ok(yaml.stderr.includes(`${configPath}: invalid YAML: `), yaml.stderr);
  assert.match(yaml.stderr, /at line \d+, column \d+:\n\n.*provider: \[openai\n[^]*?\^/, "the message goes on to show the offending lines with a caret");
  assert.match(yaml.stderr, /Fix the YAML syntax in .*config\.yaml at the line shown above, then run `hermes acp --check`/);
  assert.doesNotMatch(yaml.stderr, /No model is configured/);
  assert.doesNotMatch(yaml.stderr, /WARN/, "no log lines repeat the error");

  await writeFile(configPath, "model:\n  provider: openia\n  name: gpt-4.1\n");
  const key = await hermes(["chat", "--cwd", project, "hello"], { env: { HERMES_HOME: home } });
  assert.equal(key.code, 2);
  assert.ok(key.stderr.includes(`${configPath}: model.provider: `), key.stderr);
  assert.ok(key.stderr.includes(`Fix model.provider in ${configPath}`), key.stderr);
  assert.doesNotMatch(key.stderr, /No model is configured/);
});

test("chat: a turn the model rejects exits 1, and a 401 names every place a key comes from", async () => {
  const model = scripted();
  const project = await makeTempDir();
  model.enqueue({ status: 401 });
  const result = await hermes(["chat", "--cwd", project, "hello"], { config: scriptedConfig(model.url) });
  assert.equal(result.code, 1, result.stderr);
  assert.match(result.stderr, /HTTP 401/);
  for (const place of ["HERMES_API_KEY", "model.api_key in", `HERMES_127_0_0_1_${new URL(model.url).port}_API_KEY`, ".env"]) assert.ok(result.stderr.includes(place), `${place} in: ${result.stderr}`);
  assert.match(result.stderr, /key in use now comes from .*config\.yaml \(model\.api_key\)/);
  assert.doesNotMatch(result.stderr, /sk-test-not-a-real-key/);
});

test("chat: Ctrl-C during a turn cancels it and exits 130", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const home = await makeTempDir("hermes-home-");
  await writeFile(path.join(home, "config.yaml"), toYaml(scriptedConfig(model.url)));
  const before = model.requests.length;
  model.enqueue({ text: "Thinking about it", hang: true });
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("HERMES_") && !k.endsWith("_API_KEY")) env[k] = v;
  const child = spawn(process.execPath, [HERMES_BIN, "chat", "--cwd", project, "hello"], { env: { ...env, HERMES_HOME: home }, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  await model.waitForRequests(before + 1);
  child.kill("SIGINT");
  assert.equal(await exited, 130, stderr);
  assert.match(stderr, /cancelling/);
});
