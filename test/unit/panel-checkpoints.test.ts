// The panel's checkpoint state (common/panel-state/checkpoints.ts and the reducer's part): prompts
// numbered as the agent numbers them (replayed `_meta["hermes/turn"]`, a prompt's answer
// correcting a skill invocation the panel took for a command), which message offers what, and
// the host → panel messages that carry it through their schemas.
import type * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { test } from "node:test";
import { hostToPanel, panelToHost, parseMessage } from "../../common/panel-protocol";
import type { ChatAction } from "../../common/panel-state/actions";
import { checkpointOf, restoreTargetFrom, type CheckpointState } from "../../common/panel-state/checkpoints";
import { initialState, reduce } from "../../common/panel-state/reducer";
import type { ChatState, UserItem } from "../../common/panel-state/types";

const apply = (actions: ChatAction[], state: ChatState = initialState()) => actions.reduce(reduce, state);
const users = (state: ChatState) => state.items.filter((i): i is UserItem => i.kind === "user");
const replayed = (text: string, turn?: number): ChatAction => ({
  type: "update",
  update: { sessionUpdate: "user_message_chunk", content: { type: "text", text }, ...(turn === undefined ? {} : { _meta: { "hermes/turn": turn } }) } as acp.SessionUpdate,
});
const listing: CheckpointState = {
  supported: true,
  enabled: true,
  turns: [
    { turn: 2, time: 1, prompt: "change a", changedCount: 1, changed: ["a.txt"] },
    { turn: 4, time: 2, prompt: "add b" },
  ],
};

test("replayed prompts take the agent's turn numbers, even one that looks like a command", () => {
  const commands = { type: "update", update: { sessionUpdate: "available_commands_update", availableCommands: [{ name: "review", description: "a skill" }] } } as ChatAction;
  const state = apply([{ type: "sessionOpened", sessionId: "s", loading: true }, commands, replayed("hi", 1), replayed("/review the diff", 2), replayed("more", 3)]);
  assert.deepEqual(users(state).map((u) => [u.turn, u.command]), [[1, undefined], [2, undefined], [3, undefined]]);
});

test("a prompt's answer numbers its turn: a skill invocation taken for a command becomes one, later prompts follow", () => {
  let state = apply([
    { type: "sessionOpened", sessionId: "s", loading: false },
    { type: "userPrompt", text: "hi", attachments: [], isCommand: false },
    { type: "userPrompt", text: "/review x", attachments: [], isCommand: true },
  ]);
  const skill = users(state)[1];
  assert.deepEqual([skill.turn, skill.command], [1, true]);
  state = apply([{ type: "userTurn", id: skill.id, turn: 2 }, { type: "userPrompt", text: "next", attachments: [], isCommand: false }], state);
  assert.deepEqual(users(state).map((u) => [u.turn, u.command]), [[1, undefined], [2, undefined], [3, undefined]]);
  const same = reduce(state, { type: "userTurn", id: users(state)[2].id, turn: 3 });
  assert.equal(same, state, "an answer that agrees changes nothing");
});

test("the checkpoint list: set, cleared with the session; what restore and edit-and-resend target", () => {
  let state = apply([{ type: "sessionOpened", sessionId: "s", loading: false }, { type: "checkpoints", checkpoints: listing }]);
  assert.deepEqual(state.checkpoints, listing);
  assert.equal(checkpointOf(state.checkpoints, 2)?.prompt, "change a");
  assert.equal(checkpointOf(state.checkpoints, 3), undefined, "turn 3 changed nothing: no restore offered");
  assert.equal(restoreTargetFrom(state.checkpoints, 1)?.turn, 2, "editing turn 1 undoes turn 2's files");
  assert.equal(restoreTargetFrom(state.checkpoints, 3)?.turn, 4);
  assert.equal(restoreTargetFrom(state.checkpoints, 5), undefined, "nothing changed since: only the chat is rewound");
  state = reduce(state, { type: "sessionOpened", sessionId: "t", loading: true });
  assert.equal(state.checkpoints, undefined);
});

test("the messages pass their schemas; bad ones are refused", () => {
  for (const action of [{ type: "checkpoints", checkpoints: listing }, { type: "userTurn", id: "hermes:user:1", turn: 2 }] as ChatAction[]) {
    const parsed = parseMessage(hostToPanel, { type: "actions", actions: [action] });
    assert.ok(parsed.ok, JSON.stringify(parsed));
  }
  const snapshot = apply([{ type: "sessionOpened", sessionId: "s", loading: false }, { type: "userPrompt", text: "/undo", attachments: [], isCommand: true }, { type: "checkpoints", checkpoints: listing }]);
  const parsed = parseMessage(hostToPanel, { type: "snapshot", state: snapshot });
  assert.ok(parsed.ok && parsed.message.type === "snapshot");
  assert.deepEqual(parsed.message.state, snapshot);
  assert.equal(parseMessage(hostToPanel, { type: "actions", actions: [{ type: "checkpoints", checkpoints: { supported: true, enabled: true, turns: [{ turn: "2" }] } }] }).ok, false);

  assert.ok(parseMessage(panelToHost, { type: "restoreCheckpoint", turn: 2, conversation: true }).ok);
  assert.ok(parseMessage(panelToHost, { type: "editResend", turn: 2, text: "again" }).ok);
  assert.equal(parseMessage(panelToHost, { type: "restoreCheckpoint", turn: 0, conversation: false }).ok, false, "turns start at 1");
  assert.equal(parseMessage(panelToHost, { type: "editResend", turn: 2, text: "" }).ok, false, "nothing to send");
});
