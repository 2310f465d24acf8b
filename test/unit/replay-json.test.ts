// session/load's replay writes text chunks straight from the journal's text instead of building
// and stringifying an update object; the bytes must be exactly what the objects would give.
import assert from "node:assert/strict";
import { test } from "node:test";
import { replayUpdateJson } from "../../acp-server/acp/replay";
import { textChunk, thoughtChunk } from "../../acp-server/acp/updates";
import type { JournalRecord } from "../../acp-server/sessions/types";
import { REDACTION_VERSION } from "../../acp-server/util/redact";

const awkward = 'quotes " and \\ backslash, newline\n, tab\t, control \u0001, line separator \u2028, emoji 😀, lone surrogate \ud800, </script>';

test("text chunks are byte for byte what JSON.stringify gives for the update objects", () => {
  const records: JournalRecord[] = [
    { t: "message", seq: 0, at: 1, tokens: 1, redaction: REDACTION_VERSION, message: { role: "user", content: [{ type: "text", text: awkward }, { type: "image", mimeType: "image/png", data: "AAAA" }] } },
    { t: "message", seq: 1, at: 2, tokens: 1, redaction: REDACTION_VERSION, message: { role: "assistant", content: awkward, reasoning: `thinking: ${awkward}`, id: "reply-1" } },
  ];
  assert.deepEqual(
    [...replayUpdateJson(records)],
    [
      // A prompt's first chunk names its turn (checkpoints and forks count turns).
      // Chunks carry their message's id: the prompt's from its turn, the reply's as journaled.
      JSON.stringify({ sessionUpdate: "user_message_chunk", content: { type: "text", text: awkward }, messageId: "prompt-1", _meta: { "hermes/turn": 1 } }),
      JSON.stringify({ sessionUpdate: "user_message_chunk", content: { type: "image", mimeType: "image/png", data: "AAAA" }, messageId: "prompt-1" }),
      JSON.stringify(thoughtChunk(`thinking: ${awkward}`, "reply-1")),
      JSON.stringify(textChunk(awkward, "reply-1")),
    ],
  );
});
