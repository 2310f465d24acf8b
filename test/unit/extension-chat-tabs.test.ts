// The panel's open chats without an agent: what a tab says (chat-status.ts), which background
// events are reported, that a chat's cards and held edits stay in that chat's state, that the
// tab strip is announced only when it changes, and the protocol's new messages.
import type * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { test } from "node:test";
import { hostToPanel, panelToHost, parseMessage } from "../../common/panel-protocol";
import type { ChatAction } from "../../common/panel-state/actions";
import { initialState, reduce } from "../../common/panel-state/reducer";
import { worktreeInfoOf } from "../../common/worktree-meta";
import { backgroundEvent, backgroundMessage, chatStatus } from "../../extension/chat-status";
import { cardsById } from "../../extension/chat-routing";
import type { ChatTabDeps } from "../../extension/chat-tab";
import { ChatTabs, savedChatsOf } from "../../extension/chat-tabs";
import { memoryLogger } from "../../extension/log";

const apply = (actions: ChatAction[]) => actions.reduce(reduce, initialState());
const toolCall: acp.ToolCallUpdate = { toolCallId: "t1", title: "Run ls" };
const options: acp.PermissionOption[] = [{ optionId: "yes", name: "Allow", kind: "allow_once" }];

const deps: ChatTabDeps = {
  connected: () => Promise.reject(new Error("no agent in this test")),
  cwd: () => "/p",
  initialMode: () => undefined,
  readText: async () => "",
  notify: async () => undefined,
  panelVisible: () => true,
  perHunk: () => false,
  writeDocument: async () => undefined,
  log: memoryLogger(),
};

test("a chat's status: waiting while a card waits, running during a turn, failed after an error, else idle", () => {
  assert.equal(chatStatus(initialState()), "idle");
  assert.equal(chatStatus(apply([{ type: "turnStarted", at: 1 }])), "running");
  const asking = apply([{ type: "turnStarted", at: 1 }, { type: "permissionRequested", id: "p1", toolCall, options }]);
  assert.equal(chatStatus(asking), "waiting", "a permission card outranks the running turn");
  assert.equal(chatStatus(reduce(asking, { type: "permissionResolved", id: "p1", outcome: "yes" })), "running");
  const question = apply([{ type: "questionAsked", question: { id: "q1", message: "Which?", field: "answer" } }]);
  assert.equal(chatStatus(question), "waiting");
  assert.equal(chatStatus(reduce(question, { type: "questionResolved", id: "q1", answered: true, text: "this" })), "idle");
  assert.equal(chatStatus(apply([{ type: "turnStarted", at: 1 }, { type: "turnEnded", stopReason: "error" }])), "failed");
  assert.equal(chatStatus(apply([{ type: "turnStarted", at: 1 }, { type: "turnEnded", stopReason: "end_turn" }])), "idle");
});

test("background events: a turn's end (not a stop the user asked for), a permission, a question, a held edit", () => {
  assert.deepEqual(backgroundEvent({ type: "turnEnded", stopReason: "end_turn" }), { kind: "finished", failed: false });
  assert.deepEqual(backgroundEvent({ type: "turnEnded", stopReason: "error" }), { kind: "finished", failed: true });
  assert.equal(backgroundEvent({ type: "turnEnded", stopReason: "cancelled" }), undefined);
  assert.deepEqual(backgroundEvent({ type: "permissionRequested", id: "p1", toolCall, options }), { kind: "permission" });
  assert.deepEqual(backgroundEvent({ type: "questionAsked", question: { id: "q", message: "?", field: "f" } }), { kind: "question" });
  assert.equal(backgroundEvent({ type: "update", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "x" } } }), undefined);
  assert.equal(backgroundMessage("Fix the tests", { kind: "finished", failed: false }), 'Hermes: "Fix the tests" finished its turn.');
  assert.equal(backgroundMessage(undefined, { kind: "permission" }), 'Hermes: "New chat" needs your permission.');
});

