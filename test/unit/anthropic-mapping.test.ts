// Pure conversions from Hermes' conversation to Anthropic Messages shapes.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  CONTINUATION_TEXT,
  mapStopReason,
  mapUsage,
  parseToolInput,
  toAnthropicConversation,
  toAnthropicTools,
  toolNamesUsed,
  toolUseId,
} from "../../acp-server/providers/anthropic-messages-mapping";
import type { ChatMessage } from "../../acp-server/providers/types";

const say = (text: string): ChatMessage => ({ role: "user", content: [{ type: "text", text }] });
const thinking = { type: "thinking", thinking: "I should read it", signature: "sig==" };

test("system messages become system blocks; user parts become text and base64 image blocks", () => {
  const { system, messages } = toAnthropicConversation([
    { role: "system", content: "You are Hermes." },
    { role: "system", content: "Project rules." },
    {
      role: "user",
      content: [
        { type: "text", text: "What is this?" },
        { type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" },
        { type: "text", text: "" },
      ],
    },
  ]);
  assert.deepEqual(system, [
    { type: "text", text: "You are Hermes." },
    { type: "text", text: "Project rules." },
  ]);
  assert.deepEqual(messages, [
    {
      role: "user",
      content: [
        { type: "text", text: "What is this?" },
        { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } },
      ],
    },
  ]);
});

test("assistant turns: replayed thinking first (other formats skipped), text, then tool_use with parsed input", () => {
  const { messages } = toAnthropicConversation([
    say("read a.txt"),
    {
      role: "assistant",
      content: "Reading.",
      reasoning: "not sent: the replay block is the real thing",
      replay: [
        { format: "codex_responses", data: { type: "reasoning", encrypted_content: "x" } },
        { format: "anthropic_messages", data: thinking },
        { format: "anthropic_messages", data: { type: "redacted_thinking", data: "opaque" } },
        { format: "anthropic_messages", data: { type: "bogus" } },
      ],
      toolCalls: [
        { id: "toolu_1", name: "read_file", arguments: '{"path":"a.txt"}' },
        { id: "functions.grep:1", name: "grep", arguments: "{not json" },
      ],
    },
    { role: "tool", toolCallId: "toolu_1", name: "read_file", content: "A" },
    { role: "tool", toolCallId: "functions.grep:1", name: "grep", content: "" },
  ]);
  assert.deepEqual(messages[1], {
    role: "assistant",
    content: [
      thinking,
      { type: "redacted_thinking", data: "opaque" },
      { type: "text", text: "Reading." },
      { type: "tool_use", id: "toolu_1", name: "read_file", input: { path: "a.txt" } },
      { type: "tool_use", id: "functions_grep_1", name: "grep", input: {} },
    ],
  });
  // Consecutive tool results: one user message; ids sanitized the same way; no empty content.
  assert.deepEqual(messages[2], {
    role: "user",
    content: [
      { type: "tool_result", tool_use_id: "toolu_1", content: "A" },
      { type: "tool_result", tool_use_id: "functions_grep_1" },
    ],
  });
  assert.equal(messages.length, 3);
});

test("roles alternate: same-role neighbours merge, tool results stay first, empty turns vanish", () => {
  const { messages } = toAnthropicConversation([
    say("one"),
    { role: "assistant", content: "", toolCalls: [{ id: "t1", name: "x", arguments: "{}" }] },
    { role: "tool", toolCallId: "t1", name: "x", content: "result" },
    say("and a note"),
    { role: "assistant", content: "  " }, // nothing to send: dropped, so the users merge
    say("two"),
    { role: "assistant", content: "first" },
    { role: "assistant", content: "second" },
  ]);
  assert.deepEqual(
    messages.map((m) => m.role),
    ["user", "assistant", "user", "assistant"],
  );
  assert.deepEqual(messages[2].content, [
    { type: "tool_result", tool_use_id: "t1", content: "result" },
    { type: "text", text: "and a note" },
    { type: "text", text: "two" },
  ]);
  assert.deepEqual(messages[3].content, [
    { type: "text", text: "first" },
    { type: "text", text: "second" },
  ]);
});

test("a later system message stays in place as user text; the conversation starts with a user", () => {
  const { system, messages } = toAnthropicConversation([
    { role: "system", content: "S" },
    { role: "assistant", content: "Resuming." },
    { role: "system", content: "Context was compressed." },
    { role: "tool", toolCallId: "t", name: "x", content: "late" },
  ]);
  assert.deepEqual(system, [{ type: "text", text: "S" }]);
  assert.deepEqual(messages, [
    { role: "user", content: [{ type: "text", text: CONTINUATION_TEXT }] },
    { role: "assistant", content: [{ type: "text", text: "Resuming." }] },
    {
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "t", content: "late" },
        { type: "text", text: "Context was compressed." },
      ],
    },
  ]);
  assert.deepEqual(toAnthropicConversation([]).messages, [{ role: "user", content: [{ type: "text", text: CONTINUATION_TEXT }] }]);
});

test("tool input parsing, id sanitizing and tool lists", () => {
  const table: [string, unknown][] = [
    ['{"a":1}', { a: 1 }],
    ["[1,2]", {}],
    ["null", {}],
    ["", {}],
    ['{"a":', {}],
  ];
  for (const [text, expected] of table) assert.deepEqual(parseToolInput(text), expected, text);
  assert.equal(toolUseId("toolu_01-AZ"), "toolu_01-AZ");
  assert.equal(toolUseId("call:1/x"), "call_1_x");
  assert.equal(toolUseId(""), "toolu_missing");

  const schema = { type: "object", properties: { path: { type: "string" } } };
  assert.deepEqual(
    toAnthropicTools([
      { name: "b", description: "B", parameters: schema },
      { name: "a", description: "A", parameters: { type: "object" } },
    ]),
    [
      { name: "b", description: "B", input_schema: schema },
      { name: "a", description: "A", input_schema: { type: "object" } },
    ],
  );
  const { messages } = toAnthropicConversation([
    say("x"),
    { role: "assistant", content: "", toolCalls: [{ id: "1", name: "grep", arguments: "{}" }, { id: "2", name: "grep", arguments: "{}" }] },
  ]);
  assert.deepEqual(toolNamesUsed(messages), ["grep"]);
});

test("stop reasons and usage", () => {
  const table: [string | null, string][] = [
    ["end_turn", "stop"],
    ["stop_sequence", "stop"],
    ["tool_use", "tool_calls"],
    ["max_tokens", "length"],
    ["model_context_window_exceeded", "length"],
    ["refusal", "content_filter"],
    ["pause_turn", "other"],
    [null, "other"],
  ];
  for (const [reason, expected] of table) assert.equal(mapStopReason(reason), expected, String(reason));

  assert.deepEqual(mapUsage({ input_tokens: 10, output_tokens: 5 }), { inputTokens: 10, outputTokens: 5 });
  assert.deepEqual(
    mapUsage({
      input_tokens: 10,
      output_tokens: 50,
      cache_read_input_tokens: 1000,
      cache_creation_input_tokens: 200,
      output_tokens_details: { thinking_tokens: 30 },
    }),
    { inputTokens: 1210, outputTokens: 50, cacheReadTokens: 1000, cacheWriteTokens: 200, reasoningTokens: 30 },
  );
});
