// Table tests of the pure Responses API conversions: no server involved.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  incompleteReason,
  mapResponsesUsage,
  reasoningReplay,
  streamFailure,
  toResponsesPrompt,
  toResponsesTools,
} from "../../acp-server/providers/codex-responses-mapping";
import { ContextOverflowError, ProviderError } from "../../acp-server/providers/types";
import type { ChatMessage, ProviderErrorKind } from "../../acp-server/providers/types";

const user = (text: string): ChatMessage => ({ role: "user", content: [{ type: "text", text }] });
const reasoningItem = { type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: "thought" }], encrypted_content: "ENC1" };

const promptCases: { name: string; messages: ChatMessage[]; expected: ReturnType<typeof toResponsesPrompt> }[] = [
  {
    name: "system messages become the instructions, joined by a blank line",
    messages: [{ role: "system", content: "You are Hermes." }, user("hi"), { role: "system", content: "Be brief." }],
    expected: { instructions: "You are Hermes.\n\nBe brief.", input: [{ role: "user", content: [{ type: "input_text", text: "hi" }] }] },
  },
  {
    name: "no system message means no instructions field",
    messages: [user("hi")],
    expected: { input: [{ role: "user", content: [{ type: "input_text", text: "hi" }] }] },
  },
  {
    name: "user text and image parts keep their order; images become data URLs",
    messages: [
      {
        role: "user",
        content: [
          { type: "text", text: "What is this?" },
          { type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" },
          { type: "text", text: "Be precise." },
        ],
      },
    ],
    expected: {
      input: [
        {
          role: "user",
          content: [
            { type: "input_text", text: "What is this?" },
            { type: "input_image", detail: "auto", image_url: "data:image/png;base64,iVBORw0KGgo=" },
            { type: "input_text", text: "Be precise." },
          ],
        },
      ],
    },
  },
  {
    name: "assistant: own replay items verbatim first, other formats dropped, then text, then calls",
    messages: [
      {
        role: "assistant",
        content: "Let me look.",
        reasoning: "plain reasoning text is never sent",
        replay: [
          { format: "anthropic_messages", data: { type: "thinking", thinking: "x", signature: "sig" } },
          { format: "codex_responses", data: reasoningItem },
          { format: "codex_responses", data: { ...reasoningItem, id: "rs_2", encrypted_content: "ENC2" } },
        ],
        toolCalls: [
          { id: "call_a", name: "read_file", arguments: '{"path":"a.ts"}' },
          { id: "call_b", name: "grep", arguments: '{"pattern":"x"}' },
        ],
      },
    ],
    expected: {
      input: [
        reasoningItem,
        { ...reasoningItem, id: "rs_2", encrypted_content: "ENC2" },
        { type: "message", role: "assistant", content: [{ type: "output_text", text: "Let me look." }] },
        { type: "function_call", call_id: "call_a", name: "read_file", arguments: '{"path":"a.ts"}' },
        { type: "function_call", call_id: "call_b", name: "grep", arguments: '{"pattern":"x"}' },
      ] as never,
    },
  },
  {
    name: "an assistant turn with only tool calls sends no empty message; tool results follow",
    messages: [
      { role: "assistant", content: "", toolCalls: [{ id: "call_9", name: "read_file", arguments: "{}" }] },
      { role: "tool", toolCallId: "call_9", name: "read_file", content: "file body" },
      { role: "assistant", content: "Done." },
    ],
    expected: {
      input: [
        { type: "function_call", call_id: "call_9", name: "read_file", arguments: "{}" },
        { type: "function_call_output", call_id: "call_9", output: "file body" },
        { type: "message", role: "assistant", content: [{ type: "output_text", text: "Done." }] },
      ],
    },
  },
];

for (const { name, messages, expected } of promptCases) {
  test(`toResponsesPrompt: ${name}`, () => {
    assert.deepEqual(toResponsesPrompt(messages), expected);
  });
}

test("toResponsesTools: function tools, not strict (optional properties are allowed)", () => {
  const parameters = { type: "object", properties: { path: { type: "string" } }, required: ["path"] };
  assert.deepEqual(toResponsesTools([{ name: "read_file", description: "Read a file", parameters }]), [
    { type: "function", name: "read_file", description: "Read a file", parameters, strict: false },
  ]);
  assert.deepEqual(toResponsesTools([]), []);
});

test("reasoningReplay keeps what goes back and drops output-only fields", () => {
  const block = reasoningReplay({
    type: "reasoning",
    id: "rs_7",
    summary: [{ type: "summary_text", text: "s" }],
    content: [{ type: "reasoning_text", text: "raw" }],
    encrypted_content: "gAAA",
    status: "completed",
  });
  assert.deepEqual(block, {
    format: "codex_responses",
    data: { type: "reasoning", id: "rs_7", summary: [{ type: "summary_text", text: "s" }], encrypted_content: "gAAA" },
  });
  // Without encrypted content (include not honoured) the item still round-trips, minus the field.
  assert.deepEqual(reasoningReplay({ type: "reasoning", id: "rs_8", summary: [] }).data, { type: "reasoning", id: "rs_8", summary: [] });
});

const usageCases: { name: string; usage: Parameters<typeof mapResponsesUsage>[0]; expected: ReturnType<typeof mapResponsesUsage> }[] = [
  {
    name: "all details",
    usage: {
      input_tokens: 1000,
      input_tokens_details: { cached_tokens: 800, cache_write_tokens: 150 },
      output_tokens: 60,
      output_tokens_details: { reasoning_tokens: 40 },
      total_tokens: 1060,
    },
    expected: { inputTokens: 1000, outputTokens: 60, cacheReadTokens: 800, cacheWriteTokens: 150, reasoningTokens: 40 },
  },
  {
    name: "zero cache writes are left out, zero reads kept",
    usage: { input_tokens: 5, input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 }, output_tokens: 2 },
    expected: { inputTokens: 5, outputTokens: 2, cacheReadTokens: 0 },
  },
  { name: "no details (compatible servers)", usage: { input_tokens: 7, output_tokens: 3 }, expected: { inputTokens: 7, outputTokens: 3 } },
];

