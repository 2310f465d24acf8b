import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { loadConfig } from "../../acp-server/config/load";
import { resolveModel } from "../../acp-server/config/resolve-model";
import { tempDir } from "../support/tool-context";

async function home(files: Record<string, string>): Promise<string> {
  const dir = await tempDir("hermes-config-");
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
  return dir;
}

test("defaults apply when config.yaml is missing", async () => {
  const loaded = loadConfig({ home: await home({}), env: {} });
  assert.equal(loaded.configFound, false);
  assert.equal(loaded.error, undefined);
  assert.equal(loaded.config.agent.max_turns, 90);
  assert.equal(loaded.config.model.api_mode, "auto");
  const model = resolveModel(loaded);
  assert.equal(model.ok, false);
  assert.match(!model.ok ? model.reason : "", /No model is configured/);
});

test("the documented example config resolves", async () => {
  const dir = await home({
    "config.yaml": "model:\n  provider: custom\n  name: fake-model\n  base_url: http://127.0.0.1:8080/v1\n  api_key: sk-abc\n  api_mode: chat_completions\nagent:\n  max_turns: 12\n",
  });
  const loaded = loadConfig({ home: dir, env: {} });
  assert.equal(loaded.error, undefined);
  assert.equal(loaded.config.agent.max_turns, 12);
  const model = resolveModel(loaded);
  assert.ok(model.ok);
  assert.deepEqual(
    { provider: model.model.provider, name: model.model.name, baseUrl: model.model.baseUrl, apiKey: model.model.apiKey, apiMode: model.model.apiMode },
    { provider: "custom", name: "fake-model", baseUrl: "http://127.0.0.1:8080/v1", apiKey: "sk-abc", apiMode: "chat_completions" },
  );
});

test("environment overrides beat config.yaml, and the real environment beats .env", async () => {
  const dir = await home({
    "config.yaml": "model:\n  provider: openai\n  name: gpt-4.1\n",
    ".env": "OPENAI_API_KEY=sk-from-dotenv\nHERMES_MODEL=from-dotenv\n",
  });
  const fromDotenv = resolveModel(loadConfig({ home: dir, env: {} }));
  assert.ok(fromDotenv.ok);
  assert.equal(fromDotenv.model.apiKey, "sk-from-dotenv");
  assert.equal(fromDotenv.model.apiKeySource, "OPENAI_API_KEY");
  assert.equal(fromDotenv.model.name, "from-dotenv");

  const overridden = resolveModel(loadConfig({ home: dir, env: { HERMES_MODEL: "from-env", HERMES_BASE_URL: "http://127.0.0.1:1/v1", HERMES_API_KEY: "k" } }));
  assert.ok(overridden.ok);
  assert.equal(overridden.model.name, "from-env");
  assert.equal(overridden.model.baseUrl, "http://127.0.0.1:1/v1");
  assert.equal(overridden.model.apiKeySource, "HERMES_API_KEY");
});

test("an empty variable in the environment does not hide the key in .env (an editor passing OPENAI_API_KEY=)", async () => {
  const dir = await home({ "config.yaml": "model:\n  provider: openai\n  name: gpt-4.1\n", ".env": "OPENAI_API_KEY=sk-stored-by-sign-in\n" });
  const model = resolveModel(loadConfig({ home: dir, env: { OPENAI_API_KEY: "" } }));
  assert.ok(model.ok, model.ok ? "" : model.reason);
  assert.equal(model.model.apiKey, "sk-stored-by-sign-in");
  const real = resolveModel(loadConfig({ home: dir, env: { OPENAI_API_KEY: "sk-real-env" } }));
  assert.ok(real.ok);
  assert.equal(real.model.apiKey, "sk-real-env", "a set variable still wins");
});

test("errors name the file, the key and what is wrong", async () => {
  const dir = await home({ "config.yaml": "model:\n  provider: skynet\n  temperature: 9\nagent:\n  max_turns: zero\n" });
  const loaded = loadConfig({ home: dir, env: {} });
  const file = path.join(dir, "config.yaml");
  assert.ok(loaded.error);
  assert.match(loaded.error, new RegExp(`${file.replace(/[.]/g, "\\.")}: model\\.provider: `));
  assert.match(loaded.error, /model\.temperature: /);
  assert.match(loaded.error, /agent\.max_turns: /);

  const yaml = loadConfig({ home: await home({ "config.yaml": "model: [unclosed\n" }), env: {} });
  assert.match(yaml.error ?? "", /invalid YAML/);

  const typo = loadConfig({ home: await home({ "config.yaml": "model:\n  nmae: x\n" }), env: {} });
  assert.match(typo.error ?? "", /model: .*nmae/, "unknown keys inside a known section are reported");
});

test("resolution failures say what to set", async () => {
  const noKey = resolveModel(loadConfig({ home: await home({ "config.yaml": "model:\n  provider: anthropic\n  name: claude-sonnet-4\n" }), env: {} }));
  assert.equal(noKey.ok, false);
  assert.match(!noKey.ok ? noKey.reason : "", /ANTHROPIC_API_KEY/);

  const noUrl = resolveModel(loadConfig({ home: await home({ "config.yaml": "model:\n  provider: custom\n  name: m\n" }), env: {} }));
  assert.match(!noUrl.ok ? noUrl.reason : "", /base_url is required/);

  const badProvider = resolveModel(loadConfig({ home: await home({}), env: { HERMES_PROVIDER: "nope", HERMES_MODEL: "m" } }));
  assert.match(!badProvider.ok ? badProvider.reason : "", /HERMES_PROVIDER: unknown provider "nope"/);

  const local = resolveModel(loadConfig({ home: await home({}), env: { HERMES_PROVIDER: "lmstudio", HERMES_MODEL: "qwen" } }));
  assert.ok(local.ok, "local servers need no key");
  assert.equal(local.model.baseUrl, "http://127.0.0.1:1234/v1");
});

test("a missing YAML parser is the installation's fault, not config.yaml's: the fix says reinstall, not fix the syntax", async () => {
  const { configErrorFix, YAML_PARSER_MISSING } = await import("../../acp-server/config/config-error");
  const configPath = "/home/u/.hermes/config.yaml";
  const base = { home: "/home/u/.hermes", configPath, configFound: true, config: loadConfig({ home: await home({}), env: {} }).config, env: {} };
  const missing = configErrorFix({ ...base, error: `${configPath}: ${YAML_PARSER_MISSING} (Cannot find module './yaml.cjs')` });
  assert.match(missing ?? "", /^Reinstall Hermes/);
  assert.doesNotMatch(missing ?? "", /YAML syntax/);
  const syntax = configErrorFix({ ...base, error: `${configPath}: invalid YAML: bad indentation` });
  assert.match(syntax ?? "", /Fix the YAML syntax/);
});
