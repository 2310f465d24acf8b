import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { detectApiMode, globMatch } from "../../acp-server/config/detect-api-mode";
import { loadConfig } from "../../acp-server/config/load";
import { lookupModel } from "../../acp-server/config/model-metadata";
import { resolveModel, resolveModelSet } from "../../acp-server/config/resolve-model";
import { tempDir } from "../support/tool-context";

const RESPONSES = ["*codex*", "o1-pro*", "o3-pro*"];
const detection: [string, Parameters<typeof detectApiMode>, string][] = [
  ["anthropic provider", ["anthropic", "https://api.anthropic.com/v1", "claude-sonnet-4-5", RESPONSES], "anthropic_messages"],
  ["Anthropic base URL under a custom provider", ["custom", "https://api.anthropic.com/v1", "claude-opus-4-1", RESPONSES], "anthropic_messages"],
  ["Claude through OpenRouter stays on Chat Completions", ["openrouter", "https://openrouter.ai/api/v1", "anthropic/claude-sonnet-4", RESPONSES], "chat_completions"],
  ["a Codex model on OpenAI", ["openai", "https://api.openai.com/v1", "gpt-5-codex", RESPONSES], "codex_responses"],
  ["o3-pro on OpenAI", ["openai", "https://api.openai.com/v1", "o3-pro-2025", RESPONSES], "codex_responses"],
  ["gpt-4.1 on OpenAI", ["openai", "https://api.openai.com/v1", "gpt-4.1", RESPONSES], "chat_completions"],
  ["a codex-named model on a local server", ["ollama", "http://127.0.0.1:11434/v1", "codex-like", RESPONSES], "chat_completions"],
];
for (const [name, args, expected] of detection) test(`api mode: ${name}`, () => assert.equal(detectApiMode(...args), expected));

test("glob patterns", () => {
  assert.ok(globMatch("*codex*", "GPT-5-Codex"));
  assert.ok(globMatch("o1-pro*", "o1-pro"));
  assert.ok(!globMatch("o1-pro*", "xo1-pro"));
  assert.ok(!globMatch("gpt-4.1", "gpt-441"), "dots are literal");
});

test("model table: longest prefix wins, vendor prefixes are ignored, unknown models get safe defaults", () => {
  assert.equal(lookupModel("gpt-4.1-mini").price?.input, 0.4);
  assert.equal(lookupModel("gpt-4.1").price?.input, 2);
  assert.equal(lookupModel("anthropic/claude-sonnet-4-5").contextWindow, 200_000);
  assert.equal(lookupModel("claude-sonnet-4-5-20250929").maxOutputTokens, 64_000);
  const unknown = lookupModel("my-finetune");
  assert.equal(unknown.known, false);
  assert.equal(unknown.price, undefined);
  assert.ok(unknown.contextWindow > 0);
});

async function loaded(yaml: string, env: Record<string, string> = {}) {
  const home = await tempDir("hermes-models-");
  await writeFile(path.join(home, "config.yaml"), yaml);
  return loadConfig({ home, env });
}

test("fallbacks inherit the main endpoint; picker lists main, fallbacks and models without duplicates", async () => {
  const config = await loaded(
    [
      "model: {provider: openai, name: gpt-4.1, context_length: 50000, price: {input: 1, output: 2}}",
      "fallback_models:",
      "  - {name: gpt-4.1-mini}",
      "  - {provider: anthropic, name: claude-sonnet-4-5, api_key: sk-ant-x}",
      "models: [gpt-5, gpt-4.1, {provider: ollama, name: qwen3}]",
      "auxiliary: {name: gpt-4.1-nano}",
    ].join("\n"),
    { OPENAI_API_KEY: "sk-openai" },
  );
  assert.equal(config.error, undefined);
  const main = resolveModel(config);
  assert.ok(main.ok);
  assert.equal(main.model.contextWindow, 50_000, "config overrides the table");
  assert.deepEqual(main.model.price, { input: 1, output: 2 });
  const set = resolveModelSet(config, main.model);
  assert.deepEqual(set.problems, []);
  assert.deepEqual(set.fallbacks.map((m) => [m.id, m.apiMode, m.apiKeySource]), [
    ["openai/gpt-4.1-mini", "chat_completions", "OPENAI_API_KEY"],
    ["anthropic/claude-sonnet-4-5", "anthropic_messages", `${config.configPath} (fallback_models[1].api_key)`],
  ]);
  assert.deepEqual(set.choices.map((m) => m.id), ["openai/gpt-4.1", "openai/gpt-4.1-mini", "anthropic/claude-sonnet-4-5", "openai/gpt-5", "ollama/qwen3"]);
  assert.equal(set.choices.find((m) => m.id === "ollama/qwen3")?.baseUrl, "http://127.0.0.1:11434/v1");
  assert.equal(set.auxiliary.id, "openai/gpt-4.1-nano");
});

test("an unusable fallback is reported and skipped, not fatal", async () => {
  const config = await loaded("model: {provider: ollama, name: llama3}\nfallback_models: [{provider: openai, name: gpt-4.1}]\n");
  const main = resolveModel(config);
  assert.ok(main.ok);
  const set = resolveModelSet(config, main.model);
  assert.deepEqual(set.fallbacks, []);
  assert.match(set.problems[0], /No API key for provider "openai" \(fallback_models\[0\]\)/);
  assert.equal(set.auxiliary.id, "ollama/llama3", "the auxiliary model defaults to the main one");
});
