// Thinking blocks and reasoning summaries are written to the journal like any other text:
// a secret in the model's reasoning never reaches disk.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { ChatMessage } from "../../acp-server/providers/types";
import { redactMessage } from "../../acp-server/sessions/redact-record";

const KEY = "sk-ant-api03-" + "Zx9Qw7Er5Ty3Ui1Op0As8Df6Gh4Jk2Lz0Xc9Vb7Nm5Qw3Er1Ty9Ui7Op5As3Df1Gh-AbCdEfAA";

test("a signed thinking block that holds a secret is dropped; a clean one is kept byte for byte", () => {
  const clean = { format: "anthropic_messages" as const, data: { type: "thinking", thinking: "Read the config, then fix the test.", signature: "sig-1" } };
  const leaky = { format: "anthropic_messages" as const, data: { type: "thinking", thinking: `The .env has ANTHROPIC_API_KEY=${KEY}, I should not print it.`, signature: "sig-2" } };
  const opaque = { format: "anthropic_messages" as const, data: { type: "redacted_thinking", data: "EncryptedBlob==" } };
  const message: ChatMessage = { role: "assistant", content: "done", replay: [clean, leaky, opaque] };
  const stored = redactMessage(message);
  assert.ok(stored.role === "assistant");
  assert.deepEqual(stored.replay, [clean, opaque]);
  assert.doesNotMatch(JSON.stringify(stored), /Zx9Qw7Er5Ty3/);
});

test("a reasoning summary is redacted, its encrypted content kept", () => {
  const block = { format: "codex_responses" as const, data: { type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: `found token ${KEY} in .env` }], encrypted_content: "gAAAA-opaque" } };
  const stored = redactMessage({ role: "assistant", content: "", replay: [block] });
  assert.ok(stored.role === "assistant" && stored.replay);
  const data = stored.replay[0]?.data as { summary: { text: string }[]; encrypted_content: string };
  assert.doesNotMatch(data.summary[0]?.text ?? "", /Zx9Qw7Er5Ty3/);
  assert.match(data.summary[0]?.text ?? "", /REDACTED/);
  assert.equal(data.encrypted_content, "gAAAA-opaque");
});