test("a background chat's permission card is its own: it marks only its tab and is reported once; the shown chat's is not reported", async () => {
  const reported: string[] = [];
  let announced = 0;
  // The host reads the shown chat whenever the strip changes (the first chat is made on that first read).
  const tabs: ChatTabs = new ChatTabs(deps, { background: (tab, event) => reported.push(`${tab.id}:${event.kind}`), listChanged: () => void (announced++, tabs.active) });
  const a = tabs.active;
  const b = tabs.open();
  tabs.show(b.id);
  const asked = a.permissions.request({ sessionId: "s-a", toolCall, options });
  assert.deepEqual(reported, [`${a.id}:permission`]);
  assert.equal(a.store.state.items.filter((i) => i.kind === "permission").length, 1);
  assert.equal(b.store.state.items.length, 0, "the shown chat's transcript does not get the other's card");
  assert.deepEqual(tabs.list().map((t) => [t.id, t.status, t.unseen]), [[a.id, "waiting", true], [b.id, "idle", false]]);

  b.permissions.request({ sessionId: "s-b", toolCall, options }).catch(() => undefined); // expected: never answered in this test
  assert.equal(reported.length, 1, "the shown chat's card is in sight: no report");

  // A streamed chunk does not re-announce the strip (nothing on it changed).
  const before = announced;
  a.store.dispatch({ type: "update", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "x" } } });
  assert.equal(announced, before);
  // Answering in A (once shown) resolves A's request only.
  tabs.show(a.id);
  const id = a.store.state.items.find((i) => i.kind === "permission")!.id;
  assert.equal(b.permissions.answer(id, "yes"), false, "a card's id is A's alone: B cannot answer it (a diff editor left open on it after switching)");
  assert.equal(a.permissions.answer(id, "yes"), true);
  assert.deepEqual(await asked, { outcome: { outcome: "selected", optionId: "yes" } });
  assert.deepEqual(tabs.list().map((t) => t.status), ["idle", "waiting"], "B's own card still waits");
  tabs.dispose();
});

test("the protocol: the tab strip, switching and closing chats, a new chat in a worktree; the worktree meta", () => {
  const chats = { type: "chats", chats: [{ id: "chat-1", status: "running", unseen: false, worktree: { branch: "hermes/ab-x", path: "/w" } }], active: "chat-1" };
  assert.equal(parseMessage(hostToPanel, chats).ok, true);
  assert.equal(parseMessage(hostToPanel, { ...chats, chats: [{ id: "chat-1", status: "busy", unseen: false }] }).ok, false);
  assert.equal(parseMessage(panelToHost, { type: "switchChat", id: "chat-2" }).ok, true);
  assert.equal(parseMessage(panelToHost, { type: "closeChat", id: "" }).ok, false);
  assert.equal(parseMessage(panelToHost, { type: "newChat", worktree: true }).ok, true);
  assert.equal(parseMessage(panelToHost, { type: "newChat" }).ok, true);
  assert.deepEqual(worktreeInfoOf({ "hermes/worktree": { branch: "b", path: "/w", repo: "/r" } }), { branch: "b", path: "/w", repo: "/r" });
  assert.equal(worktreeInfoOf({ "hermes/worktree": { branch: "b" } }), undefined);
  assert.equal(worktreeInfoOf(undefined), undefined);
  assert.deepEqual(savedChatsOf({ sessions: ["a", "b"], active: "b" }), { sessions: ["a", "b"], active: "b" });
  assert.equal(savedChatsOf({ sessions: "a" }), undefined, "storage in another shape is ignored, not trusted");
  assert.equal(savedChatsOf(undefined), undefined);
});

test("the diff editor's decisions reach the chat that holds the card, whichever chat is shown", async () => {
  const tabs = new ChatTabs(deps);
  const a = tabs.active;
  const b = tabs.open();
  const cards = cardsById(tabs);
  const asked = a.permissions.request({ sessionId: "s-a", toolCall, options: [...options, { optionId: "no", name: "Reject", kind: "reject_once" }] });
  const held = a.reviews.hold({ path: "/p/x.txt", displayPath: "x.txt", oldText: "one\n", newText: "two\n" });
  tabs.show(b.id);
  const permission = a.store.state.items.find((i) => i.kind === "permission")!;
  const review = a.store.state.items.find((i) => i.kind === "review")!;
  assert.equal(cards.permissions.answerKind(permission.id, "reject_once"), true);
  assert.deepEqual(await asked, { outcome: { outcome: "selected", optionId: "no" } });
  assert.ok(cards.reviews.get(review.id), "A's held edit is found while B is shown");
  await cards.reviews.decideAll(review.id, "accepted");
  await held;
  const decided = a.store.state.items.find((i) => i.id === review.id);
  assert.equal(decided?.kind === "review" ? decided.status : undefined, "applied");
  assert.equal(b.store.state.items.length, 0);
  tabs.dispose();
});
