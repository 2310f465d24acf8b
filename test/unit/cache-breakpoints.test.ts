// The "system and last 3" breakpoint rule, on Anthropic shapes and on Chat Completions
// messages for Claude behind OpenRouter.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { AnthropicConversation, AnthropicMessage } from "../../acp-server/providers/anthropic-messages-mapping";
import { lastCacheable, openAiCacheControl, withAnthropicBreakpoints } from "../../acp-server/providers/cache-breakpoints";

const eph = { type: "ephemeral" };
const hour = { type: "ephemeral", ttl: "1h" };
const user = (t: string): AnthropicMessage => ({ role: "user", content: [{ type: "text", text: t }] });
const assistant = (t: string): AnthropicMessage => ({ role: "assistant", content: [{ type: "text", text: t }] });

/** "s" for a marked system block, and per message the indices of its marked blocks. */
function marks(conversation: AnthropicConversation): { system: boolean[]; messages: number[][] } {
  return {
    system: conversation.system.map((block) => block.cache_control != null),
    messages: conversation.messages.map((message) =>
      message.content.flatMap((block, i) => ((block as { cache_control?: unknown }).cache_control ? [i] : [])),
    ),
  };
}

function count(conversation: AnthropicConversation): number {
  const { system, messages } = marks(conversation);
  return system.filter(Boolean).length + messages.flat().length;
}

test("lastCacheable picks the last n items that can carry a breakpoint, ascending", () => {
  const table: [boolean[], number, number[]][] = [
    [[true, true, true, true, true], 3, [2, 3, 4]],
    [[true, false, true, false, false], 3, [0, 2]],
    [[], 3, []],
    [[true, true], 0, []],
  ];
  for (const [carries, n, expected] of table) assert.deepEqual(lastCacheable(carries, (c) => c, n), expected);
});

test("system and last 3: placement on Anthropic conversations", () => {
  const cases: { name: string; input: AnthropicConversation; expected: ReturnType<typeof marks> }[] = [
    {
      name: "two system blocks, five messages",
      input: {
        system: [{ type: "text", text: "a" }, { type: "text", text: "b" }],
        messages: [user("1"), assistant("2"), user("3"), assistant("4"), user("5")],
      },
      expected: { system: [false, true], messages: [[], [], [0], [0], [0]] },
    },
    {
      name: "no system: only the 3 messages",
      input: { system: [], messages: [user("1"), assistant("2"), user("3"), assistant("4")] },
      expected: { system: [], messages: [[], [0], [0], [0]] },
    },
    {
      name: "one message",
      input: { system: [{ type: "text", text: "s" }], messages: [user("1")] },
      expected: { system: [true], messages: [[0]] },
    },
    {
      name: "last block of a message; thinking blocks cannot carry one",
      input: {
        system: [{ type: "text", text: "s" }],
        messages: [
          user("1"),
          {
            role: "assistant",
            content: [
              { type: "thinking", thinking: "t", signature: "sig" },
              { type: "tool_use", id: "a", name: "x", input: {} },
              { type: "tool_use", id: "b", name: "y", input: {} },
            ],
          },
          { role: "assistant", content: [{ type: "redacted_thinking", data: "r" }] },
          {
            role: "user",
            content: [
              { type: "tool_result", tool_use_id: "a", content: "A" },
              { type: "tool_result", tool_use_id: "b", content: "B" },
            ],
          },
        ],
      },
      // The thinking-only message is skipped; the 3 picked are messages 0, 1 and 3.
      expected: { system: [true], messages: [[0], [2], [], [1]] },
    },
  ];
  for (const { name, input, expected } of cases) {
    const before = JSON.stringify(input);
    const output = withAnthropicBreakpoints(input);
    assert.deepEqual(marks(output), expected, name);
    assert.ok(count(output) <= 4, name);
    assert.equal(JSON.stringify(input), before, `${name}: the input is not mutated`);
  }
});

test("the ttl is only sent for 1h, and every breakpoint carries the same control", () => {
  const input = { system: [{ type: "text" as const, text: "s" }], messages: [user("1"), assistant("2")] };
  const fiveMinutes = withAnthropicBreakpoints(input, { ttl: "5m" });
  assert.deepEqual(fiveMinutes.system[0].cache_control, eph);
  assert.deepEqual((fiveMinutes.messages[1].content[0] as { cache_control?: unknown }).cache_control, eph);
  const oneHour = withAnthropicBreakpoints(input, { ttl: "1h" });
  assert.deepEqual(oneHour.system[0].cache_control, hour);
  assert.deepEqual((oneHour.messages[0].content[0] as { cache_control?: unknown }).cache_control, hour);
});

test("breakpoints already present count against the limit of 4", () => {
  const input: AnthropicConversation = {
    system: [{ type: "text", text: "s" }],
    messages: [
      { role: "user", content: [{ type: "text", text: "pinned", cache_control: { type: "ephemeral" } }] },
      { role: "user", content: [{ type: "text", text: "pinned too", cache_control: { type: "ephemeral" } }] },
      assistant("2"),
      user("3"),
      assistant("4"),
    ],
  };
  const output = withAnthropicBreakpoints(input);
  assert.equal(count(output), 4);
  assert.deepEqual(marks(output), { system: [true], messages: [[0], [0], [], [], [0]] });
});

test("OpenRouter: string contents become text parts with cache_control on system and the last 3", () => {
  const messages: ChatCompletionMessageParam[] = [
    { role: "system", content: "You are Hermes." },
    { role: "user", content: "one" },
    { role: "assistant", content: "two" },
    { role: "user", content: [{ type: "text", text: "three" }, { type: "image_url", image_url: { url: "data:image/png;base64,AA==" } }] },
    { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "read", arguments: "{}" } }] },
    { role: "tool", tool_call_id: "c1", content: "file body" },
  ];
  const before = JSON.stringify(messages);
  const out = openAiCacheControl(messages) as any[];
  assert.equal(JSON.stringify(messages), before, "the input is not mutated");
  assert.deepEqual(out[0], { role: "system", content: [{ type: "text", text: "You are Hermes.", cache_control: eph }] });
  assert.deepEqual(out[1], messages[1], "fourth from the end: untouched");
  assert.deepEqual(out[2], { role: "assistant", content: [{ type: "text", text: "two", cache_control: eph }] });
  // Array content: the last text part gets it, the image stays as it was.
  assert.deepEqual(out[3].content, [
    { type: "text", text: "three", cache_control: eph },
    { type: "image_url", image_url: { url: "data:image/png;base64,AA==" } },
  ]);
  assert.deepEqual(out[4], messages[4], "tool calls without text cannot carry a breakpoint");
  assert.deepEqual(out[5], { role: "tool", tool_call_id: "c1", content: [{ type: "text", text: "file body", cache_control: eph }] });
  const total = out.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((p: any) => p.cache_control).length;
  assert.equal(total, 4);
});

test("OpenRouter: 1h ttl, only the last system message, empty contents skipped", () => {
  const messages: ChatCompletionMessageParam[] = [
    { role: "system", content: "first" },
    { role: "system", content: "second" },
    { role: "user", content: "" },
    { role: "user", content: "hi" },
  ];
  const out = openAiCacheControl(messages, { ttl: "1h" }) as any[];
  assert.equal(out[0].content, "first");
  assert.deepEqual(out[1].content, [{ type: "text", text: "second", cache_control: hour }]);
  assert.equal(out[2].content, "", "empty text cannot carry cache_control");
  assert.deepEqual(out[3].content, [{ type: "text", text: "hi", cache_control: hour }]);
});
