// Models over ACP: the Responses mode end to end, fallbacks and retries the user can see,
// usage reporting, and switching the model from the editor's picker.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { after, before, test } from "node:test";
import { startScriptedAnthropic } from "../support/scripted-anthropic";
import { startScriptedResponses, type ScriptedResponses } from "../support/scripted-responses";
import { useScriptedModel } from "../support/scripted-model";
import { agentText, makeTempDir, scriptedConfig, sessionUpdates, startAgent } from "../support/in-process-agent";

const scripted = useScriptedModel();
let responses: ScriptedResponses;
before(async () => {
  responses = await startScriptedResponses();
});
after(async () => {
  await responses.close();
});

const thoughts = (updates: acp.SessionUpdate[]) =>
  updates.map((u) => (u.sessionUpdate === "agent_thought_chunk" && u.content.type === "text" ? u.content.text : "")).join("");

test("Responses API mode: a tool-using turn, with encrypted reasoning sent back on the next call", async () => {
  const project = await makeTempDir();
  await writeFile(path.join(project, "notes.md"), "TODO: ship it\n");
  const first = responses.requests.length;
  responses.enqueue(
    { reasoningSummary: "Look at the notes first.", encryptedReasoning: "enc-blob-1", toolCalls: [{ id: "fc1", name: "read_file", arguments: { path: "notes.md" } }] },
    { text: "The notes say: ship it." },
  );
  // provider openai + a codex model: auto-detection picks the Responses API.
  const hermes = await startAgent({ config: { model: { provider: "openai", name: "gpt-5-codex", base_url: responses.url, api_key: "sk-test" }, sessions: { auto_title: false } } });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    const response = await hermes.prompt(sessionId, "what do the notes say?");
    assert.equal(response.stopReason, "end_turn");
    assert.equal(agentText(hermes, sessionId), "The notes say: ship it.");
    assert.match(thoughts(sessionUpdates(hermes, sessionId)), /Look at the notes first\./);

    const calls = responses.requests.slice(first);
    assert.equal(calls.length, 2);
    assert.equal(calls[0].path, "/v1/responses");
    assert.equal(calls[0].body.store, false);
    const second = calls[1].body.input as any[];
    const reasoningAt = second.findIndex((item) => item.type === "reasoning");
    const callAt = second.findIndex((item) => item.type === "function_call" && item.call_id === "fc1");
    assert.ok(reasoningAt >= 0 && reasoningAt < callAt, "the reasoning item goes back before its function call");
    assert.equal(second[reasoningAt].encrypted_content, "enc-blob-1");
    const output = second.find((item) => item.type === "function_call_output");
    assert.match(output.output, /TODO: ship it/);
    assert.deepEqual(hermes.invalidUpdates, []);
  } finally {
    await hermes.close();
  }
});

test("a failing main model falls back to the next one, and the user sees why", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const first = model.requests.length;
  model.enqueue({ status: 401 }, { text: "answered by the fallback" });
  const config = scriptedConfig(model.url, { fallback_models: [{ name: "backup-model" }], agent: { retry_base_delay: 0.01 } });
  const hermes = await startAgent({ config });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    assert.equal((await hermes.prompt(sessionId, "hello")).stopReason, "end_turn");
    assert.deepEqual(model.requests.slice(first).map((r) => r.body.model), ["fake-model", "backup-model"]);
    assert.equal(agentText(hermes, sessionId), "answered by the fallback");
    assert.match(thoughts(sessionUpdates(hermes, sessionId)), /Switching to custom\/backup-model after custom\/fake-model failed: .*401/);
  } finally {
    await hermes.close();
  }
});

test("when retries and fallbacks are exhausted the turn ends with a message and an error; the session lives on", async () => {
  const model = scripted();
  const project = await makeTempDir();
  model.enqueue({ status: 500 }, { status: 500 }, { status: 500 });
  const config = scriptedConfig(model.url, { agent: { retry_base_delay: 0.01 } });
  (config.model as Record<string, unknown>).max_retries = 2;
  const hermes = await startAgent({ config });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    await assert.rejects(hermes.prompt(sessionId, "hello"), (error: any) => error.code === -32603 && /HTTP 500/.test(error.message));
    assert.match(agentText(hermes, sessionId), /The model request failed\..*HTTP 500/);
    assert.equal((thoughts(sessionUpdates(hermes, sessionId)).match(/Retrying in/g) ?? []).length, 2);
    model.enqueue({ text: "recovered" });
    assert.equal((await hermes.prompt(sessionId, "again")).stopReason, "end_turn");
  } finally {
    await hermes.close();
  }
});

test("usage_update follows each model call (context used, window, cost) and the response carries the turn's totals", async () => {
  const model = scripted();
  const project = await makeTempDir();
  model.enqueue(
    { toolCalls: [{ id: "t1", name: "todo", arguments: { todos: [{ id: "1", content: "x", status: "pending" }] } }], usage: { prompt_tokens: 1000, completion_tokens: 50 } },
    { text: "done", usage: { prompt_tokens: 1200, completion_tokens: 20, prompt_tokens_details: { cached_tokens: 1000 } } },
  );
  const config = scriptedConfig(model.url);
  Object.assign(config.model as Record<string, unknown>, { context_length: 8000, price: { input: 2, output: 8, cache_read: 0.5 } });
  const hermes = await startAgent({ config });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    const response = (await hermes.prompt(sessionId, "go")) as acp.PromptResponse & { usage?: Record<string, number> };
    const usage = sessionUpdates(hermes, sessionId).filter((u) => u.sessionUpdate === "usage_update");
    assert.equal(usage.length, 2);
    assert.deepEqual(
      usage.map((u) => u.sessionUpdate === "usage_update" && [u.used, u.size]),
      [[1050, 8000], [1220, 8000]],
      "used is the context of each call, not a running total",
    );
    const last = usage[1];
    // 1000*2 + 50*8 = 2400; then 200*2 + 1000*0.5 + 20*8 = 1060 → 3460 per million.
    assert.ok(last.sessionUpdate === "usage_update" && last.cost);
    assert.equal(last.cost.currency, "USD");
    assert.ok(Math.abs(last.cost.amount - 0.00346) < 1e-9, String(last.cost.amount));
    assert.deepEqual(response.usage, { totalTokens: 2270, inputTokens: 2200, outputTokens: 70, cachedReadTokens: 1000 });
  } finally {
    await hermes.close();
  }
});

