// The real CodexResponsesProvider (real openai SDK, real HTTP, real SSE) against the scripted
// Responses server. Each test gets its own server so counters and queues never leak.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { TestContext } from "node:test";
import { CodexResponsesProvider } from "../../acp-server/providers/codex-responses";
import type { CodexResponsesProviderOptions } from "../../acp-server/providers/codex-responses";
import { ContextOverflowError, ProviderError } from "../../acp-server/providers/types";
import type { ChatMessage, ModelEvent, ModelRequest, ToolSpec } from "../../acp-server/providers/types";
import { startScriptedResponses } from "../support/scripted-responses";
import { collect, errorOf, textOf } from "../support/provider-stream";

async function setup(t: TestContext, options: Partial<CodexResponsesProviderOptions> = {}) {
  const server = await startScriptedResponses();
  t.after(() => server.close());
  const provider = new CodexResponsesProvider({ provider: "custom", model: "gpt-test", baseURL: server.url, ...options });
  return { server, provider };
}

const hello: ModelRequest = {
  messages: [
    { role: "system", content: "You are Hermes." },
    { role: "user", content: [{ type: "text", text: "hi" }] },
  ],
  tools: [],
};

const readFileTool: ToolSpec = {
  name: "read_file",
  description: "Read a file",
  parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
};

test("text streams as several deltas; the request is stateless and asks for encrypted reasoning", async (t) => {
  const { server, provider } = await setup(t);
  server.enqueue({ text: "Hello there, how can I help you today?" });
  const events = await collect(provider, hello);
  assert.ok(events.filter((e) => e.type === "text_delta").length > 1);
  assert.equal(textOf(events, "text_delta"), "Hello there, how can I help you today?");
  assert.deepEqual(events.at(-1), { type: "finish", reason: "stop" });

  const { path, body } = server.requests[0];
  assert.equal(path, "/v1/responses");
  assert.equal(body.model, "gpt-test");
  assert.equal(body.stream, true);
  assert.equal(body.store, false);
  assert.deepEqual(body.include, ["reasoning.encrypted_content"]);
  assert.equal(body.instructions, "You are Hermes.");
  assert.deepEqual(body.input, [{ role: "user", content: [{ type: "input_text", text: "hi" }] }]);
  // Nothing the caller did not ask for.
  for (const key of ["tools", "parallel_tool_calls", "reasoning", "temperature", "max_output_tokens"]) {
    assert.equal(key in body, false, key);
  }
});

test("reasoning summaries stream as reasoning deltas before the text, parts separated", async (t) => {
  const { server, provider } = await setup(t, { reasoningEffort: "high", maxOutputTokens: 4096 });
  server.enqueue({ reasoningSummary: ["**Planning** the answer carefully", "Then checking it"], text: "Answer: 42" });
  const events = await collect(provider, { ...hello, temperature: 0.2 });
  assert.equal(textOf(events, "reasoning_delta"), "**Planning** the answer carefully\n\nThen checking it");
  assert.ok(events.findLastIndex((e) => e.type === "reasoning_delta") < events.findIndex((e) => e.type === "text_delta"));
  const body = server.requests[0].body;
  assert.deepEqual(body.reasoning, { effort: "high", summary: "auto" });
  assert.equal(body.max_output_tokens, 4096);
  assert.equal(body.temperature, 0.2);
  // A per-request limit wins over the configured default.
  await collect(provider, { ...hello, maxTokens: 100 });
  assert.equal(server.requests[1].body.max_output_tokens, 100);
});

test("an encrypted reasoning item becomes a replay event and goes back verbatim before the call", async (t) => {
  const { server, provider } = await setup(t);
  server.enqueue({
    reasoningSummary: "Need the file first",
    encryptedReasoning: "gAAAAB-opaque-blob==",
    toolCalls: [{ id: "call_r1", name: "read_file", arguments: { path: "a.ts" } }],
  });
  const first = await collect(provider, { ...hello, tools: [readFileTool] });
  const replay = first.filter((e) => e.type === "replay").map((e) => e.block);
  const expectedItem = { type: "reasoning", id: "rs_1_0", summary: [{ type: "summary_text", text: "Need the file first" }], encrypted_content: "gAAAAB-opaque-blob==" };
  assert.deepEqual(replay, [{ format: "codex_responses", data: expectedItem }]);
  const call = first.find((e) => e.type === "tool_call")?.call;
  assert.deepEqual(call, { id: "call_r1", name: "read_file", arguments: '{"path":"a.ts"}' });
  assert.deepEqual(first.at(-1), { type: "finish", reason: "tool_calls" });

  // The loop stores the blocks with the assistant message; the next call sends them back.
  const history: ChatMessage[] = [
    ...hello.messages,
    { role: "assistant", content: "", toolCalls: [call], replay },
    { role: "tool", toolCallId: "call_r1", name: "read_file", content: "export const a = 1;" },
  ];
  server.enqueue({ text: "It exports a." });
  await collect(provider, { messages: history, tools: [readFileTool] });
  assert.deepEqual(server.requests[1].body.input, [
    { role: "user", content: [{ type: "input_text", text: "hi" }] },
    expectedItem,
    { type: "function_call", call_id: "call_r1", name: "read_file", arguments: '{"path":"a.ts"}' },
    { type: "function_call_output", call_id: "call_r1", output: "export const a = 1;" },
  ]);
});

