// The real ChatCompletionsProvider (real openai SDK, real HTTP, real SSE) against the
// scripted server. Each test gets its own server so counters and queues never leak.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { TestContext } from "node:test";
import { ChatCompletionsProvider } from "../../acp-server/providers/chat-completions";
import type { ChatCompletionsProviderOptions } from "../../acp-server/providers/chat-completions";
import { reasoningOf } from "../../acp-server/providers/chat-completions-messages";
import { ProviderError } from "../../acp-server/providers/types";
import type { ModelEvent, ModelRequest, ToolSpec } from "../../acp-server/providers/types";
import { startScriptedModel } from "../support/scripted-model";
import type { ScriptedModel } from "../support/scripted-model";
import { collect, errorOf } from "../support/provider-stream";

async function setup(t: TestContext, options: Partial<ChatCompletionsProviderOptions> = {}) {
  const model = await startScriptedModel();
  t.after(() => model.close());
  const provider = new ChatCompletionsProvider({
    provider: "custom",
    model: "test-model",
    baseURL: model.url,
    apiKey: undefined,
    maxRetries: 0,
    ...options,
  });
  return { model, provider };
}

const hello: ModelRequest = { messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }], tools: [] };

const readFileTool: ToolSpec = {
  name: "read_file",
  description: "Read a file",
  parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
};

test("streams text as several deltas, then usage and finish; sends a well-formed request", async (t) => {
  const { model, provider } = await setup(t, { headers: { "x-hermes": "yes" } });
  model.enqueue({ text: "The quick brown fox jumps over the lazy dog", usage: { prompt_tokens: 12, completion_tokens: 9 } });

  const events = await collect(provider, { ...hello, maxTokens: 256, temperature: 0.2 });
  const textDeltas = events.filter((e) => e.type === "text_delta");
  assert.ok(textDeltas.length > 1, `expected several text deltas, got ${textDeltas.length}`);
  assert.equal(textDeltas.map((e) => e.text).join(""), "The quick brown fox jumps over the lazy dog");
  assert.deepEqual(events.slice(-2), [
    { type: "usage", usage: { inputTokens: 12, outputTokens: 9 } },
    { type: "finish", reason: "stop" },
  ]);
  assert.ok(events.findIndex((e) => e.type === "finish") > events.findLastIndex((e) => e.type === "text_delta"));

  const [request] = model.requests;
  assert.equal(request.path, "/v1/chat/completions");
  assert.equal(request.headers.authorization, "Bearer not-needed");
  assert.equal(request.headers["x-hermes"], "yes");
  assert.equal(request.body.model, "test-model");
  assert.equal(request.body.stream, true);
  assert.deepEqual(request.body.stream_options, { include_usage: true });
  assert.equal(request.body.max_tokens, 256);
  assert.equal(request.body.temperature, 0.2);
  assert.equal("tools" in request.body, false, "no tools key when there are no tools");
  assert.deepEqual(request.body.messages, [{ role: "user", content: "hi" }]);
});

test("reasoning_content arrives as reasoning deltas before the text", async (t) => {
  const { model, provider } = await setup(t);
  model.enqueue({ reasoning: "Let me think about this carefully", text: "Answer: 42" });
  const events = await collect(provider, hello);
  const reasoning = events.filter((e) => e.type === "reasoning_delta");
  assert.ok(reasoning.length > 1);
  assert.equal(reasoning.map((e) => e.text).join(""), "Let me think about this carefully");
  assert.ok(events.findLastIndex((e) => e.type === "reasoning_delta") < events.findIndex((e) => e.type === "text_delta"));
  // OpenRouter names the same field `reasoning`.
  assert.equal(reasoningOf({ reasoning: "via openrouter" }), "via openrouter");
});

test("a single tool call is emitted whole, and the tool schema is sent", async (t) => {
  const { model, provider } = await setup(t);
  model.enqueue({
    text: "Reading it.",
    toolCalls: [{ id: "call_1", name: "read_file", arguments: { path: "src/ä ü.ts", note: "quote \" inside" } }],
  });
  const events = await collect(provider, { ...hello, tools: [readFileTool] });
  const calls = events.filter((e) => e.type === "tool_call");
  assert.equal(calls.length, 1);
  assert.equal(calls[0].call.id, "call_1");
  assert.equal(calls[0].call.name, "read_file");
  assert.deepEqual(JSON.parse(calls[0].call.arguments), { path: "src/ä ü.ts", note: 'quote " inside' });
  assert.deepEqual(events.at(-1), { type: "finish", reason: "tool_calls" });

  const body = model.requests[0].body;
  assert.deepEqual(body.tools, [
    { type: "function", function: { name: "read_file", description: "Read a file", parameters: readFileTool.parameters } },
  ]);
  assert.equal(body.parallel_tool_calls, true);
});

