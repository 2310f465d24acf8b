// A session loaded from a cached replay answers before its model history is parsed
// (acp/load-journal.ts): AgentSession restores the deferred conversation at its first use, so
// a prompt right after the load, a new tool call id or a /reset all see the whole of it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { AgentSession, type RestoredConversation } from "../../acp-server/agent/session";
import type { ChatMessage } from "../../acp-server/providers/types";

const history: ChatMessage[] = [
  { role: "user", content: [{ type: "text", text: "first question" }] },
  { role: "assistant", content: "first answer" },
];

function deferredSession(restore: () => RestoredConversation): AgentSession {
  return new AgentSession("s1", "/tmp", "default", { restored: { history: [], toolCallIds: [], title: "kept", prompts: 1, deferred: restore } });
}

test("the deferred conversation is restored once, at the first read of the history", () => {
  let restores = 0;
  const session = deferredSession(() => {
    restores++;
    return { history, toolCallIds: ["call-1"] };
  });
  assert.equal(session.conversationDeferred, true);
  assert.equal(session.title, "kept", "the settings are there at once");
  assert.equal(restores, 0, "nothing restored before it is needed");
  assert.deepEqual(session.history, history);
  session.append({ role: "user", content: [{ type: "text", text: "next" }] });
  assert.equal(session.history.length, 3, "a prompt after the load continues the whole history");
  assert.equal(restores, 1);
  assert.equal(session.conversationDeferred, false);
});

test("a new tool call id avoids the deferred conversation's ids", () => {
  const session = deferredSession(() => ({ history, toolCallIds: ["call-1"] }));
  assert.equal(session.uniqueToolCallId("call-1"), "call-1#2");
});

test("a restore that fails leaves it deferred: the caller sees the error, never an empty history", () => {
  let fail = true;
  const session = deferredSession(() => {
    if (fail) throw new Error("disk gone");
    return { history, toolCallIds: [] };
  });
  assert.throws(() => session.history, /disk gone/);
  assert.equal(session.conversationDeferred, true);
  fail = false;
  assert.deepEqual(session.history, history);
});