for (const { name, usage, expected } of usageCases) {
  test(`mapResponsesUsage: ${name}`, () => assert.deepEqual(mapResponsesUsage(usage), expected));
}

test("incompleteReason maps the documented reasons and nothing else", () => {
  assert.equal(incompleteReason("max_output_tokens"), "length");
  assert.equal(incompleteReason("content_filter"), "content_filter");
  assert.equal(incompleteReason(undefined), "other");
  assert.equal(incompleteReason("something_new"), "other");
});

const failureCases: [code: string | null, message: string, kind: ProviderErrorKind][] = [
  ["rate_limit_exceeded", "Slow down", "rate_limit"],
  // Mentions tokens, but it is a rate limit: retry later, do not compress.
  ["rate_limit_exceeded", "Too many tokens per minute; try again in 2s", "rate_limit"],
  ["server_error", "Something broke", "server"],
  [null, "An error occurred while processing your request", "server"],
  ["vector_store_timeout", "timed out", "server"],
  ["invalid_prompt", "Invalid prompt", "bad_request"],
  ["invalid_base64_image", "bad image", "bad_request"],
  ["insufficient_quota", "You exceeded your current quota", "auth"],
  ["context_length_exceeded", "Your input exceeds the context window of this model.", "context_overflow"],
  // No code, but the message says it: still compression, not a retry.
  [null, "This model's maximum context length is 128000 tokens", "context_overflow"],
];

for (const [code, message, kind] of failureCases) {
  test(`streamFailure: ${code ?? "no code"} → ${kind}`, () => {
    const error = streamFailure("openai", code, message);
    assert.ok(error instanceof ProviderError);
    assert.equal(error.kind, kind);
    assert.equal(error instanceof ContextOverflowError, kind === "context_overflow");
    assert.ok(error.message.includes(message), error.message);
    assert.match(error.message, /^openai: /);
  });
}