test("two interleaved parallel tool calls come out in index order with intact arguments", async (t) => {
  const { model, provider } = await setup(t);
  model.enqueue({
    toolCalls: [
      { id: "call_a", name: "read_file", arguments: { path: "first/file/with/a/long/path.ts" } },
      // No id from the server: the provider must make one up.
      { id: "", name: "grep", arguments: '{"pattern":"TODO","glob":"**/*.ts"}' },
    ],
  });
  const events = await collect(provider, { ...hello, tools: [readFileTool] });
  const calls = events.filter((e) => e.type === "tool_call").map((e) => e.call);
  assert.deepEqual(
    calls.map((c) => c.name),
    ["read_file", "grep"],
  );
  assert.deepEqual(JSON.parse(calls[0].arguments), { path: "first/file/with/a/long/path.ts" });
  assert.deepEqual(JSON.parse(calls[1].arguments), { pattern: "TODO", glob: "**/*.ts" });
  assert.equal(calls[0].id, "call_a");
  assert.match(calls[1].id, /^call_[0-9a-f]{24}$/, "generated by the provider");
});

test("usage maps cached and reasoning token details", async (t) => {
  const { model, provider } = await setup(t);
  model.enqueue({
    text: "ok",
    usage: {
      prompt_tokens: 100,
      completion_tokens: 40,
      prompt_tokens_details: { cached_tokens: 64 },
      completion_tokens_details: { reasoning_tokens: 30 },
    },
  });
  const events = await collect(provider, hello);
  assert.deepEqual(
    events.find((e) => e.type === "usage"),
    { type: "usage", usage: { inputTokens: 100, outputTokens: 40, cacheReadTokens: 64, reasoningTokens: 30 } },
  );
});

test("the conversation is converted to Chat Completions messages", async (t) => {
  const { model, provider } = await setup(t);
  await collect(provider, {
    tools: [readFileTool],
    messages: [
      { role: "system", content: "You are Hermes." },
      {
        role: "user",
        content: [
          { type: "text", text: "What is in this picture?" },
          { type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" },
        ],
      },
      {
        role: "assistant",
        content: "",
        reasoning: "secret chain of thought",
        toolCalls: [{ id: "call_9", name: "read_file", arguments: '{"path":"a.txt"}' }],
      },
      { role: "tool", toolCallId: "call_9", name: "read_file", content: "file body" },
      { role: "assistant", content: "It is a cat.", reasoning: "more thoughts" },
      { role: "user", content: [{ type: "text", text: "first" }, { type: "text", text: "second" }] },
    ],
  });
  assert.deepEqual(model.requests[0].body.messages, [
    { role: "system", content: "You are Hermes." },
    {
      role: "user",
      content: [
        { type: "text", text: "What is in this picture?" },
        { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
      ],
    },
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "call_9", type: "function", function: { name: "read_file", arguments: '{"path":"a.txt"}' } }],
    },
    { role: "tool", tool_call_id: "call_9", content: "file body" },
    { role: "assistant", content: "It is a cat." },
    { role: "user", content: "first\n\nsecond" },
  ]);
});

test("HTTP 500 becomes a retryable ProviderError with the status and server message", async (t) => {
  const { model, provider } = await setup(t);
  model.enqueue({ status: 500, errorBody: { error: { message: "GPU melted", type: "server_error" } } });
  const error = await errorOf(collect(provider, hello));
  assert.ok(error instanceof ProviderError);
  assert.equal(error.status, 500);
  assert.equal(error.retryable, true);
  assert.match(error.message, /HTTP 500/);
  assert.match(error.message, /GPU melted/);
  assert.equal(model.requests.length, 1, "maxRetries 0 means exactly one attempt");
});

test("the SDK retries a 500 before any output, then streams the retry", async (t) => {
  const { model, provider } = await setup(t, { maxRetries: 2 });
  model.enqueue({ status: 503, headers: { "retry-after-ms": "1" } }, { text: "recovered fine" });
  const events = await collect(provider, hello);
  const text = events.flatMap((e) => (e.type === "text_delta" ? [e.text] : [])).join("");
  assert.equal(text, "recovered fine");
  assert.equal(model.requests.length, 2);
});

test("HTTP 401 names the key to check and is not retried", async (t) => {
  const { model, provider } = await setup(t, { maxRetries: 2, apiKey: "sk-wrong", apiKeyEnv: "OPENAI_API_KEY" });
  model.enqueue({ status: 401 });
  const error = await errorOf(collect(provider, hello));
  assert.ok(error instanceof ProviderError);
  assert.equal(error.status, 401);
  assert.equal(error.retryable, false);
  assert.match(error.message, /Incorrect API key provided/);
  assert.match(error.message, /OPENAI_API_KEY/);
  assert.equal(model.requests[0].headers.authorization, "Bearer sk-wrong");
  assert.equal(model.requests.length, 1);
});

test("HTTP 404 hints at the model name and base URL; Ollama-style string errors are kept", async (t) => {
  const { model, provider } = await setup(t);
  model.enqueue({ status: 404, errorBody: { error: "model 'test-model' not found" } });
  const error = await errorOf(collect(provider, hello));
  assert.ok(error instanceof ProviderError);
  assert.equal(error.status, 404);
  assert.match(error.message, /model 'test-model' not found/);
  assert.ok(error.message.includes(model.url), error.message);
});

