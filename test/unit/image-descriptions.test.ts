// When the vision model is asked to describe images for a text-only model: only when the first
// model of the chain is text-only (a text-only fallback behind a model that sees gets notes), once
// per image per session, and a cancelled description is asked again on the next call.
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import type { ModelChoice } from "../../acp-server/agent/model-choice";
import { textOnlyVariant, type DescribeImage } from "../../acp-server/agent/image-descriptions";
import type { ModelRequest, ModelProvider } from "../../acp-server/providers/types";

const provider = {} as ModelProvider; // never called: only `vision` matters here
const model = (vision: boolean): ModelChoice => ({ id: `m/${String(vision)}`, provider, maxRetries: 0, contextWindow: 1000, maxOutputTokens: 100, vision });
const request: ModelRequest = { messages: [{ role: "user", content: [{ type: "text", text: "see" }, { type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" }] }], tools: [] };

function counting(answer: () => Promise<string>): { describe: DescribeImage; calls: () => number } {
  let calls = 0;
  return { describe: () => (calls++, answer()), calls: () => calls };
}

test("described once per session when the first model is text-only; notes for a text-only fallback", async () => {
  const owner = {};
  const asked = counting(async () => "a tiny picture");
  for (let i = 0; i < 2; i++) {
    const variant = await textOnlyVariant(request, { models: [model(false)], owner, describe: asked.describe, notice: () => {} });
    assert.match(JSON.stringify(variant?.messages), /the vision model described it: a tiny picture/);
  }
  assert.equal(asked.calls(), 1);

  const behind = counting(async () => "unused");
  const variant = await textOnlyVariant(request, { models: [model(true), model(false)], owner: {}, describe: behind.describe, notice: () => {} });
  assert.equal(behind.calls(), 0, "the model that sees goes first: no description is paid for up front");
  assert.match(JSON.stringify(variant?.messages), /not shown: this model cannot see images/);
  assert.equal(await textOnlyVariant(request, { models: [model(true)], owner: {}, describe: behind.describe, notice: () => {} }), undefined);
});

test("a failed description is told once and not retried; a cancelled one is asked again", async () => {
  const notices: string[] = [];
  const failing = counting(async () => Promise.reject(new Error("vision model down")));
  const owner = {};
  for (let i = 0; i < 2; i++) await textOnlyVariant(request, { models: [model(false)], owner, describe: failing.describe, notice: (text) => notices.push(text) });
  assert.equal(failing.calls(), 1);
  assert.equal(notices.length, 1);
  assert.match(notices[0]!, /could not describe an image .*vision model down/);

  const aborted = counting(async () => Promise.reject(Object.assign(new Error("aborted"), { name: "AbortError" })));
  const other = {};
  await textOnlyVariant(request, { models: [model(false)], owner: other, describe: aborted.describe, notice: () => {} });
  await textOnlyVariant(request, { models: [model(false)], owner: other, describe: aborted.describe, notice: () => {} });
  assert.equal(aborted.calls(), 2, "a cancelled turn's image is described on the next call");
});

test("with the vision model named, a description outlives the session: a reloaded one (a new owner) is not asked again; another vision model is", async () => {
  const home = mkdtempSync(path.join(os.tmpdir(), "hermes-descriptions-"));
  const saved = process.env.HERMES_HOME;
  process.env.HERMES_HOME = home;
  try {
    const asked = counting(async () => "a cart page showing Total: NaN");
    const first = await textOnlyVariant(request, { models: [model(false)], owner: {}, describe: asked.describe, describer: "anthropic/claude-sonnet-4-5", notice: () => {} });
    const reloaded = await textOnlyVariant(request, { models: [model(false)], owner: {}, describe: asked.describe, describer: "anthropic/claude-sonnet-4-5", notice: () => {} });
    assert.equal(asked.calls(), 1, "the reloaded session reads the kept description");
    assert.equal(JSON.stringify(reloaded?.messages), JSON.stringify(first?.messages));
    const [kept] = readdirSync(path.join(home, "cache", "image-descriptions"));
    assert.equal(statSync(path.join(home, "cache", "image-descriptions", kept!)).mode & 0o777, 0o600);
    await textOnlyVariant(request, { models: [model(false)], owner: {}, describe: asked.describe, describer: "openai/gpt-4.1", notice: () => {} });
    assert.equal(asked.calls(), 2, "another vision model describes for itself");
  } finally {
    if (saved === undefined) delete process.env.HERMES_HOME;
    else process.env.HERMES_HOME = saved;
    rmSync(home, { recursive: true, force: true });
  }
});
