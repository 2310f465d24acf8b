// The learning review's announcement in the panel: an agent message carrying
// `_meta["hermes/learned"]` (live or replayed) becomes a "learned" card item with what, where
// and the change id (Undo sends `/learned undo <id>`, Open opens `where`); the state passes the
// snapshot schema. A chunk with a malformed note stays an ordinary message.
import type * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { test } from "node:test";
import { learnedChunk } from "../../acp-server/acp/updates";
import type { ChatAction } from "../../common/panel-state/actions";
import { initialState, reduce } from "../../common/panel-state/reducer";
import { chatStateSchema } from "../../common/panel-state/schemas";

const note = { id: "l1a2b3c4", kind: "skill" as const, what: 'new skill "deploy-steps": Deploy the service.', where: "/home/u/.hermes/skills/deploy-steps/SKILL.md" };

function apply(...updates: acp.SessionUpdate[]) {
  const actions: ChatAction[] = [{ type: "sessionOpened", sessionId: "s1", loading: false }, ...updates.map((update): ChatAction => ({ type: "update", update }))];
  return actions.reduce(reduce, initialState());
}

test("an agent message with _meta hermes/learned becomes a learned card, after the answer it follows", () => {
  const answer: acp.SessionUpdate = { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Done." } };
  const state = apply(answer, learnedChunk(note) as acp.SessionUpdate);
  assert.deepEqual(state.items.map((item) => item.kind), ["agent", "learned"]);
  const card = state.items[1];
  assert.ok(card?.kind === "learned");
  assert.equal(card.changeId, "l1a2b3c4");
  assert.equal(card.learned, "skill");
  assert.equal(card.what, note.what);
  assert.equal(card.where, note.where);
  const agent = state.items[0];
  assert.ok(agent?.kind === "agent" && agent.text === "Done.", "the card's text is not glued to the answer");
  assert.ok(chatStateSchema.safeParse(state).success, "a rebuilt webview gets it in the snapshot");
});

test("a malformed hermes/learned note is shown as the plain message it is", () => {
  const bad = { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Learned: x" }, _meta: { "hermes/learned": { id: 3, kind: "skill", what: "x", where: "/x" } } } as acp.SessionUpdate;
  const state = apply(bad);
  assert.deepEqual(state.items.map((item) => item.kind), ["agent"]);
});