test("the model picker: session/new offers the models; set_config_option switches the next call", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const config = scriptedConfig(model.url, { fallback_models: [{ name: "backup-model" }], models: ["big-model"] });
  const hermes = await startAgent({ config });
  try {
    await hermes.initialize();
    const created = await hermes.newSession(project);
    assert.deepEqual(created.modes?.currentModeId, "default", "modes are still offered");
    const picker = created.configOptions?.find((o) => o.category === "model");
    assert.ok(picker && picker.type === "select");
    assert.equal(picker.currentValue, "custom/fake-model");
    const values = (picker.options as acp.SessionConfigSelectOption[]).map((o) => o.value);
    // Configured models first, then what GET /models lists (the scripted server lists one).
    assert.deepEqual(values.slice(0, 3), ["custom/fake-model", "custom/backup-model", "custom/big-model"]);
    assert.ok(values.includes("custom/scripted-model"), "models the endpoint lists are offered too");

    const answer = await hermes.agent.request(acp.methods.agent.session.setConfigOption, { sessionId: created.sessionId, configId: "model", value: "custom/big-model" });
    const updated = answer.configOptions.find((o) => o.id === "model");
    assert.ok(updated && updated.type === "select" && updated.currentValue === "custom/big-model");
    assert.ok(answer.configOptions.some((o) => o.category === "mode"), "the answer is the full list");

    const first = model.requests.length;
    model.enqueue({ text: "from the big one" });
    await hermes.prompt(created.sessionId, "hi");
    assert.equal(model.requests[first].body.model, "big-model");

    await assert.rejects(
      hermes.agent.request(acp.methods.agent.session.setConfigOption, { sessionId: created.sessionId, configId: "model", value: "custom/nope" }),
      (error: any) => error.code === -32602 && /unknown model/.test(error.message),
    );
    const mode = await hermes.agent.request(acp.methods.agent.session.setConfigOption, { sessionId: created.sessionId, configId: "mode", value: "accept_edits" });
    assert.equal(mode.configOptions.find((o) => o.id === "mode")?.currentValue, "accept_edits");
  } finally {
    await hermes.close();
  }
});


test("Anthropic Messages mode: thinking with its signature goes back with the tool use; caching breakpoints hold", async () => {
  const anthropic = await startScriptedAnthropic();
  const project = await makeTempDir();
  await writeFile(path.join(project, "a.txt"), "alpha\n");
  anthropic.enqueue(
    { thinking: "I should read the file.", signature: "sig-xyz", toolCalls: [{ id: "toolu_1", name: "read_file", input: { path: "a.txt" } }] },
    { text: "It says alpha." },
    { text: "Second turn." },
  );
  const hermes = await startAgent({
    config: { model: { provider: "anthropic", name: "claude-sonnet-4-5", base_url: anthropic.url, api_key: "sk-ant-test", thinking_budget: 2048 }, sessions: { auto_title: false } },
  });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    assert.equal((await hermes.prompt(sessionId, "read a.txt")).stopReason, "end_turn");
    assert.equal((await hermes.prompt(sessionId, "and again")).stopReason, "end_turn");
    assert.equal(agentText(hermes, sessionId), "It says alpha.Second turn.");
    assert.match(thoughts(sessionUpdates(hermes, sessionId)), /I should read the file\./);

    const [first, second, third] = anthropic.requests;
    assert.equal(first.path, "/v1/messages");
    assert.ok(first.body.thinking && first.body.thinking.budget_tokens === 2048);
    const assistant = second.body.messages.find((m: any) => m.role === "assistant");
    assert.deepEqual(assistant.content[0], { type: "thinking", thinking: "I should read the file.", signature: "sig-xyz" }, "thinking block replayed first, verbatim");
    assert.equal(assistant.content.at(-1).type, "tool_use");
    const toolResult = second.body.messages.at(-1).content.find((b: any) => b.type === "tool_result");
    assert.equal(toolResult.tool_use_id, "toolu_1");
    assert.match(JSON.stringify(toolResult.content), /alpha/);

    // The frozen system prompt is byte-identical across calls and turns, and carries a breakpoint.
    assert.deepEqual(second.body.system, first.body.system);
    assert.deepEqual(third.body.system, first.body.system);
    for (const request of [first, second, third]) {
      const marks = JSON.stringify(request.body).match(/"cache_control"/g) ?? [];
      assert.ok(marks.length >= 2 && marks.length <= 4, `${marks.length} breakpoints`);
    }
    assert.ok(anthropic.cache.totals.cacheReadTokens > 0, "later calls read the cached prefix");
    const usage = sessionUpdates(hermes, sessionId).filter((u) => u.sessionUpdate === "usage_update");
    assert.equal(usage.length, 3);
    assert.ok(usage.every((u) => u.sessionUpdate === "usage_update" && u.size === 200_000 && u.cost), "Claude's window and prices come from the model table");
  } finally {
    await hermes.close();
    await anthropic.close();
  }
});
