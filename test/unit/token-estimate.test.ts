import assert from "node:assert/strict";
import { test } from "node:test";
import { messageTokens } from "../../acp-server/providers/token-estimate";
import type { ChatMessage } from "../../acp-server/providers/types";
import { SessionRecorder } from "../../acp-server/sessions/recorder";
import type { JournalRecord } from "../../acp-server/sessions/types";
import { createLogger } from "../../acp-server/util/log";

// A screenshot's worth of base64: counted by its characters it would be ~250k tokens.
const bigImage = { mimeType: "image/png", data: "A".repeat(1_000_000) };

test("an image counts a fixed amount, whatever its bytes, in a user message and in a tool result alike", () => {
  const text = (t: string) => ({ type: "text" as const, text: t });
  const withImage: ChatMessage = { role: "user", content: [text("look at this"), { type: "image", ...bigImage }] };
  const withoutImage: ChatMessage = { role: "user", content: [text("look at this")] };
  const imageTokens = messageTokens(withImage) - messageTokens(withoutImage);
  assert.ok(imageTokens > 0 && imageTokens < 10_000, `one image is a fixed, modest amount (got ${imageTokens})`);

  const tool = (images?: (typeof bigImage)[]): ChatMessage => ({ role: "tool", toolCallId: "c", name: "mcp_x_shot", content: "done", ...(images ? { images } : {}) });
  assert.equal(messageTokens(tool([bigImage])) - messageTokens(tool()), imageTokens, "a tool's image counts as the user's");
  assert.equal(messageTokens(tool([bigImage, bigImage])) - messageTokens(tool()), 2 * imageTokens);
});

test("the journal records the same estimate compression plans with", () => {
  const records: JournalRecord[] = [];
  const recorder = new SessionRecorder({ append: (_id, record) => void records.push(record) }, "s1", 0, createLogger("test"));
  const messages: ChatMessage[] = [
    { role: "user", content: [{ type: "text", text: "what is in the picture?" }, { type: "image", ...bigImage }] },
    { role: "assistant", content: "a cat", toolCalls: [{ id: "c1", name: "read_file", arguments: '{"path":"a.ts"}' }] },
    { role: "tool", toolCallId: "c1", name: "read_file", content: "x".repeat(400), images: [bigImage] },
  ];
  for (const message of messages) recorder.message(message);
  const journaled = records.map((record) => (record.t === "message" ? record.tokens : undefined));
  assert.deepEqual(journaled, messages.map(messageTokens));
});
