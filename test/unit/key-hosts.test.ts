// Keys stay with their hosts: the attacker's corpus for model endpoints. Every provider's real key
// is in the environment; each row is a config (main model, fallbacks, picker entries, auxiliary,
// HERMES_* overrides, a .env left by an older setup) and what the endpoint may receive. Over all
// rows, one invariant: a provider's key is only ever resolved for that provider's own origin.
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { loadConfig } from "../../acp-server/config/load";
import { resolveModel, resolveModelSet, type ResolvedModel } from "../../acp-server/config/resolve-model";
import { tempDir } from "../support/tool-context";

/** A real-looking key per provider variable, all present in the environment of every row. */
const REAL: Record<string, { value: string; origin: string }> = {
  OPENAI_API_KEY: { value: "sk-real-openai-0001", origin: "https://api.openai.com" },
  ANTHROPIC_API_KEY: { value: "sk-ant-real-0002", origin: "https://api.anthropic.com" },
  OPENROUTER_API_KEY: { value: "sk-or-real-0003", origin: "https://openrouter.ai" },
  DEEPSEEK_API_KEY: { value: "sk-deepseek-real-0004", origin: "https://api.deepseek.com" },
  GEMINI_API_KEY: { value: "gemini-real-0005", origin: "https://generativelanguage.googleapis.com" },
  GOOGLE_API_KEY: { value: "google-real-0006", origin: "https://generativelanguage.googleapis.com" },
  OLLAMA_API_KEY: { value: "ollama-real-0007", origin: "http://127.0.0.1:11434" },
  LMSTUDIO_API_KEY: { value: "lmstudio-real-0008", origin: "http://127.0.0.1:1234" },
};
const realEnv = Object.fromEntries(Object.entries(REAL).map(([name, { value }]) => [name, value]));

interface Row {
  name: string;
  yaml: string;
  env?: Record<string, string>;
  dotenv?: string;
  /** Without every provider key in the environment (the migration rows). */
  bareEnv?: boolean;
  /** The main model's key; undefined: none; a RegExp: the model is refused with that reason. */
  main: string | undefined | RegExp;
}

const m = (lines: string) => `model:\n${lines.split("\n").map((l) => `  ${l}`).join("\n")}\n`;