test("two parallel function calls come out in order with exact arguments; the tools are sent", async (t) => {
  const { server, provider } = await setup(t);
  server.enqueue({
    text: "Reading both.",
    toolCalls: [
      { id: "call_a", name: "read_file", arguments: { path: "src/ä ü.ts", note: 'quote " inside' } },
      // Sent verbatim, including the odd spacing: arguments must not be re-serialized.
      { id: "call_b", name: "grep", arguments: '{"pattern": "TODO",  "glob":"**/*.ts"}' },
    ],
  });
  const events = await collect(provider, { ...hello, tools: [readFileTool] });
  assert.deepEqual(
    events.filter((e) => e.type === "tool_call").map((e) => e.call),
    [
      { id: "call_a", name: "read_file", arguments: JSON.stringify({ path: "src/ä ü.ts", note: 'quote " inside' }) },
      { id: "call_b", name: "grep", arguments: '{"pattern": "TODO",  "glob":"**/*.ts"}' },
    ],
  );
  assert.equal(textOf(events, "text_delta"), "Reading both.");
  assert.deepEqual(events.at(-1), { type: "finish", reason: "tool_calls" });
  const body = server.requests[0].body;
  assert.deepEqual(body.tools, [{ type: "function", name: "read_file", description: "Read a file", parameters: readFileTool.parameters, strict: false }]);
  assert.equal(body.parallel_tool_calls, true);
});

test("images are sent as input_image data URLs", async (t) => {
  const { server, provider } = await setup(t);
  await collect(provider, {
    tools: [],
    messages: [{ role: "user", content: [{ type: "text", text: "What is this?" }, { type: "image", mimeType: "image/jpeg", data: "/9j/4AAQ" }] }],
  });
  const body = server.requests[0].body;
  assert.equal("instructions" in body, false);
  assert.deepEqual(body.input, [
    {
      role: "user",
      content: [
        { type: "input_text", text: "What is this?" },
        { type: "input_image", detail: "auto", image_url: "data:image/jpeg;base64,/9j/4AAQ" },
      ],
    },
  ]);
});

test("usage maps cached, cache-write and reasoning token details", async (t) => {
  const { server, provider } = await setup(t);
  server.enqueue({
    text: "ok",
    usage: {
      input_tokens: 1200,
      input_tokens_details: { cached_tokens: 1024, cache_write_tokens: 100 },
      output_tokens: 90,
      output_tokens_details: { reasoning_tokens: 64 },
    },
  });
  const events = await collect(provider, hello);
  assert.deepEqual(events.slice(-2), [
    { type: "usage", usage: { inputTokens: 1200, outputTokens: 90, cacheReadTokens: 1024, cacheWriteTokens: 100, reasoningTokens: 64 } },
    { type: "finish", reason: "stop" },
  ]);
});

test("response.incomplete finishes with length or content_filter, with usage", async (t) => {
  const { server, provider } = await setup(t);
  server.enqueue({ text: "This answer was cut", incomplete: "max_output_tokens" }, { text: "Blocked", incomplete: "content_filter" });
  const cut = await collect(provider, hello);
  assert.equal(textOf(cut, "text_delta"), "This answer was cut");
  assert.ok(cut.some((e) => e.type === "usage"));
  assert.deepEqual(cut.at(-1), { type: "finish", reason: "length" });
  assert.deepEqual((await collect(provider, hello)).at(-1), { type: "finish", reason: "content_filter" });
});

test("response.failed and error events become classified ProviderErrors", async (t) => {
  const { server, provider } = await setup(t);
  server.enqueue(
    { text: "partial", failed: { code: "server_error", message: "The model crashed" } },
    { failed: { code: "context_length_exceeded", message: "Your input exceeds the context window of this model." } },
    { errorEvent: { code: "rate_limit_exceeded", message: "Too many tokens per minute" } },
  );
  const crashed = await errorOf(collect(provider, hello));
  assert.ok(crashed instanceof ProviderError);
  assert.equal(crashed.kind, "server");
  assert.equal(crashed.retryable, true);
  assert.match(crashed.message, /The model crashed/);
  assert.ok((await errorOf(collect(provider, hello))) instanceof ContextOverflowError);
  const limited = await errorOf(collect(provider, hello));
  assert.ok(limited instanceof ProviderError);
  assert.equal(limited.kind, "rate_limit");
});

