// requestJsonBytes must be byte for byte the UTF-8 JSON.stringify of the body, on the first call and on later
// calls that reuse the pieces serialized before (a growing history, the same tool list).
import assert from "node:assert/strict";
import { test } from "node:test";
import { toOpenAIMessages, toOpenAITools } from "../../acp-server/providers/chat-completions-messages";
import { requestJsonBytes } from "../../acp-server/providers/request-json";
import type { ChatMessage, ToolSpec } from "../../acp-server/providers/types";

const REUSED = { messages: "items", tools: "whole" } as const;
const json = (body: object) => requestJsonBytes(body, REUSED).toString("utf8");

const tools: ToolSpec[] = [
  { name: "read_file", description: 'Read a "file"\nwith escapes \u2028 and \u0001', parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } },
  { name: "todo", description: "Plan ☑ steps", parameters: { type: "object", properties: { todos: { type: "array", items: { type: "object" } } } } },
];

function body(history: ChatMessage[], extra: Record<string, unknown> = {}) {
  return {
    model: "m\u00e9",
    messages: toOpenAIMessages(history),
    stream: true,
    stream_options: { include_usage: true },
    tools: toOpenAITools(tools),
    parallel_tool_calls: true,
    max_tokens: undefined,
    ...extra,
  };
}

test("requestJsonBytes is the UTF-8 JSON.stringify of the body, call after call of a growing history", () => {
  const system: ChatMessage = { role: "system", content: "You are Hermes.\n\"quoted\" \\ backslash" };
  const history: ChatMessage[] = [system, { role: "user", content: [{ type: "text", text: "hi 🙂" }] }];
  for (let step = 0; step < 4; step++) {
    const sent = body(history, step === 2 ? { temperature: 0.2, max_tokens: 100 } : {});
    assert.equal(json(sent), JSON.stringify(sent), `step ${step}`);
    // Twice: the second time every piece comes from what the first encoded.
    assert.equal(json(sent), JSON.stringify(sent), `step ${step}, again`);
    history.push(
      { role: "assistant", content: "", toolCalls: [{ id: `call_${step}`, name: "read_file", arguments: JSON.stringify({ path: `a${step}.txt` }) }] },
      { role: "tool", toolCallId: `call_${step}`, name: "read_file", content: `line\t${step}\n`, images: step === 1 ? [{ mimeType: "image/png", data: "AAAA" }] : undefined },
    );
  }
  history.push({ role: "user", content: [{ type: "text", text: "look" }, { type: "image", mimeType: "image/png", data: "iVBOR" }] });
  const last = body(history);
  assert.equal(json(last), JSON.stringify(last));
  assert.deepEqual(requestJsonBytes(last, REUSED), Buffer.from(JSON.stringify(last), "utf8"), "the same bytes");
});

test("requestJsonBytes leaves out what JSON.stringify leaves out, and keeps fields in order", () => {
  const odd = { a: 1, skip: undefined, fn: () => 1, messages: [{ x: 1 }, null, "s", undefined, () => 2, { toJSON: () => undefined }], tools: [], when: new Date(0), hidden: { toJSON: () => undefined } };
  assert.equal(json(odd), JSON.stringify(odd));
  assert.equal(json({ messages: { toJSON: () => undefined }, tools: "not an array" }), JSON.stringify({ messages: { toJSON: () => undefined }, tools: "not an array" }));
  assert.equal(json({}), "{}");
  assert.equal(json({ skip: undefined }), "{}");
});
