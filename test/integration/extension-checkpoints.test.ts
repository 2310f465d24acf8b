// The panel's "Restore checkpoint" and "Edit and resend" (extension/checkpoint-actions.ts) against
// the real built agent and a scripted model: which prompts offer a restore (and after a reload),
// a restore of the files only and of files and conversation (the panel opens the new branch),
// edit-and-resend (files restored, chat forked before the message, the edited text sent there),
// and a cancelled restore that changes nothing and gives the edited text back.
import * as acp from "@agentclientprotocol/sdk/unstable";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { editAndResend, restoreCheckpoint, type CheckpointActionDeps } from "../../extension/checkpoint-actions";
import type { ChatState } from "../../common/panel-state/types";
import { chatWith } from "../support/extension-chat";
import { useScriptedModel } from "../support/scripted-model";

const scripted = useScriptedModel();

const run = (id: string, command: string) => ({ toolCalls: [{ id, name: "terminal", arguments: { command } }] });
const userTexts = (state: ChatState) => state.items.flatMap((i) => (i.kind === "user" ? [i.text] : []));
const userTurns = (state: ChatState) => state.items.flatMap((i) => (i.kind === "user" && !i.command ? [i.turn] : []));
const checkpointTurns = (state: ChatState) => state.checkpoints?.turns.map((t) => t.turn);

test("restore from a message (files only, then files and conversation) and edit-and-resend, as the panel does them", async () => {
  const model = scripted();
  const chat = await chatWith(model.url);
  const { store, session, project } = chat;
  const file = (name: string) => path.join(project, name);
  const read = (name: string) => (existsSync(file(name)) ? readFileSync(file(name), "utf8") : null);
  writeFileSync(file("a.txt"), "one\n");
  // Every tool is allowed; a restore's question gets `restoreChoice` (the user's click), and is kept.
  let restoreChoice = "cancel";
  const restoreQuestions: string[] = [];
  const stopAnswering = store.onChange((_state, action) => {
    if (action.type !== "permissionRequested") return;
    const isRestore = action.toolCall.toolCallId.startsWith("restore-");
    if (isRestore) restoreQuestions.push(JSON.stringify(action.toolCall.content));
    const optionId = isRestore ? restoreChoice : action.options.find((o) => o.kind === "allow_once")!.optionId;
    queueMicrotask(() => chat.permissions.answer(action.id, optionId));
  });
  const drafts: string[] = [];
  const deps: CheckpointActionDeps = { session, store, restoreDraft: (text) => drafts.push(text) };
  try {
    const original = await session.newChat();
    model.enqueue({ text: "just words" });
    await session.prompt("talk"); // turn 1: no change
    model.enqueue(run("t1", "echo two > a.txt"), { text: "a changed" });
    await session.prompt("change a"); // turn 2
    model.enqueue(run("t2", "echo b > b.txt"), { text: "b added" });
    await session.prompt("add b"); // turn 3
    await session.prompt("/checkpoints"); // a command: no turn
    assert.deepEqual(userTurns(store.state), [1, 2, 3]);
    assert.deepEqual(checkpointTurns(store.state), [2, 3], "only the changing turns offer a restore");
    assert.equal(store.state.checkpoints?.turns[1]?.changedCount, 1);

    // Files only, cancelled in the preview: nothing changes.
    await restoreCheckpoint(deps, 3, false);
    assert.equal(restoreQuestions.length, 1, "the restore asked first");
    assert.match(restoreQuestions[0], /b\.txt/, "with the diff of the file it removes");
    assert.equal(read("b.txt"), "b\n");
    // Files only, allowed: turn 3's file is gone, the chat is the same one.
    restoreChoice = "restore";
    await restoreCheckpoint(deps, 3, false);
    assert.equal(read("b.txt"), null);
    assert.equal(read("a.txt"), "two\n");
    assert.equal(store.state.sessionId, original);

    // Edit and resend message 2: its files go back (after a yes), the chat forks before it, the new text runs there.
    model.enqueue(run("t3", "echo three > a.txt"), { text: "a changed again" });
    await editAndResend(deps, 2, "change a to three");
    const edited = store.state.sessionId!;
    assert.notEqual(edited, original, "the panel shows the new branch");
    assert.deepEqual(userTexts(store.state), ["talk", "change a to three"]);
    assert.deepEqual(userTurns(store.state), [1, 2]);
    assert.equal(read("a.txt"), "three\n");
    assert.deepEqual(checkpointTurns(store.state), [2], "the resent turn has its own checkpoint");
    const restoresBefore = restoreQuestions.length;
    assert.match(restoreQuestions.at(-1)!, /two/, "the preview showed a.txt going back");

    // Files and conversation from the edited message: a.txt as before turn 2, and a branch with only "talk".
    await restoreCheckpoint(deps, 2, true);
    assert.equal(restoreQuestions.length, restoresBefore + 1);
    assert.equal(read("a.txt"), "one\n");
    const rewound = store.state.sessionId!;
    assert.notEqual(rewound, edited);
    assert.deepEqual(userTexts(store.state), ["talk"]);
    assert.ok(store.state.items.some((i) => i.kind === "notice" && /new branch/.test(i.text)), "the panel says where it is");

    // Both earlier branches are kept.
    const { agent } = await chat.host.connected();
    const listed = (await agent.request(acp.methods.agent.session.list, { cwd: project })).sessions.map((s) => s.sessionId);
    for (const id of [original, edited, rewound]) assert.ok(listed.includes(id), `${id} is in the history`);

    // Edit and resend whose restore is cancelled: nothing changes, nothing is sent, the text comes back.
    await session.load(edited);
    assert.deepEqual(checkpointTurns(store.state), [2], "the offer survives a reload");
    assert.deepEqual(userTurns(store.state), [1, 2], "replayed prompts carry the agent's turn numbers");
    writeFileSync(file("a.txt"), "three\n");
    restoreChoice = "cancel";
    const requests = model.requests.length;
    await editAndResend(deps, 2, "never sent");
    assert.equal(store.state.sessionId, edited);
    assert.equal(read("a.txt"), "three\n");
    assert.deepEqual(drafts, ["never sent"]);
    assert.equal(model.requests.length, requests, "nothing reached the model");
    assert.ok(store.state.items.some((i) => i.kind === "notice" && /Edit and resend stopped: the restore was cancelled/.test(i.text)));
  } finally {
    stopAnswering();
    await chat.close();
  }
});
