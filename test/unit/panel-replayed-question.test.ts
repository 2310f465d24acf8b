// A permission question the agent's process never got an answer to (the window reloaded, or the
// agent died) comes back in the replay as a tool call ended cancelled, carrying the question in
// `_meta["hermes/permission"]`: the panel shows the tool card as "Cancelled" (not "Failed") and
// the question's card with what happened. The state it makes passes the snapshot schema (a
// rebuilt webview gets it whole).
import type * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { test } from "node:test";
import type { ChatAction } from "../../webview-ui/state/actions";
import { initialState, reduce } from "../../webview-ui/state/reducer";
import { chatStateSchema } from "../../webview-ui/state/schemas";

const command = { type: "content", content: { type: "text", text: "```sh\nrm -rf build\n```\nNeeds approval: deletes files." } } as const;

function replayed(cause: "shutdown" | "stopped"): acp.SessionUpdate {
  return {
    sessionUpdate: "tool_call",
    toolCallId: "rm1",
    title: "$ rm -rf build",
    kind: "execute",
    status: "failed",
    content: [{ type: "content", content: { type: "text", text: "Cancelled: the editor closed or reloaded before you answered; the command did not run." } }],
    _meta: { "hermes/cancelled": true, "hermes/permission": { title: "$ rm -rf build", content: [command], outcome: "cancelled", cause, result: "the command did not run" } },
  } as acp.SessionUpdate;
}

function load(...updates: acp.SessionUpdate[]) {
  const actions: ChatAction[] = [{ type: "sessionOpened", sessionId: "s1", loading: true }, ...updates.map((update): ChatAction => ({ type: "update", update })), { type: "sessionLoaded" }];
  return actions.reduce(reduce, initialState());
}

test("a replayed unanswered question after a reload: the tool card is cancelled, the question says the window reloaded", () => {
  const state = load(replayed("shutdown"));
  assert.deepEqual(state.items.map((item) => item.kind), ["tool", "permission"]);
  const [tool, question] = state.items;
  assert.ok(tool?.kind === "tool" && question?.kind === "permission");
  assert.equal(tool.cancelled, true);
  assert.equal(tool.status, "failed");
  assert.deepEqual(tool.content, [], "said once, in the question's card");
  assert.equal(question.toolCallId, "rm1");
  assert.equal(question.outcome, "cancelled");
  assert.equal(question.note, "Cancelled: the window reloaded; the command did not run");
  assert.deepEqual(question.content, [command]);
  assert.ok(chatStateSchema.safeParse(state).success, "a snapshot of it is valid");
});

test("after the agent died: the question says the agent stopped; a plain failed call stays failed", () => {
  const state = load(replayed("stopped"), { sessionUpdate: "tool_call", toolCallId: "x", title: "$ false", kind: "execute", status: "failed", content: [] });
  const question = state.items.find((item) => item.kind === "permission");
  assert.equal(question?.kind === "permission" && question.note, "Cancelled: the agent stopped before you answered; the command did not run");
  const plain = state.items.find((item) => item.id === "x");
  assert.ok(plain?.kind === "tool" && plain.cancelled === undefined);
});

test("a snapshot with an Interrupted marker is valid", () => {
  const state = load({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "cut" }, _meta: { "hermes/marker": { kind: "interrupted", reason: "its process ended during the turn" } } } as acp.SessionUpdate);
  assert.equal(state.items[0]?.kind === "notice" && state.items[0].marker, "interrupted");
  assert.ok(chatStateSchema.safeParse(state).success);
});