const ROWS: Row[] = [
  // Each provider's own API keeps its own key.
  { name: "openai, default URL", yaml: m("provider: openai\nname: gpt-4.1"), main: REAL.OPENAI_API_KEY!.value },
  { name: "openai, its own URL with a trailing slash", yaml: m("provider: openai\nname: gpt-4.1\nbase_url: https://api.openai.com/v1/"), main: REAL.OPENAI_API_KEY!.value },
  { name: "openai, its own host in capitals", yaml: m("provider: openai\nname: gpt-4.1\nbase_url: https://API.OPENAI.COM/v1"), main: REAL.OPENAI_API_KEY!.value },
  { name: "openai, its own host with :443", yaml: m("provider: openai\nname: gpt-4.1\nbase_url: https://api.openai.com:443/v1"), main: REAL.OPENAI_API_KEY!.value },
  { name: "anthropic, default URL", yaml: m("provider: anthropic\nname: claude-sonnet-4-5"), main: REAL.ANTHROPIC_API_KEY!.value },
  { name: "gemini, default URL", yaml: m("provider: gemini\nname: gemini-2.5-pro"), main: REAL.GEMINI_API_KEY!.value },
  { name: "gemini, only GOOGLE_API_KEY", yaml: m("provider: gemini\nname: gemini-2.5-pro"), env: { GEMINI_API_KEY: "" }, main: REAL.GOOGLE_API_KEY!.value },
  { name: "ollama, default URL", yaml: m("provider: ollama\nname: qwen3"), main: REAL.OLLAMA_API_KEY!.value },

  // A provider whose base_url points elsewhere: its key does not go there.
  { name: "openai over plain http", yaml: m("provider: openai\nname: gpt-4.1\nbase_url: http://api.openai.com/v1"), main: /No API key for provider "openai"/ },
  { name: "openai, look-alike suffix host", yaml: m("provider: openai\nname: gpt-4.1\nbase_url: https://api.openai.com.evil.example/v1"), main: /No API key/ },
  { name: "openai, its host as userinfo", yaml: m("provider: openai\nname: gpt-4.1\nbase_url: https://api.openai.com@evil.example/v1"), main: /No API key/ },
  { name: "openai, its host as a path", yaml: m("provider: openai\nname: gpt-4.1\nbase_url: https://evil.example/api.openai.com/v1"), main: /No API key/ },
  { name: "openai, another port", yaml: m("provider: openai\nname: gpt-4.1\nbase_url: https://api.openai.com:8443/v1"), main: /No API key/ },
  { name: "openai, the parent domain", yaml: m("provider: openai\nname: gpt-4.1\nbase_url: https://openai.com/v1"), main: /No API key/ },
  { name: "openai, trailing-dot host", yaml: m("provider: openai\nname: gpt-4.1\nbase_url: https://api.openai.com./v1"), main: /No API key/ },
  { name: "openai, a loopback server", yaml: m("provider: openai\nname: gpt-4.1\nbase_url: http://127.0.0.1:8080/v1"), main: /Set HERMES_127_0_0_1_8080_API_KEY/ },
  { name: "anthropic, look-alike", yaml: m("provider: anthropic\nname: claude-sonnet-4-5\nbase_url: https://api.anthropic.com.evil.example/v1"), main: /No API key/ },
  { name: "openrouter, another host", yaml: m("provider: openrouter\nname: x/y\nbase_url: https://openrouter.example/api/v1"), main: /No API key/ },
  { name: "deepseek, a loopback server", yaml: m("provider: deepseek\nname: deepseek-chat\nbase_url: http://127.0.0.1:9/v1"), main: /No API key/ },
  { name: "gemini, look-alike (GOOGLE_API_KEY too)", yaml: m("provider: gemini\nname: g\nbase_url: https://generativelanguage.googleapis.com.evil.example/v1"), main: /No API key/ },
  { name: "ollama on another machine", yaml: m("provider: ollama\nname: qwen3\nbase_url: http://10.0.0.5:11434/v1"), main: undefined },
  { name: "lmstudio on another port", yaml: m("provider: lmstudio\nname: q\nbase_url: http://127.0.0.1:1235/v1"), main: undefined },
  { name: "custom, loopback", yaml: m("provider: custom\nname: m\nbase_url: http://127.0.0.1:8080/v1"), main: undefined },
  { name: "custom at OpenAI's own URL (custom has no provider key)", yaml: m("provider: custom\nname: m\nbase_url: https://api.openai.com/v1"), main: undefined },
  { name: "no provider, only base_url (custom)", yaml: m("name: m\nbase_url: http://127.0.0.1:8080/v1"), main: undefined },
  { name: "HERMES_BASE_URL overrides openai's URL", yaml: m("provider: openai\nname: gpt-4.1"), env: { HERMES_BASE_URL: "https://evil.example/v1" }, main: /No API key/ },
  { name: "HERMES_BASE_URL that is no URL", yaml: m("provider: openai\nname: gpt-4.1"), env: { HERMES_BASE_URL: "not a url" }, main: /No API key/ },
  { name: "HERMES_PROVIDER=custom with HERMES_BASE_URL", yaml: "", env: { HERMES_PROVIDER: "custom", HERMES_MODEL: "m", HERMES_BASE_URL: "http://127.0.0.1:8080/v1" }, main: undefined },

  // api_key_env may not borrow a provider's key, nor another endpoint's.
  { name: "api_key_env: OPENAI_API_KEY on a custom endpoint", yaml: m("provider: custom\nname: m\nbase_url: http://127.0.0.1:8080/v1\napi_key_env: OPENAI_API_KEY"), main: /api_key_env names OPENAI_API_KEY, a provider's key/ },
  { name: "api_key_env: ANTHROPIC_API_KEY on OpenAI", yaml: m("provider: openai\nname: gpt-4.1\napi_key_env: ANTHROPIC_API_KEY"), main: /a provider's key/ },
  { name: "api_key_env: GOOGLE_API_KEY on a custom endpoint", yaml: m("provider: custom\nname: m\nbase_url: https://llm.example/v1\napi_key_env: GOOGLE_API_KEY"), main: /a provider's key/ },
  { name: "api_key_env: OPENAI_API_KEY on an overridden openai", yaml: m("provider: openai\nname: gpt-4.1\nbase_url: https://evil.example/v1\napi_key_env: OPENAI_API_KEY"), main: /a provider's key/ },
  { name: "api_key_env: another endpoint's variable", yaml: m("provider: custom\nname: m\nbase_url: https://evil.example/v1\napi_key_env: HERMES_127_0_0_1_8080_API_KEY"), env: { HERMES_127_0_0_1_8080_API_KEY: "sk-loopback" }, main: /another endpoint's key/ },
  { name: "api_key_env: OPENAI_API_KEY on OpenAI itself", yaml: m("provider: openai\nname: gpt-4.1\napi_key_env: OPENAI_API_KEY"), main: REAL.OPENAI_API_KEY!.value },
  { name: "api_key_env: GOOGLE_API_KEY on gemini itself", yaml: m("provider: gemini\nname: g\napi_key_env: GOOGLE_API_KEY"), main: REAL.GOOGLE_API_KEY!.value },

  // The endpoint's own key.
  { name: "custom, its own variable in the environment", yaml: m("provider: custom\nname: m\nbase_url: http://127.0.0.1:8080/v1"), env: { HERMES_127_0_0_1_8080_API_KEY: "sk-custom-own" }, main: "sk-custom-own" },
  { name: "custom, as setup writes it (.env + api_key_env)", yaml: m("provider: custom\nname: m\nbase_url: https://llm.example.com/v1\napi_key_env: HERMES_LLM_EXAMPLE_COM_443_API_KEY"), dotenv: "HERMES_LLM_EXAMPLE_COM_443_API_KEY=sk-custom-setup\n", main: "sk-custom-setup" },
  { name: "custom, a variable of the user's choosing", yaml: m("provider: custom\nname: m\nbase_url: https://llm.example.com/v1\napi_key_env: MY_LLM_TOKEN"), env: { MY_LLM_TOKEN: "sk-mine" }, main: "sk-mine" },
  { name: "openai at a proxy, with the proxy's own variable", yaml: m("provider: openai\nname: gpt-4.1\nbase_url: http://127.0.0.1:8080/v1"), env: { HERMES_127_0_0_1_8080_API_KEY: "sk-proxy" }, main: "sk-proxy" },
  { name: "model.api_key is the user's explicit choice", yaml: m("provider: custom\nname: m\nbase_url: http://127.0.0.1:8080/v1\napi_key: sk-inline"), main: "sk-inline" },
  { name: "HERMES_API_KEY is the user's explicit choice", yaml: m("provider: custom\nname: m\nbase_url: http://127.0.0.1:8080/v1"), env: { HERMES_API_KEY: "sk-hermes" }, main: "sk-hermes" },

  // Migration: the key an older setup stored for a custom endpoint as OPENAI_API_KEY in .env.
  { name: "legacy custom setup, a real OpenAI key in the environment", yaml: m("provider: custom\nname: m\nbase_url: http://127.0.0.1:8080/v1"), dotenv: "OPENAI_API_KEY=sk-custom-legacy\n", main: "sk-custom-legacy" },
  { name: "legacy custom setup, nothing in the environment", yaml: m("provider: custom\nname: m\nbase_url: http://127.0.0.1:8080/v1"), dotenv: "OPENAI_API_KEY=sk-custom-legacy\n", bareEnv: true, main: "sk-custom-legacy" },
  { name: "legacy: OPENAI_API_KEY only in the environment is not the endpoint's", yaml: m("provider: custom\nname: m\nbase_url: http://127.0.0.1:8080/v1"), main: undefined },
  { name: "legacy: the endpoint's own variable wins", yaml: m("provider: custom\nname: m\nbase_url: http://127.0.0.1:8080/v1"), dotenv: "OPENAI_API_KEY=sk-custom-legacy\nHERMES_127_0_0_1_8080_API_KEY=sk-moved\n", main: "sk-moved" },
  { name: "legacy deepseek at an overridden URL", yaml: m("provider: deepseek\nname: d\nbase_url: http://127.0.0.1:9/v1"), dotenv: "DEEPSEEK_API_KEY=sk-deep-legacy\n", main: "sk-deep-legacy" },
];

async function load(row: Pick<Row, "yaml" | "env" | "dotenv" | "bareEnv">) {
  const home = await tempDir("hermes-key-hosts-");
  if (row.yaml) await writeFile(path.join(home, "config.yaml"), row.yaml);
  if (row.dotenv) await writeFile(path.join(home, ".env"), row.dotenv);
  const env = { ...(row.bareEnv ? {} : realEnv), ...row.env };
  return loadConfig({ home, env: Object.fromEntries(Object.entries(env).filter(([, v]) => v !== "")) });
}

/** The invariant: a provider's real key only at its own origin. */
function assertNoForeignKey(models: ResolvedModel[], where: string): void {
  for (const model of models) {
    const owner = Object.entries(REAL).find(([, real]) => real.value === model.apiKey);
    if (!owner) continue;
    assert.equal(new URL(model.baseUrl).origin, owner[1].origin, `${where}: ${owner[0]} resolved for ${model.baseUrl} (${model.id})`);
  }
}

for (const row of ROWS) {
  test(`key corpus: ${row.name}`, async () => {
    const loaded = await load(row);
    assert.equal(loaded.error, undefined);
    const main = resolveModel(loaded);
    if (row.main instanceof RegExp) {
      assert.equal(main.ok, false, `expected a refusal, got key ${main.ok ? main.model.apiKey : ""}`);
      assert.match(main.ok ? "" : main.reason, row.main);
      return;
    }
    assert.ok(main.ok, main.ok ? "" : main.reason);
    assert.equal(main.model.apiKey, row.main);
    assertNoForeignKey([main.model], row.name);
  });
}

test("key corpus: fallbacks, picker entries and the auxiliary model inherit the main key only at the main model's origin", async () => {
  const yaml = [
    m("provider: openai\nname: gpt-4.1"),
    "fallback_models:",
    "  - name: same-host-fallback",
    "  - name: elsewhere-fallback",
    "    base_url: https://evil.example/v1",
    "  - provider: custom",
    "    name: custom-fallback",
    "    base_url: http://127.0.0.1:8080/v1",
    "models:",
    "  - name: proxy-choice",
    "    base_url: http://127.0.0.1:8081/v1",
    "  - provider: anthropic",
    "    name: claude-lookalike",
    "    base_url: https://api.anthropic.com.evil.example/v1",
    "auxiliary:",
    "  name: aux",
    "  base_url: https://aux.example/v1",
    "",
  ].join("\n");
  const loaded = await load({ yaml, env: { HERMES_127_0_0_1_8081_API_KEY: "sk-proxy-own" } });
  const main = resolveModel(loaded);
  assert.ok(main.ok);
  const set = resolveModelSet(loaded, main.model);
  const all = [set.main, ...set.fallbacks, ...set.choices, set.auxiliary];
  assertNoForeignKey(all, "model set");
  const byName = new Map(all.map((model) => [model.name, model]));
  assert.equal(byName.get("same-host-fallback")?.apiKey, REAL.OPENAI_API_KEY!.value, "the same origin shares the main key");
  assert.equal(byName.get("elsewhere-fallback"), undefined, "an openai fallback elsewhere has no key: refused");
  assert.equal(byName.get("custom-fallback")?.apiKey, undefined);
  assert.equal(byName.get("proxy-choice")?.apiKey, "sk-proxy-own");
  assert.equal(byName.get("claude-lookalike"), undefined);
  assert.equal(set.auxiliary.name, "gpt-4.1", "the auxiliary model elsewhere, keyless, falls back to the main one");
  assert.equal(set.problems.length, 3, set.problems.join("\n"));
});

test("key corpus: the legacy key is named as such, so --check and doctor say it must move", async () => {
  const loaded = await load({ yaml: m("provider: custom\nname: m\nbase_url: http://127.0.0.1:8080/v1"), dotenv: "OPENAI_API_KEY=sk-custom-legacy\n" });
  const main = resolveModel(loaded);
  assert.ok(main.ok);
  assert.match(main.model.apiKeySource ?? "", /OPENAI_API_KEY in \$HERMES_HOME\/\.env, stored for this endpoint by an older `hermes setup`/);
});
