// The real AnthropicMessagesProvider (real @anthropic-ai/sdk, real HTTP, real SSE) against
// the scripted Anthropic server. Each test gets its own server so counters never leak.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { TestContext } from "node:test";
import { AnthropicMessagesProvider, sdkBaseURL } from "../../acp-server/providers/anthropic-messages";
import type { AnthropicMessagesProviderOptions } from "../../acp-server/providers/anthropic-messages";
import { ContextOverflowError, ProviderError } from "../../acp-server/providers/types";
import type { ChatMessage, ModelEvent, ModelRequest, ToolSpec } from "../../acp-server/providers/types";
import { defaultSignature, startScriptedAnthropic } from "../support/scripted-anthropic";
import { collect, errorOf, textOf } from "../support/provider-stream";

async function setup(t: TestContext, options: Partial<AnthropicMessagesProviderOptions> = {}) {
  const server = await startScriptedAnthropic();
  t.after(() => server.close());
  const provider = new AnthropicMessagesProvider({ provider: "anthropic", model: "claude-test", baseURL: server.url, maxTokens: 1000, ...options });
  return { server, provider };
}

const hello: ModelRequest = { messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }], tools: [] };
const readFileTool: ToolSpec = {
  name: "read_file",
  description: "Read a file",
  parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
};

/** The events before the stream failed, and the failure. */
async function partial(provider: AnthropicMessagesProvider): Promise<{ events: ModelEvent[]; error: Error }> {
  const events: ModelEvent[] = [];
  const error = await errorOf(
    (async () => {
      for await (const event of provider.stream(hello, new AbortController().signal)) events.push(event);
    })(),
  );
  return { events, error };
}

test("streams text as several deltas, then usage and finish; sends a well-formed request", async (t) => {
  const { server, provider } = await setup(t, { apiKey: "sk-ant-test", headers: { "x-hermes": "yes" } });
  server.enqueue({
    text: "The quick brown fox jumps over the lazy dog",
    usage: { input_tokens: 12, output_tokens: 9, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
  });
  const events = await collect(provider, { ...hello, temperature: 0.3 });
  assert.ok(events.filter((e) => e.type === "text_delta").length > 1);
  assert.equal(textOf(events, "text_delta"), "The quick brown fox jumps over the lazy dog");
  assert.deepEqual(events.slice(-2), [
    { type: "usage", usage: { inputTokens: 12, outputTokens: 9, cacheReadTokens: 0, cacheWriteTokens: 0 } },
    { type: "finish", reason: "stop" },
  ]);

  const [request] = server.requests;
  assert.equal(request.path, "/v1/messages", "the /v1 of the configured URL is not doubled");
  assert.ok(request.headers["anthropic-version"], "the SDK names the API version");
  assert.ok(`${request.headers.authorization} ${request.headers["x-api-key"]}`.includes("sk-ant-test"));
  assert.equal(request.headers["x-hermes"], "yes");
  assert.equal(request.body.model, "claude-test");
  assert.equal(request.body.stream, true);
  assert.equal(request.body.max_tokens, 1000);
  assert.equal("temperature" in request.body, false, "API 2026-10-21 refuses sampling parameters");
  assert.equal("tools" in request.body, false);
  assert.equal("system" in request.body, false);
  assert.deepEqual(request.body.messages, [{ role: "user", content: [{ type: "text", text: "hi", cache_control: { type: "ephemeral" } }] }]);
});

test("a base URL without /v1 works too", async (t) => {
  const { server } = await setup(t);
  const provider = new AnthropicMessagesProvider({ provider: "p", model: "m", baseURL: server.url.replace(/\/v1$/, "/"), maxTokens: 10 });
  await collect(provider, hello);
  assert.equal(server.requests[0].path, "/v1/messages");
  assert.equal(sdkBaseURL("https://api.anthropic.com/v1/"), "https://api.anthropic.com");
  assert.equal(sdkBaseURL("https://proxy.example/anthropic"), "https://proxy.example/anthropic");
});

test("a handler computes the reply from the recorded request (non-streaming callers get JSON)", async (t) => {
  const { server, provider } = await setup(t);
  const echo = { handler: (request: { body: any }) => ({ text: `echo: ${request.body.messages.at(-1).content[0].text}` }) };
  server.enqueue(echo, echo);
  assert.equal(textOf(await collect(provider, hello), "text_delta"), "echo: hi");
  // A plain HTTP client without stream: true gets a whole Message.
  const response = await fetch(`${server.url}/messages`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "m", max_tokens: 5, messages: [{ role: "user", content: [{ type: "text", text: "plain" }] }] }),
  });
  const message = (await response.json()) as { content: unknown; stop_reason: string };
  assert.deepEqual(message.content, [{ type: "text", text: "echo: plain", citations: null }]);
  assert.equal(message.stop_reason, "end_turn");
});

