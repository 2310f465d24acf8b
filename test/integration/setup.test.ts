// `hermes setup`: the wizard driven through a real pseudo-terminal (util-linux `script`), and the
// flags for scripts; the model is the scripted HTTP server, so the test call is a real request.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { after, before, test } from "node:test";
import { parse as parseYaml } from "yaml";
import { HERMES_BIN, makeTempDir } from "../support/acp-harness";
import { spawnInPty } from "../support/pty";
import { startScriptedModel, type ScriptedModel } from "../support/scripted-model";

let model: ScriptedModel;
before(async () => {
  assert.ok(existsSync(HERMES_BIN), "dist/hermes.js is missing: run `npm run build` first");
  model = await startScriptedModel({ model: "fake-model" });
});
after(async () => {
  await model.close();
});

async function cleanEnv(): Promise<NodeJS.ProcessEnv & { HERMES_HOME: string }> {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith("HERMES_") && !key.endsWith("_API_KEY") && !key.startsWith("NODE_TEST")) env[key] = value;
  }
  return { ...env, HERMES_HOME: await makeTempDir("hermes-setup-home-") };
}

function run(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [HERMES_BIN, ...args], { env, timeout: 30_000 }, (error, _stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === "number" ? error.code : null) : 0, stderr }),
    );
    child.stdin?.end();
  });
}

test("the wizard in a terminal: provider, hidden key, model from the endpoint's list, one test call, then it saves and says where", async (t) => {
  const env = await cleanEnv();
  const pty = spawnInPty([process.execPath, HERMES_BIN, "setup", "--base-url", model.url], { env });
  t.after(() => pty.kill());
  await pty.waitFor(/Provider:[\s\S]*Choose a number \[1\]: $/);
  assert.match(pty.output(), /1\) OpenAI/);
  pty.write("1\r");
  await pty.waitFor(/API key for OPENAI_API_KEY \(input hidden\): $/);
  pty.write("sk-typed-secret-42\r");
  await pty.waitFor(/Model \(1 listed\):[\s\S]*Choose a number \[1\]: $/);
  const calls = model.requests.length;
  model.enqueue({ text: "OK" });
  pty.write("1\r");
  assert.equal(await pty.exited, 0, pty.output());
  assert.doesNotMatch(pty.output(), /sk-typed-secret-42/, "the key is never echoed");
  assert.match(pty.output(), /OK: fake-model answered/);
  const configPath = path.join(env.HERMES_HOME, "config.yaml");
  const envPath = path.join(env.HERMES_HOME, ".env");
  assert.match(pty.output(), new RegExp(`Saved the model openai/fake-model in ${configPath} and the key in ${envPath} \\(mode 600`));
  assert.deepEqual(parseYaml(readFileSync(configPath, "utf8")).model, { provider: "openai", name: "fake-model", base_url: model.url });
  assert.equal(readFileSync(envPath, "utf8"), "OPENAI_API_KEY=sk-typed-secret-42\n");
  assert.equal(statSync(envPath).mode & 0o777, 0o600);
  assert.equal(model.requests.length, calls + 1, "exactly one test call");
  assert.equal(model.requests.at(-1)!.headers.authorization, "Bearer sk-typed-secret-42");
});

test("Ctrl-C in the wizard (started as an editor's terminal sign-in, hermes acp --setup) stops with 130 and writes nothing", async (t) => {
  const env = await cleanEnv();
  const pty = spawnInPty([process.execPath, HERMES_BIN, "acp", "--setup"], { env });
  t.after(() => pty.kill());
  await pty.waitFor(/Choose a number \[1\]: $/);
  pty.write("2\r");
  await pty.waitFor(/API key for ANTHROPIC_API_KEY/);
  pty.write("\x03");
  assert.equal(await pty.exited, 130, pty.output());
  assert.match(pty.output(), /nothing was saved/);
  assert.ok(!existsSync(path.join(env.HERMES_HOME, "config.yaml")));
  assert.ok(!existsSync(path.join(env.HERMES_HOME, ".env")));
});

test("flags for scripts: key from a variable, a failed test call saves nothing, missing pieces are usage errors", async () => {
  const env = await cleanEnv();
  const configPath = path.join(env.HERMES_HOME, "config.yaml");

  const noKey = await run(["setup", "--provider", "deepseek", "--model", "fake-model", "--base-url", model.url], env);
  assert.equal(noKey.code, 2, noKey.stderr);
  assert.match(noKey.stderr, /needs a key: --api-key-env VAR/);
  const unknown = await run(["setup", "--provider", "skynet"], env);
  assert.equal(unknown.code, 2);

  model.enqueue({ status: 401 });
  const rejected = await run(["setup", "--provider", "deepseek", "--model", "fake-model", "--base-url", model.url, "--api-key-env", "MY_KEY"], { ...env, MY_KEY: "sk-bad" });
  assert.equal(rejected.code, 1, rejected.stderr);
  assert.match(rejected.stderr, /The test call failed[\s\S]*Nothing was saved/);
  assert.ok(!existsSync(configPath) && !existsSync(path.join(env.HERMES_HOME, ".env")));

  model.enqueue({ text: "OK" });
  const saved = await run(["setup", "--provider", "deepseek", "--model", "fake-model", "--base-url", model.url, "--api-key-env", "MY_KEY"], { ...env, MY_KEY: "sk-good" });
  assert.equal(saved.code, 0, saved.stderr);
  assert.deepEqual(parseYaml(readFileSync(configPath, "utf8")).model, { provider: "deepseek", name: "fake-model", base_url: model.url });
  assert.equal(readFileSync(path.join(env.HERMES_HOME, ".env"), "utf8"), "DEEPSEEK_API_KEY=sk-good\n");

  // A local server without a test call: nothing to store, the model is switched, the old base_url goes.
  const local = await run(["setup", "--provider", "ollama", "--model", "qwen3", "--no-test"], env);
  assert.equal(local.code, 0, local.stderr);
  assert.deepEqual(parseYaml(readFileSync(configPath, "utf8")).model, { provider: "ollama", name: "qwen3" });
});
