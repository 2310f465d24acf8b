// `hermes setup`: the wizard driven through a real pseudo-terminal (util-linux `script`), and the
// flags for scripts; the model is the scripted HTTP server, so the test call is a real request.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, test } from "node:test";
import { parse as parseYaml } from "yaml";
import { HERMES_BIN, makeTempDir } from "../support/acp-harness";
import { spawnInPty } from "../support/pty";
import { startScriptedModel, type ScriptedModel } from "../support/scripted-model";

let model: ScriptedModel;
/** The loopback server's own key variable (key-hosts.ts), spelled out: the test does not trust the code it checks. */
const ownVariable = () => `HERMES_127_0_0_1_${new URL(model.url).port}_API_KEY`;
before(async () => {
  assert.ok(existsSync(HERMES_BIN), "dist/hermes.js is missing: run `npm run build` first");
  model = await startScriptedModel({ model: "fake-model" });
  await startRecordingEndpoint();
});
after(async () => {
  await endpoint.close();
  await model.close();
});

async function cleanEnv(): Promise<NodeJS.ProcessEnv & { HERMES_HOME: string }> {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith("HERMES_") && !key.endsWith("_API_KEY") && !key.startsWith("NODE_TEST")) env[key] = value;
  }
  return { ...env, HERMES_HOME: await makeTempDir("hermes-setup-home-") };
}

function run(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [HERMES_BIN, ...args], { env, timeout: 30_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === "number" ? error.code : null) : 0, stdout, stderr }),
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
  // OpenAI chosen, but at another base_url: the key is that endpoint's, not OPENAI_API_KEY.
  await pty.waitFor(new RegExp(`API key for ${ownVariable()} \\(input hidden\\): $`));
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
  assert.deepEqual(parseYaml(readFileSync(configPath, "utf8")).model, { provider: "openai", name: "fake-model", base_url: model.url, api_key_env: ownVariable() });
  assert.equal(readFileSync(envPath, "utf8"), `${ownVariable()}=sk-typed-secret-42\n`);
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
  assert.deepEqual(parseYaml(readFileSync(configPath, "utf8")).model, { provider: "deepseek", name: "fake-model", base_url: model.url, api_key_env: ownVariable() });
  assert.equal(readFileSync(path.join(env.HERMES_HOME, ".env"), "utf8"), `${ownVariable()}=sk-good\n`);

  // A local server without a test call: nothing to store, the model is switched, the old base_url goes.
  const local = await run(["setup", "--provider", "ollama", "--model", "qwen3", "--no-test", "--json"], env);
  assert.equal(local.code, 0, local.stderr);
  // --json: what was saved, as one object on stdout.
  assert.deepEqual(JSON.parse(local.stdout), { ok: true, provider: "ollama", model: "qwen3", config_path: configPath });
  assert.deepEqual(parseYaml(readFileSync(configPath, "utf8")).model, { provider: "ollama", name: "qwen3" });
});

/**
 * The custom endpoint as the user's machine sees it: a real loopback proxy in front of the scripted
 * model that records the Authorization header of every request (GET /models probes included,
 * which the scripted model does not record) and passes the request on unchanged.
 */
