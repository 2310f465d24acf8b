// Sanity checks of the scripted server with plain fetch: if its wire format drifted from
// OpenAI's, the provider tests built on it would prove nothing.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { startScriptedModel, splitIntoChunks } from "../support/scripted-model";
import type { ScriptedModel } from "../support/scripted-model";

let model: ScriptedModel;
before(async () => {
  model = await startScriptedModel({ model: "test-model" });
});
after(() => model.close());

async function postChat(body: object, path = "/chat/completions"): Promise<Response> {
  return fetch(`${model.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer sk-test" },
    body: JSON.stringify(body),
  });
}

/** Splits an SSE body into its `data:` payloads, checking the framing on the way. */
function sseData(raw: string): string[] {
  assert.ok(raw.endsWith("\n\n"), "every event ends with a blank line");
  return raw
    .split("\n\n")
    .filter((frame) => frame !== "")
    .map((frame) => {
      assert.match(frame, /^data: /, `frame is a data line: ${frame}`);
      return frame.slice("data: ".length);
    });
}

test("streams text and tool calls as chat.completion.chunk events ending in [DONE]", async () => {
  model.enqueue({
    reasoning: "thinking it over",
    text: "Hello there, streaming world",
    toolCalls: [{ name: "read_file", arguments: { path: "a.txt" }, id: "call_a" }],
    usage: { prompt_tokens: 11, completion_tokens: 7 },
  });
  const response = await postChat({
    model: "m1",
    messages: [{ role: "user", content: "hi" }],
    stream: true,
    stream_options: { include_usage: true },
  });
  assert.equal(response.status, 200);
  assert.match(response.headers.get("content-type") ?? "", /^text\/event-stream/);

  const data = sseData(await response.text());
  assert.equal(data.at(-1), "[DONE]");
  const chunks = data.slice(0, -1).map((text) => JSON.parse(text));
  for (const chunk of chunks) {
    assert.equal(chunk.object, "chat.completion.chunk");
    assert.equal(chunk.model, "m1");
    assert.equal(chunk.id, chunks[0].id);
  }
  assert.equal(chunks[0].choices[0].delta.role, "assistant");

  const deltas = chunks.filter((c) => c.choices.length > 0).map((c) => c.choices[0].delta);
  const text = deltas.map((d) => d.content ?? "").join("");
  const reasoning = deltas.map((d) => d.reasoning_content ?? "").join("");
  assert.equal(text, "Hello there, streaming world");
  assert.equal(reasoning, "thinking it over");
  assert.ok(deltas.filter((d) => d.content).length > 1, "text arrives in several deltas");

  const toolDeltas = deltas.flatMap((d) => d.tool_calls ?? []);
  assert.equal(toolDeltas[0].id, "call_a");
  assert.equal(toolDeltas[0].function.name, "read_file");
  assert.deepEqual(JSON.parse(toolDeltas.map((t) => t.function.arguments ?? "").join("")), { path: "a.txt" });

  const withFinish = chunks.filter((c) => c.choices[0]?.finish_reason);
  assert.equal(withFinish.length, 1);
  assert.equal(withFinish[0].choices[0].finish_reason, "tool_calls");
  const usageChunk = chunks.at(-1);
  assert.deepEqual(usageChunk.choices, []);
  assert.deepEqual(usageChunk.usage, { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 });
});

test("records requests, answers /v1/models, non-streaming requests and the fallback", async () => {
  const countBefore = model.requests.length;
  const models: any = await (await fetch(`${model.url}/models`)).json();
  assert.equal(models.data[0].id, "test-model");

  // Empty queue: the fallback text, here as a non-streaming chat.completion.
  const response = await postChat({ model: "m2", messages: [{ role: "user", content: "x" }] }, "/chat/completions");
  const completion: any = await response.json();
  assert.equal(completion.object, "chat.completion");
  assert.equal(completion.choices[0].message.content, "(no scripted reply)");
  assert.equal(completion.choices[0].finish_reason, "stop");

  // The path without /v1 is accepted too.
  const bare = await fetch(model.url.replace(/\/v1$/, "/chat/completions"), {
    method: "POST",
    body: JSON.stringify({ messages: [], stream: false }),
  });
  assert.equal(bare.status, 200);

  const recorded = await model.waitForRequests(countBefore + 2, 2000);
  const mine = recorded.slice(countBefore);
  assert.equal(mine[0].body.model, "m2");
  assert.equal(mine[0].path, "/v1/chat/completions");
  assert.equal(mine[0].headers.authorization, "Bearer sk-test");
  assert.equal(mine[1].path, "/chat/completions");
});

test("scripted HTTP errors carry an OpenAI-style error body and extra headers", async () => {
  model.enqueue({ status: 429, headers: { "retry-after-ms": "5" } });
  const response = await postChat({ messages: [], stream: true });
  assert.equal(response.status, 429);
  assert.equal(response.headers.get("retry-after-ms"), "5");
  const body: any = await response.json();
  assert.equal(body.error.type, "rate_limit_error");
  assert.equal(typeof body.error.message, "string");
});

test("handler replies see the request; usage chunk only when asked for", async () => {
  model.enqueue({ handler: (request) => ({ text: `echo ${request.body.messages[0].content}` }) });
  const response = await postChat({ messages: [{ role: "user", content: "ping" }], stream: true });
  const chunks = sseData(await response.text()).slice(0, -1).map((t) => JSON.parse(t));
  const text = chunks.map((c) => c.choices[0]?.delta.content ?? "").join("");
  assert.equal(text, "echo ping");
  assert.ok(chunks.every((c) => c.choices.length === 1 && !("usage" in c)), "no usage without include_usage");
});

test("a client that disconnects mid-stream is counted as an aborted stream", async () => {
  const abortedBefore = model.abortedStreams;
  model.enqueue({ text: "one two three four five six", chunkDelayMs: 50, hang: true });
  const controller = new AbortController();
  const response = await fetch(`${model.url}/chat/completions`, {
    method: "POST",
    body: JSON.stringify({ messages: [], stream: true }),
    signal: controller.signal,
  });
  const reader = response.body!.getReader();
  await reader.read(); // at least the first frame arrived
  controller.abort();
  await assert.rejects(reader.read());
  await model.waitForAbortedStreams(abortedBefore + 1);
  assert.equal(model.abortedStreams, abortedBefore + 1);
});

test("splitIntoChunks keeps every character and never splits a surrogate pair", () => {
  const text = "A lengthy sentence 😀😀😀😀😀😀😀😀😀 with emoji";
  const pieces = splitIntoChunks(text);
  assert.equal(pieces.join(""), text);
  assert.ok(pieces.every((piece) => Array.from(piece).length <= 8));
  assert.ok(pieces.every((piece) => !/[\uD800-\uDBFF]$/.test(piece)));
});
