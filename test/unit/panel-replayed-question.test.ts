// A permission question the agent's process never got an answer to (the window reloaded, or the
// agent died) comes back in the replay as a tool call ended cancelled, carrying the question in
// `_meta["hermes/permission"]`: the panel shows the tool card as "Cancelled" (not "Failed") and
// the question's card with what happened. The state it makes passes the snapshot schema (a
// rebuilt webview gets it whole).
import type * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { test } from "node:test";
import type { ChatAction } from "../../common/panel-state/actions";
import { initialState, reduce } from "../../common/panel-state/reducer";
import { chatStateSchema } from "../../common/panel-state/schemas";

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

test("a replayed clarify question cut by a reload shows as the question's card, cancelled, never as the user's answer", () => {
  const state = load({
    sessionUpdate: "tool_call",
    toolCallId: "ask1",
    title: "clarify",
    kind: "other",
    status: "failed",
    content: [{ type: "content", content: { type: "text", text: "Cancelled: the editor closed or reloaded before you answered; the question went unanswered." } }],
    _meta: {
      "hermes/cancelled": true,
      "hermes/permission": { title: "Which database?", content: [], outcome: "cancelled", cause: "shutdown", result: "the question went unanswered", action: "clarify" },
    },
  } as acp.SessionUpdate);
  assert.deepEqual(state.items.map((item) => item.kind), ["tool", "question"]);
  const [tool, question] = state.items;
  assert.ok(tool?.kind === "tool" && tool.cancelled === true);
  assert.ok(question?.kind === "question");
  assert.equal(question.message, "Which database?");
  assert.deepEqual(question.outcome, { answered: false, text: "cancelled" });
  assert.equal(question.note, "Cancelled: the window reloaded; the question went unanswered");
  assert.ok(chatStateSchema.safeParse(state).success, "a snapshot of it is valid");
});

test("live: questions and permissions closed because the agent restarted say so; a tool call left running ends cancelled with the turn", () => {
  const actions: ChatAction[] = [
    { type: "sessionOpened", sessionId: "s1", loading: false },
    { type: "turnStarted", at: 1 },
    { type: "update", update: { sessionUpdate: "tool_call", toolCallId: "run1", title: "$ sleep 30", kind: "execute", status: "in_progress" } },
    { type: "questionAsked", question: { id: "question-1", message: "Which one?", field: "answer", choices: [{ value: "a", title: "A" }] } },
    { type: "permissionRequested", id: "perm-1", toolCall: { toolCallId: "rm1", title: "$ rm x" }, options: [{ optionId: "ok", name: "Allow", kind: "allow_once" }] },
    { type: "questionResolved", id: "question-1", answered: false, text: "cancelled", note: "Cancelled: the agent restarted before you answered" },
    { type: "permissionResolved", id: "perm-1", outcome: "cancelled", note: "Cancelled: the agent restarted before you answered" },
    { type: "turnEnded", stopReason: "cancelled" },
  ];
  const state = actions.reduce(reduce, initialState());
  const question = state.items.find((item) => item.kind === "question");
  assert.ok(question?.kind === "question");
  assert.equal(question.note, "Cancelled: the agent restarted before you answered");
  const permission = state.items.find((item) => item.kind === "permission");
  assert.ok(permission?.kind === "permission" && permission.note === "Cancelled: the agent restarted before you answered");
  const tool = state.items.find((item) => item.id === "run1");
  assert.ok(tool?.kind === "tool");
  assert.equal(tool.status, "failed");
  assert.equal(tool.cancelled, true, "cut, not failed");
  assert.ok(chatStateSchema.safeParse(state).success);
});