let endpoint: { url: string; authorizations: (string | undefined)[]; close: () => Promise<void> };
async function startRecordingEndpoint(): Promise<void> {
  const authorizations: (string | undefined)[] = [];
  const target = new URL(model.url);
  const server = createServer((req, res) => {
    authorizations.push(req.headers.authorization);
    const forward = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on("error", () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  endpoint = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    authorizations,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
/** Authorization headers the endpoint received since `from`. */
const authorizations = (from: number) => endpoint.authorizations.slice(from);
/** The endpoint's own key variable (key-hosts.ts), spelled out: the test does not trust the code it checks. */
const endpointVariable = () => `HERMES_127_0_0_1_${new URL(endpoint.url).port}_API_KEY`;

test("keys stay with their hosts: setup --provider custom stores the key under the endpoint's own name; a real OpenAI key in the environment never reaches it", async () => {
  const env = { ...(await cleanEnv()), OPENAI_API_KEY: "sk-real-openai" };
  const configPath = path.join(env.HERMES_HOME, "config.yaml");
  const envPath = path.join(env.HERMES_HOME, ".env");

  const from = endpoint.authorizations.length;
  model.enqueue({ text: "OK" });
  const saved = await run(["setup", "--provider", "custom", "--model", "fake-model", "--base-url", endpoint.url, "--api-key", "sk-custom-endpoint"], env);
  assert.equal(saved.code, 0, saved.stderr);
  assert.match(saved.stderr, new RegExp(`as ${endpointVariable()}\\)`));
  assert.equal(readFileSync(envPath, "utf8"), `${endpointVariable()}=sk-custom-endpoint\n`, "not OPENAI_API_KEY");
  assert.deepEqual(parseYaml(readFileSync(configPath, "utf8")).model, { provider: "custom", name: "fake-model", base_url: endpoint.url, api_key_env: endpointVariable() });

  // The next process (the check probes GET /models and makes no model call): the custom key, only.
  const check = await run(["acp", "--check"], env);
  assert.equal(check.code, 0, check.stderr);
  const sent = authorizations(from);
  assert.ok(sent.length >= 1, "the endpoint was called");
  assert.deepEqual([...new Set(sent)], ["Bearer sk-custom-endpoint"]);
});

test("keys stay with their hosts: an overridden base_url of a known provider never receives that provider's key from the environment", async () => {
  const env = { ...(await cleanEnv()), OPENAI_API_KEY: "sk-real-openai" };
  writeFileSync(path.join(env.HERMES_HOME, "config.yaml"), `model:\n  provider: openai\n  name: fake-model\n  base_url: ${endpoint.url}\n`);
  const from = endpoint.authorizations.length;
  const check = await run(["acp", "--check"], env);
  assert.notEqual(check.code, 0, "no key for that endpoint: refused before any request");
  assert.match(check.stderr, new RegExp(`Set ${endpointVariable()}`));
  // The same through HERMES_BASE_URL, and in a setup that keeps "the existing key".
  const viaEnv = await run(["acp", "--check"], { ...env, HERMES_BASE_URL: endpoint.url });
  assert.notEqual(viaEnv.code, 0);
  const setup = await run(["setup", "--provider", "openai", "--model", "fake-model", "--base-url", endpoint.url], env);
  assert.equal(setup.code, 2, setup.stderr);
  assert.match(setup.stderr, /needs a key/);
  assert.ok(!authorizations(from).includes("Bearer sk-real-openai"), "OpenAI's key never reached the loopback host");
});

test("migration: a custom endpoint an older setup stored as OPENAI_API_KEY in .env keeps working, never with the environment's OpenAI key, and setup moves it", async () => {
  const env = { ...(await cleanEnv()), OPENAI_API_KEY: "sk-real-openai" };
  const configPath = path.join(env.HERMES_HOME, "config.yaml");
  const envPath = path.join(env.HERMES_HOME, ".env");
  // What the old `hermes setup --provider custom --base-url URL --api-key KEY` left behind.
  writeFileSync(configPath, `model:\n  provider: custom\n  name: fake-model\n  base_url: ${endpoint.url}\n`);
  writeFileSync(envPath, "# mine\nOPENAI_API_KEY=sk-custom-legacy\n", { mode: 0o600 });

  const from = endpoint.authorizations.length;
  const check = await run(["acp", "--check"], env);
  assert.equal(check.code, 0, check.stderr);
  assert.deepEqual([...new Set(authorizations(from))], ["Bearer sk-custom-legacy"]);

  // setup again, keeping the key: it moves to the endpoint's own name and leaves OPENAI_API_KEY.
  model.enqueue({ text: "OK" });
  const moved = await run(["setup", "--provider", "custom", "--model", "fake-model", "--base-url", endpoint.url], env);
  assert.equal(moved.code, 0, moved.stderr);
  assert.match(moved.stderr, /moved from OPENAI_API_KEY/);
  assert.equal(readFileSync(envPath, "utf8"), `# mine\n${endpointVariable()}=sk-custom-legacy\n`);
  assert.equal(parseYaml(readFileSync(configPath, "utf8")).model.api_key_env, endpointVariable());
  const after = endpoint.authorizations.length;
  const again = await run(["acp", "--check"], env);
  assert.equal(again.code, 0, again.stderr);
  assert.deepEqual([...new Set(authorizations(after))], ["Bearer sk-custom-legacy"]);
  assert.ok(!authorizations(from).includes("Bearer sk-real-openai"));
});