test("HTTP errors: 429 with retry-after, 401 naming the key, 500 retryable, each tried once", async (t) => {
  const { server, provider } = await setup(t, { apiKey: "sk-wrong", apiKeyEnv: "OPENAI_API_KEY" });
  server.enqueue({ status: 429, headers: { "retry-after": "7" } }, { status: 401 }, { status: 500 });
  const limited = await errorOf(collect(provider, hello));
  assert.ok(limited instanceof ProviderError);
  assert.equal(limited.kind, "rate_limit");
  assert.equal(limited.status, 429);
  assert.equal(limited.retryAfterMs, 7000);
  assert.equal(server.requests.length, 1, "maxRetries 0: the loop retries, not the SDK");

  const auth = await errorOf(collect(provider, hello));
  assert.ok(auth instanceof ProviderError);
  assert.equal(auth.kind, "auth");
  assert.equal(auth.retryable, false);
  assert.match(auth.message, /OPENAI_API_KEY/);
  assert.equal(server.requests[1].headers.authorization, "Bearer sk-wrong");

  const failed = await errorOf(collect(provider, hello));
  assert.ok(failed instanceof ProviderError);
  assert.equal(failed.kind, "server");
  assert.equal(failed.status, 500);
  assert.equal(server.requests.length, 3);
});

test("HTTP 400 context_length_exceeded goes to compression", async (t) => {
  const { server, provider } = await setup(t);
  server.enqueue({
    status: 400,
    errorBody: { error: { message: "Your input exceeds the context window of this model.", type: "invalid_request_error", code: "context_length_exceeded" } },
  });
  assert.ok((await errorOf(collect(provider, hello))) instanceof ContextOverflowError);
});

test("a stream that ends before response.completed is malformed and never looks finished", async (t) => {
  const { server, provider } = await setup(t);
  server.enqueue({ text: "half an answer", toolCalls: [{ name: "read_file", arguments: {} }], truncate: true });
  const events: ModelEvent[] = [];
  const error = await errorOf((async () => {
    for await (const event of provider.stream(hello, new AbortController().signal)) events.push(event);
  })());
  assert.ok(error instanceof ProviderError, String(error));
  assert.equal(error.kind, "malformed");
  assert.ok(events.some((e) => e.type === "text_delta"));
  assert.ok(!events.some((e) => e.type === "finish" || e.type === "tool_call"), "no finish and no half-run tool calls");
});

test("a dropped connection is a retryable network error", async (t) => {
  const { server, provider } = await setup(t);
  server.enqueue({ text: "half an answer", disconnect: true });
  const error = await errorOf(collect(provider, hello));
  assert.ok(error instanceof ProviderError, String(error));
  assert.equal(error.kind, "network");
});

test("a stream that goes silent past the idle timeout fails as stalled", async (t) => {
  const { server, provider } = await setup(t, { idleTimeoutMs: 300 });
  server.enqueue({ text: "started", hang: true });
  const error = await errorOf(collect(provider, hello));
  assert.ok(error instanceof ProviderError, String(error));
  assert.equal(error.kind, "stalled");
  assert.equal(error.retryable, true);
  await server.waitForAbortedStreams(1);
  assert.equal(server.abortedStreams, 1, "the server to see the client leave");
});

test("aborting mid-stream rejects with AbortError and closes the HTTP request", async (t) => {
  const { server, provider } = await setup(t);
  // 30 words 200 ms apart: an abort that did not cut the stream would deliver more events, and
  // the server would see it finish instead of the client leaving.
  server.enqueue({ text: "word ".repeat(30), chunkDelayMs: 200 });
  const controller = new AbortController();
  const seen: ModelEvent[] = [];
  const error = await errorOf((async () => {
    for await (const event of provider.stream(hello, controller.signal)) {
      seen.push(event);
      if (event.type === "text_delta") controller.abort();
    }
  })());
  assert.equal(error.name, "AbortError");
  assert.equal(seen.length, 1, "no events after the abort");
  await server.waitForAbortedStreams(1);
  assert.equal(server.abortedStreams, 1, "the server to see the client disconnect");
});

test("OPENAI_ORG_ID goes to OpenAI only: not to another vendor, nor to another host as the openai provider", async (t) => {
  const previous = process.env.OPENAI_ORG_ID;
  process.env.OPENAI_ORG_ID = "org-private";
  t.after(() => {
    if (previous === undefined) delete process.env.OPENAI_ORG_ID;
    else process.env.OPENAI_ORG_ID = previous;
  });
  const { server, provider } = await setup(t); // provider "custom"; the SDK reads env on creation
  await collect(provider, hello);
  assert.equal(server.requests[0].headers["openai-organization"], undefined);
  const openai = new CodexResponsesProvider({ provider: "openai", model: "gpt-test", baseURL: server.url });
  await openai.warmUp();
  assert.equal(server.requests.length, 1, "warmUp loads the SDK without calling the model");
  await collect(openai, hello);
  // The loopback server is not OpenAI's own API (only api.openai.com is): the org id stays home.
  assert.equal(server.requests[1].headers["openai-organization"], undefined);
});