test("thinking streams as reasoning deltas and comes back as replay blocks with the signature", async (t) => {
  const { server, provider } = await setup(t, { thinking: { budgetTokens: 2048 } });
  const thought = "The user wants the answer, let me reason step by step";
  server.enqueue({ thinking: thought, redactedThinking: "EncryptedBlob==", text: "Answer: 42" });
  const events = await collect(provider, { ...hello, maxTokens: 512, temperature: 0.5 });
  assert.ok(events.filter((e) => e.type === "reasoning_delta").length > 1);
  assert.equal(textOf(events, "reasoning_delta"), thought);
  assert.ok(events.findLastIndex((e) => e.type === "reasoning_delta") < events.findIndex((e) => e.type === "text_delta"));
  assert.deepEqual(
    events.filter((e) => e.type === "replay"),
    [
      { type: "replay", block: { format: "anthropic_messages", data: { type: "thinking", thinking: thought, signature: defaultSignature(thought) } } },
      { type: "replay", block: { format: "anthropic_messages", data: { type: "redacted_thinking", data: "EncryptedBlob==" } } },
    ],
  );
  const body = server.requests[0].body;
  assert.deepEqual(body.thinking, { type: "enabled", budget_tokens: 2048 });
  assert.ok(body.max_tokens > 2048, "max_tokens must exceed the thinking budget");
  assert.equal(body.max_tokens, 2048 + 512);
  assert.equal("temperature" in body, false);
});

test("tool use: input_json_delta pieces become one tool_call with the exact JSON; tools are declared", async (t) => {
  const { server, provider } = await setup(t);
  const input = { path: "src/ä ü 😀.ts", note: 'quote " inside', depth: 3 };
  server.enqueue({ text: "Reading it.", toolCalls: [{ id: "toolu_01", name: "read_file", input }] });
  const events = await collect(provider, { ...hello, tools: [readFileTool] });
  const calls = events.filter((e) => e.type === "tool_call");
  assert.deepEqual(calls, [{ type: "tool_call", call: { id: "toolu_01", name: "read_file", arguments: JSON.stringify(input) } }]);
  assert.deepEqual(events.at(-1), { type: "finish", reason: "tool_calls" });
  assert.ok(events.findIndex((e) => e.type === "tool_call") < events.findIndex((e) => e.type === "usage"));
  assert.deepEqual(server.requests[0].body.tools, [{ name: "read_file", description: "Read a file", input_schema: readFileTool.parameters }]);
});

test("parallel tool uses come out in block order with intact inputs", async (t) => {
  const { server, provider } = await setup(t);
  server.enqueue({
    toolCalls: [
      { name: "read_file", input: { path: "first/file/with/a/long/path.ts" } },
      { name: "grep", input: '{"pattern":"TODO","glob":"**/*.ts"}' },
      { name: "list", input: {} },
    ],
  });
  const calls = (await collect(provider, { ...hello, tools: [readFileTool] })).flatMap((e) => (e.type === "tool_call" ? [e.call] : []));
  assert.deepEqual(
    calls.map((c) => [c.name, c.arguments]),
    [
      ["read_file", '{"path":"first/file/with/a/long/path.ts"}'],
      ["grep", '{"pattern":"TODO","glob":"**/*.ts"}'],
      ["list", "{}"],
    ],
  );
  assert.equal(new Set(calls.map((c) => c.id)).size, 3);
  assert.ok(calls.every((c) => /^toolu_/.test(c.id)));
});