test("an unreachable server gives a 'could not reach' error", async (t) => {
  const { model } = await setup(t);
  const deadUrl = model.url;
  await model.close();
  const provider = new ChatCompletionsProvider({ provider: "local", model: "m", baseURL: deadUrl, maxRetries: 0 });
  const error = await errorOf(collect(provider, hello));
  assert.ok(error instanceof ProviderError);
  assert.equal(error.retryable, true);
  assert.ok(error.message.includes(`could not reach ${deadUrl}: nothing is listening there (connection refused)`), error.message);
});

async function abortAfterFirstDelta(model: ScriptedModel, provider: ChatCompletionsProvider) {
  const controller = new AbortController();
  const seen: ModelEvent[] = [];
  const error = await errorOf(
    (async () => {
      for await (const event of provider.stream(hello, controller.signal)) {
        seen.push(event);
        if (event.type === "text_delta" && seen.length === 1) controller.abort();
      }
    })(),
  );
  assert.equal(error.name, "AbortError");
  assert.equal(seen.length, 1, "no events after the abort");
  await model.waitForAbortedStreams(1);
  assert.equal(model.abortedStreams, 1, "the server to see the client disconnect");
}

test("aborting a slow stream rejects with AbortError and closes the HTTP request", async (t) => {
  const { model, provider } = await setup(t);
  // 30 chunks 200 ms apart: an abort that did not cut the stream would deliver more events, and
  // the server would see it finish instead of the client leaving.
  model.enqueue({ text: "word ".repeat(30), chunkDelayMs: 200 });
  await abortAfterFirstDelta(model, provider);
});

test("aborting a hung stream rejects with AbortError and closes the HTTP request", async (t) => {
  const { model, provider } = await setup(t);
  model.enqueue({ text: "partial", hang: true });
  await abortAfterFirstDelta(model, provider);
});

test("aborting while the SDK waits to retry rejects at once", async (t) => {
  const { model, provider } = await setup(t, { maxRetries: 2 });
  model.enqueue({ status: 503, headers: { "retry-after-ms": "30000" } });
  const controller = new AbortController();
  const pending = collect(provider, hello, controller.signal);
  await model.waitForRequests(1, 5000);
  controller.abort();
  const error = await errorOf(pending);
  assert.equal(error.name, "AbortError");
});

test("an already aborted signal sends no request", async (t) => {
  const { model, provider } = await setup(t);
  const controller = new AbortController();
  controller.abort();
  const error = await errorOf(collect(provider, hello, controller.signal));
  assert.equal(error.name, "AbortError");
  assert.equal(model.requests.length, 0);
});

test("a consumer that stops early drops the HTTP request", async (t) => {
  const { model, provider } = await setup(t);
  model.enqueue({ text: "one two three four five", hang: true });
  for await (const event of provider.stream(hello, new AbortController().signal)) {
    if (event.type === "text_delta") break;
  }
  await model.waitForAbortedStreams(1);
  assert.equal(model.abortedStreams, 1, "the server to see the client disconnect");
});

test("a connection dropped after partial output is a retryable error and never looks finished", async (t) => {
  const { model, provider } = await setup(t, { maxRetries: 2 });
  model.enqueue({ text: "half an answer", disconnect: true }, { text: "must never be requested" });
  const events: ModelEvent[] = [];
  const error = await errorOf(
    (async () => {
      for await (const event of provider.stream(hello, new AbortController().signal)) events.push(event);
    })(),
  );
  assert.ok(error instanceof ProviderError, String(error));
  // Retrying is the loop's call (it discards the partial answer and tells the user).
  assert.equal(error.retryable, true);
  assert.ok(events.some((e) => e.type === "text_delta"));
  assert.ok(!events.some((e) => e.type === "finish"), "a truncated stream must not look finished");
  assert.equal(model.requests.length, 1);
});

test("a stream that goes silent past the idle timeout fails as stalled", async (t) => {
  const { model, provider } = await setup(t, { idleTimeoutMs: 300 });
  model.enqueue({ text: "started", hang: true });
  const error = await errorOf(collect(provider, hello));
  assert.ok(error instanceof ProviderError, String(error));
  assert.equal(error.kind, "stalled");
  assert.equal(error.retryable, true);
  assert.match(error.message, /stalled/);
  assert.notEqual(error.name, "AbortError");
});

test("OPENAI_ORG_ID from the environment is not sent to non-OpenAI providers", async (t) => {
  const previous = process.env.OPENAI_ORG_ID;
  process.env.OPENAI_ORG_ID = "org-private";
  t.after(() => {
    if (previous === undefined) delete process.env.OPENAI_ORG_ID;
    else process.env.OPENAI_ORG_ID = previous;
  });
  const { model, provider } = await setup(t); // provider "custom"; the SDK reads env on creation
  await collect(provider, hello);
  assert.equal(model.requests[0].headers["openai-organization"], undefined);
  // Nor to another host given as OpenAI's base_url.
  const overridden = await setup(t, { provider: "openai" });
  await collect(overridden.provider, hello);
  assert.equal(overridden.model.requests[0].headers["openai-organization"], undefined);
});
