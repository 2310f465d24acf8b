// A notice from Hermes in the panel (a retry, a reply cut by max_tokens, a failed turn replayed
// from the journal): a thought chunk carrying `_meta["hermes/notice"]` becomes a warning row,
// not text folded into the model's reasoning; the state passes the snapshot schema. A plain
// thought stays a thought.
import type * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { test } from "node:test";
import { noticeChunk } from "../../acp-server/acp/updates";
import type { ChatAction } from "../../common/panel-state/actions";
import { initialState, reduce } from "../../common/panel-state/reducer";
import { chatStateSchema } from "../../common/panel-state/schemas";

function apply(...updates: acp.SessionUpdate[]) {
  const actions: ChatAction[] = [{ type: "sessionOpened", sessionId: "s1", loading: false }, ...updates.map((update): ChatAction => ({ type: "update", update }))];
  return actions.reduce(reduce, initialState());
}

test("a notice chunk becomes a warning row after the thought it follows", () => {
  const thought: acp.SessionUpdate = { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "Planning the module." } };
  const text = "The model's reply was cut off by the output limit (max_tokens).";
  const state = apply(thought, noticeChunk(text) as acp.SessionUpdate);
  assert.deepEqual(state.items.map((item) => item.kind), ["thought", "notice"]);
  const row = state.items[1];
  assert.ok(row?.kind === "notice");
  assert.equal(row.severity, "warning");
  assert.equal(row.text, text);
  const first = state.items[0];
  assert.ok(first?.kind === "thought" && first.text === "Planning the module.", "the notice is not glued to the reasoning");
  assert.ok(chatStateSchema.safeParse(state).success);
});

test("the notice still reads as a thought for clients that ignore its _meta", () => {
  const update = noticeChunk("Retrying in 2 s.");
  assert.equal(update.sessionUpdate, "agent_thought_chunk");
  assert.ok(update.sessionUpdate === "agent_thought_chunk" && update.content.type === "text" && update.content.text.includes("⚠ Retrying in 2 s."));
});