test("a second turn sends the thinking block verbatim before tool_use, and the results as one user message", async (t) => {
  const { server, provider } = await setup(t, { thinking: { budgetTokens: 1024 } });
  const thought = "I need both files";
  server.enqueue({
    thinking: thought,
    signature: "c2lnbmF0dXJl/+==",
    toolCalls: [
      { id: "toolu_a", name: "read_file", input: { path: "a.txt" } },
      { id: "toolu_b", name: "read_file", input: { path: "b.png" } },
    ],
  });
  const request: ModelRequest = {
    messages: [{ role: "system", content: "You are Hermes." }, ...hello.messages],
    tools: [readFileTool],
  };
  const first = await collect(provider, request);
  const calls = first.flatMap((e) => (e.type === "tool_call" ? [e.call] : []));
  const replay = first.flatMap((e) => (e.type === "replay" ? [e.block] : []));
  const history: ChatMessage[] = [
    ...request.messages,
    { role: "assistant", content: "", toolCalls: calls, replay },
    { role: "tool", toolCallId: "toolu_a", name: "read_file", content: "contents of a" },
    { role: "tool", toolCallId: "toolu_b", name: "read_file", content: "see the image" },
    { role: "user", content: [{ type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" }] },
  ];
  server.enqueue({ text: "Done." });
  await collect(provider, { messages: history, tools: [readFileTool] });

  const sent = server.requests[1].body.messages;
  assert.equal(sent.length, 3);
  assert.deepEqual(sent[1].content[0], { type: "thinking", thinking: thought, signature: "c2lnbmF0dXJl/+==" }, "signature round trip");
  assert.deepEqual(
    sent[1].content.map((b: any) => [b.type, b.id, b.input]),
    [
      ["thinking", undefined, undefined],
      ["tool_use", "toolu_a", { path: "a.txt" }],
      ["tool_use", "toolu_b", { path: "b.png" }],
    ],
  );
  assert.deepEqual(
    sent[2].content.map(({ cache_control: _, ...block }: any) => block),
    [
      { type: "tool_result", tool_use_id: "toolu_a", content: "contents of a" },
      { type: "tool_result", tool_use_id: "toolu_b", content: "see the image" },
      { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } },
    ],
  );
});

test("usage maps cache reads and writes into a whole-prompt input count", async (t) => {
  const { server, provider } = await setup(t);
  server.enqueue({ text: "ok", usage: { input_tokens: 10, cache_read_input_tokens: 1000, cache_creation_input_tokens: 200, output_tokens: 7 } });
  const usage = (await collect(provider, hello)).find((e) => e.type === "usage");
  assert.deepEqual(usage, { type: "usage", usage: { inputTokens: 1210, outputTokens: 7, cacheReadTokens: 1000, cacheWriteTokens: 200 } });
});

test("stop reasons map to finish reasons", async (t) => {
  const { server, provider } = await setup(t);
  const table: [string, string][] = [
    ["end_turn", "stop"],
    ["stop_sequence", "stop"],
    ["max_tokens", "length"],
    ["refusal", "content_filter"],
    ["pause_turn", "other"],
  ];
  for (const [stopReason, expected] of table) {
    server.enqueue({ text: "x", stopReason });
    assert.deepEqual((await collect(provider, hello)).at(-1), { type: "finish", reason: expected }, stopReason);
  }
});

test("HTTP 429 with retry-after is a rate_limit error with the delay", async (t) => {
  const { server, provider } = await setup(t);
  server.enqueue({ status: 429, headers: { "retry-after": "7" } });
  const error = await errorOf(collect(provider, hello));
  assert.ok(error instanceof ProviderError);
  assert.equal(error.kind, "rate_limit");
  assert.equal(error.retryAfterMs, 7000);
  assert.match(error.message, /per-minute rate limit/);
  assert.equal(server.requests.length, 1, "no SDK retries");
});

test("HTTP 401 is an auth error naming the key variable", async (t) => {
  const { server, provider } = await setup(t, { apiKeyEnv: "ANTHROPIC_API_KEY" });
  server.enqueue({ status: 401 });
  const error = await errorOf(collect(provider, hello));
  assert.ok(error instanceof ProviderError);
  assert.equal(error.kind, "auth");
  assert.equal(error.retryable, false);
  assert.match(error.message, /ANTHROPIC_API_KEY/);
});

test("HTTP 400 'prompt is too long' is a ContextOverflowError", async (t) => {
  const { server, provider } = await setup(t);
  server.enqueue({ status: 400, errorBody: { type: "error", error: { type: "invalid_request_error", message: "prompt is too long: 210000 tokens > 200000 maximum" } } });
  const error = await errorOf(collect(provider, hello));
  assert.ok(error instanceof ContextOverflowError, String(error));
  assert.equal(error.kind, "context_overflow");
});

test("HTTP 500 and 529 are retryable server errors", async (t) => {
  const { server, provider } = await setup(t);
  for (const status of [500, 529]) {
    server.enqueue({ status });
    const error = await errorOf(collect(provider, hello));
    assert.ok(error instanceof ProviderError);
    assert.equal(error.kind, "server", String(status));
    assert.equal(error.status, status);
    assert.equal(error.retryable, true);
  }
});

test("an overloaded_error event mid-stream is a retryable error, never a finish", async (t) => {
  const { server, provider } = await setup(t);
  server.enqueue({ text: "half an answer", streamError: "overloaded_error" });
  const { events, error } = await partial(provider);
  assert.ok(error instanceof ProviderError, String(error));
  assert.equal(error.kind, "server");
  assert.equal(error.retryable, true);
  assert.match(error.message, /Overloaded/);
  assert.ok(events.some((e) => e.type === "text_delta"));
  assert.ok(!events.some((e) => e.type === "finish" || e.type === "tool_call"));
});

test("a stream that ends without message_stop is malformed, even with complete tool blocks", async (t) => {
  const { server, provider } = await setup(t);
  server.enqueue({ text: "partial", toolCalls: [{ name: "read_file", input: { path: "x" } }], truncate: true });
  const { events, error } = await partial(provider);
  assert.ok(error instanceof ProviderError, String(error));
  assert.equal(error.kind, "malformed");
  assert.equal(error.retryable, true);
  assert.ok(!events.some((e) => e.type === "finish" || e.type === "tool_call"), "no half-finished tool calls reach the loop");
});

test("a dropped connection is a retryable network error", async (t) => {
  const { server, provider } = await setup(t);
  server.enqueue({ text: "half", disconnect: true });
  const error = await errorOf(collect(provider, hello));
  assert.ok(error instanceof ProviderError, String(error));
  assert.equal(error.retryable, true);
});

test("a stream that goes silent past the idle timeout fails as stalled", async (t) => {
  const { server, provider } = await setup(t, { idleTimeoutMs: 300 });
  server.enqueue({ text: "started", hang: true });
  const error = await errorOf(collect(provider, hello));
  assert.ok(error instanceof ProviderError, String(error));
  assert.equal(error.kind, "stalled");
  await server.waitForAbortedStreams(1);
  assert.equal(server.abortedStreams, 1, "the server to see the stalled stream dropped");
});

test("aborting mid-stream rejects with AbortError and the server sees the disconnect", async (t) => {
  const { server, provider } = await setup(t);
  server.enqueue({ text: "word ".repeat(30), chunkDelayMs: 200 });
  const controller = new AbortController();
  const seen: ModelEvent[] = [];
  const error = await errorOf(
    (async () => {
      for await (const event of provider.stream(hello, controller.signal)) {
        seen.push(event);
        if (event.type === "text_delta") controller.abort();
      }
    })(),
  );
  assert.equal(error.name, "AbortError");
  assert.equal(seen.length, 1, "no events after the abort");
  await server.waitForAbortedStreams(1);
  assert.equal(server.abortedStreams, 1, "the server to see the client disconnect");
});

const longConversation: ChatMessage[] = [
  { role: "system", content: "You are Hermes, a coding agent. ".repeat(30) },
  { role: "user", content: [{ type: "text", text: "Fix the bug in parser.ts" }] },
  { role: "assistant", content: "", toolCalls: [{ id: "t1", name: "read_file", arguments: '{"path":"parser.ts"}' }] },
  { role: "tool", toolCallId: "t1", name: "read_file", content: "export function parse() {}\n".repeat(40) },
  { role: "assistant", content: "Found it.", toolCalls: [{ id: "t2", name: "read_file", arguments: '{"path":"lexer.ts"}' }] },
  { role: "tool", toolCallId: "t2", name: "read_file", content: "export function lex() {}\n".repeat(40) },
];

test("breakpoints: system plus the last 3 messages, at most 4, on the recorded request", async (t) => {
  const { server, provider } = await setup(t);
  await collect(provider, { messages: longConversation, tools: [readFileTool] });
  const body = server.requests[0].body;
  const marked: string[] = [];
  body.system.forEach((b: any, i: number) => b.cache_control && marked.push(`system.${i}`));
  body.messages.forEach((m: any, i: number) => m.content.forEach((b: any, j: number) => b.cache_control && marked.push(`${i}.${j}`)));
  // messages: 0 user, 1 assistant(tool_use), 2 user(tool_result), 3 assistant(text, tool_use), 4 user(tool_result)
  assert.deepEqual(marked, ["system.0", "2.0", "3.1", "4.0"]);
  assert.ok(marked.length <= 4);
  assert.deepEqual(body.system[0].cache_control, { type: "ephemeral" });
});

test("1h ttl and cache: false", async (t) => {
  const { server } = await setup(t);
  const hour = new AnthropicMessagesProvider({ provider: "p", model: "m", baseURL: server.url, maxTokens: 10, cache: { ttl: "1h" } });
  const none = new AnthropicMessagesProvider({ provider: "p", model: "m", baseURL: server.url, maxTokens: 10, cache: false });
  await collect(hour, { messages: longConversation, tools: [] });
  await collect(none, { messages: longConversation, tools: [] });
  assert.deepEqual(server.requests[0].body.system[0].cache_control, { type: "ephemeral", ttl: "1h" });
  assert.equal(JSON.stringify(server.requests[1].body).includes("cache_control"), false);
});

test("the system prompt is byte-identical across calls, so the next turn reads the cache", async (t) => {
  const { server, provider } = await setup(t);
  await collect(provider, { messages: longConversation, tools: [readFileTool] });
  const next: ChatMessage[] = [...longConversation, { role: "assistant", content: "Fixed." }, { role: "user", content: [{ type: "text", text: "Thanks" }] }];
  const events = await collect(provider, { messages: next, tools: [readFileTool] });
  const [a, b] = server.requests.map((r) => r.body);
  assert.equal(JSON.stringify(b.system), JSON.stringify(a.system));
  assert.equal(JSON.stringify(b.tools), JSON.stringify(a.tools));
  const usage = events.find((e) => e.type === "usage");
  assert.ok(usage?.type === "usage");
  assert.ok((usage.usage.cacheReadTokens ?? 0) > 0, "the previous prompt is read back");
  assert.equal(usage.usage.cacheReadTokens, server.cache.totals.cacheWriteTokens - (usage.usage.cacheWriteTokens ?? 0));
  assert.ok(server.cache.readShare > 0.3, `read share ${server.cache.readShare}`);
});

test("a call without tools over a tool history declares the used tools and forbids them", async (t) => {
  const { server, provider } = await setup(t);
  await collect(provider, { messages: longConversation, tools: [] });
  const body = server.requests[0].body;
  assert.deepEqual(body.tools, [{ name: "read_file", input_schema: { type: "object" } }]);
  assert.deepEqual(body.tool_choice, { type: "none" });
});

test("warmUp loads the SDK without sending a request; an aborted signal sends none either", async (t) => {
  const { server, provider } = await setup(t);
  await provider.warmUp();
  const controller = new AbortController();
  controller.abort();
  const error = await errorOf(collect(provider, hello, controller.signal));
  assert.equal(error.name, "AbortError");
  assert.equal(server.requests.length, 0);
});
