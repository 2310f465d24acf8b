// The panel state contract as the host uses it: the reducer replaying ACP traffic, the store's
// batched sync to panels, permissions and held edit reviews, and the protocol's validation.
import type * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { test } from "node:test";
import { ChatStore, type PanelSink } from "../../extension/chat-store";
import { EditReviews, REJECTED_MESSAGE } from "../../extension/edit-review";
import { PermissionBroker } from "../../extension/permissions";
import { TerminalFeed } from "../../extension/terminal-feed";
import { buildPrompt, isCommandPrompt } from "../../extension/prompt-builder";
import { hostToPanel, panelToHost, parseMessage, type HostToPanel } from "../../common/panel-protocol";
import type { ChatAction } from "../../common/panel-state/actions";
import { initialState, reduce } from "../../common/panel-state/reducer";
import { OLD_TERMINAL_LIMIT, TERMINAL_OUTPUT_LIMIT, TERMINALS_TOTAL_LIMIT } from "../../common/panel-state/terminals";
import type { ChatState, ReviewItem } from "../../common/panel-state/types";

const apply = (actions: ChatAction[], state: ChatState = initialState()) => actions.reduce(reduce, state);
const update = (u: acp.SessionUpdate): ChatAction => ({ type: "update", update: u });
const text = (t: string): acp.ContentBlock => ({ type: "text", text: t });

test("replay: user chunks with attachments, agent chunks joined per message, thoughts", () => {
  const state = apply([
    { type: "sessionOpened", sessionId: "s1", loading: true },
    update({ sessionUpdate: "user_message_chunk", content: text("look at this"), messageId: "m1" }),
    update({ sessionUpdate: "user_message_chunk", content: { type: "resource_link", uri: "file:///p/a.ts", name: "a.ts" } }),
    update({ sessionUpdate: "agent_thought_chunk", content: text("hmm ") }),
    update({ sessionUpdate: "agent_thought_chunk", content: text("ok") }),
    update({ sessionUpdate: "agent_message_chunk", content: text("Hello"), messageId: "a1" }),
    update({ sessionUpdate: "agent_message_chunk", content: text(" world"), messageId: "a1" }),
    update({ sessionUpdate: "agent_message_chunk", content: text("Second"), messageId: "a2" }),
    update({ sessionUpdate: "user_message_chunk", content: text("next"), messageId: "m2" }),
    { type: "sessionLoaded", modes: { currentModeId: "plan", availableModes: [{ id: "plan", name: "Plan" }] } },
  ]);
  assert.deepEqual(
    state.items.map((i) => [i.kind, "text" in i ? i.text : ""]),
    [["user", "look at this"], ["thought", "hmm ok"], ["agent", "Hello world"], ["agent", "Second"], ["user", "next"]],
  );
  const first = state.items[0];
  assert.ok(first.kind === "user");
  assert.deepEqual(first.attachments, [{ kind: "file", name: "a.ts" }]);
  assert.deepEqual(state.items.filter((i) => i.kind === "user").map((i) => (i.kind === "user" ? i.turn : 0)), [1, 2]);
  assert.equal(state.loading, false);
  assert.equal(state.modes?.currentModeId, "plan", "sessionLoaded carries the pickers of the load answer");
});

test("tool call and its updates patch one item; other items keep their identity", () => {
  const before = apply([update({ sessionUpdate: "agent_message_chunk", content: text("Let me edit.") })]);
  const started = apply([update({ sessionUpdate: "tool_call", toolCallId: "t1", title: "Edit a.ts", kind: "edit", status: "pending" })], before);
  const done = apply(
    [
      update({ sessionUpdate: "tool_call_update", toolCallId: "t1", status: "in_progress" }),
      update({ sessionUpdate: "tool_call_update", toolCallId: "t1", status: "completed", content: [{ type: "diff", path: "/p/a.ts", oldText: "a", newText: "b" }] }),
    ],
    started,
  );
  assert.equal(done.items.length, 2);
  assert.equal(done.items[0], before.items[0], "the agent message was not re-created");
  const tool = done.items[1];
  assert.ok(tool.kind === "tool");
  assert.equal(tool.status, "completed");
  assert.equal(tool.title, "Edit a.ts");
  assert.equal(tool.content[0].type, "diff");
});

test("a permission the turn end leaves unanswered is cancelled", () => {
  const state = apply([
    update({ sessionUpdate: "tool_call", toolCallId: "t1", title: "Run rm", kind: "execute" }),
    { type: "permissionRequested", id: "p1", toolCall: { toolCallId: "t1" }, options: [{ optionId: "y", name: "Allow", kind: "allow_once" }] },
    { type: "turnStarted", at: 1 },
    { type: "turnEnded", stopReason: "cancelled" },
  ]);
  const card = state.items.find((i) => i.kind === "permission");
  assert.ok(card?.kind === "permission");
  assert.equal(card.title, "Run rm", "the card borrows the tool call's title");
  assert.equal(card.outcome, "cancelled");
  assert.equal(state.turn.running, false);
});

test("terminals: output appends, exit is recorded, items keep their identity; sessionOpened clears them", () => {
  const before = apply([
    { type: "sessionOpened", sessionId: "s1", loading: false },
    update({ sessionUpdate: "tool_call", toolCallId: "t1", title: "$ make", kind: "execute", content: [{ type: "terminal", terminalId: "term-1" }] }),
  ]);
  const running = apply(
    [
      { type: "terminalOutput", terminalId: "term-1", text: "" },
      { type: "terminalOutput", terminalId: "term-1", text: "compiling\n" },
      { type: "terminalOutput", terminalId: "term-1", text: "done\n" },
    ],
    before,
  );
  assert.deepEqual(running.terminals["term-1"], { output: "compiling\ndone\n" });
  assert.equal(running.items, before.items, "output does not touch the transcript");
  const exited = reduce(running, { type: "terminalExited", terminalId: "term-1", exitCode: 1, signal: null });
  assert.deepEqual(exited.terminals["term-1"], { output: "compiling\ndone\n", exitCode: 1, signal: null });
  const killed = reduce(exited, { type: "terminalExited", terminalId: "term-2", exitCode: null, signal: "SIGTERM" });
  assert.deepEqual(killed.terminals["term-2"], { output: "", exitCode: null, signal: "SIGTERM" }, "an exit without output still records it");
  assert.equal(killed.terminals["term-1"], exited.terminals["term-1"]);
  assert.equal(reduce(killed, { type: "terminalOutput", terminalId: "term-1", text: "" }), killed, "an empty chunk for a known terminal changes nothing");
  assert.deepEqual(reduce(killed, { type: "sessionOpened", sessionId: "s2", loading: false }).terminals, {});
  assert.deepEqual(reduce(killed, { type: "sessionClosed" }).terminals, {});
  assert.deepEqual(initialState().terminals, {});
});

test("terminals: output is capped to its newest part, and old finished terminals shrink past the total budget", () => {
  const chunk = "x".repeat(40 * 1024);
  const state = apply([
    { type: "terminalOutput", terminalId: "term-1", text: `first line\n${chunk}` },
    { type: "terminalOutput", terminalId: "term-1", text: `${chunk}last` },
  ]);
  const term = state.terminals["term-1"];
  assert.equal(term.output.length, TERMINAL_OUTPUT_LIMIT);
  assert.ok(term.output.endsWith("xlast"));
  assert.equal(term.truncated, true);
  const emoji = apply([{ type: "terminalOutput", terminalId: "t", text: "😀".repeat(TERMINAL_OUTPUT_LIMIT) }]);
  assert.ok(!/^[\udc00-\udfff]/.test(emoji.terminals.t.output), "never starts inside a surrogate pair");
  assert.equal(apply([{ type: "terminalOutput", terminalId: "t", text: "a", truncated: true }]).terminals.t.truncated, true, "the host dropped some");

  // Many finished terminals: the oldest lose all but a short tail; running ones and the newest keep theirs.
  const full = "y".repeat(TERMINAL_OUTPUT_LIMIT);
  const actions: ChatAction[] = [{ type: "terminalOutput", terminalId: "running", text: full }];
  const count = Math.ceil(TERMINALS_TOTAL_LIMIT / TERMINAL_OUTPUT_LIMIT) + 2;
  for (let i = 0; i < count; i++) {
    actions.push({ type: "terminalOutput", terminalId: `done-${i}`, text: full }, { type: "terminalExited", terminalId: `done-${i}`, exitCode: 0, signal: null });
  }
  const many = apply(actions);
  const total = Object.values(many.terminals).reduce((n, t) => n + t.output.length, 0);
  assert.ok(total <= TERMINALS_TOTAL_LIMIT, `${total}`);
  assert.equal(many.terminals.running.output.length, TERMINAL_OUTPUT_LIMIT);
  assert.equal(many.terminals["done-0"].output.length, OLD_TERMINAL_LIMIT);
  assert.equal(many.terminals["done-0"].truncated, true);
  assert.equal(many.terminals[`done-${count - 1}`].output.length, TERMINAL_OUTPUT_LIMIT);
});

test("terminal feed: one action per terminal per interval, pending output before the exit", (t) => {
  // Fake timers: the interval passes when the test says so, not when the machine gets to it.
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const actions: ChatAction[] = [];
  const feed = new TerminalFeed((action) => actions.push(action), 30);
  feed.started("term-1");
  assert.deepEqual(actions, [{ type: "terminalOutput", terminalId: "term-1", text: "" }], "the card knows at once");
  for (let i = 0; i < 50; i++) feed.output("term-1", `${i}\n`);
  feed.output("term-2", "other\n");
  t.mock.timers.tick(29);
  assert.equal(actions.length, 1, "nothing before the interval");
  t.mock.timers.tick(1);
  const outputs = actions.filter((a) => a.type === "terminalOutput" && a.text !== "");
  assert.equal(outputs.length, 2);
  assert.deepEqual(outputs[0], { type: "terminalOutput", terminalId: "term-1", text: Array.from({ length: 50 }, (_, i) => `${i}\n`).join("") });
  assert.deepEqual(outputs[1], { type: "terminalOutput", terminalId: "term-2", text: "other\n" });

  actions.length = 0;
  feed.output("term-1", "tail\n");
  feed.exited("term-1", { exitCode: 2, signal: null });
  assert.deepEqual(actions, [
    { type: "terminalOutput", terminalId: "term-1", text: "tail\n" },
    { type: "terminalExited", terminalId: "term-1", exitCode: 2, signal: null },
  ]);
  t.mock.timers.tick(60);
  assert.equal(actions.length, 2, "the exit cancelled the pending flush");

  actions.length = 0;
  feed.output("term-3", "z".repeat(TERMINAL_OUTPUT_LIMIT + 10));
  feed.exited("term-3", { exitCode: null, signal: "SIGKILL" });
  const big = actions[0];
  assert.ok(big.type === "terminalOutput");
  assert.equal(big.text.length, TERMINAL_OUTPUT_LIMIT, "never ships more than the state keeps");
  assert.equal(big.truncated, true);
  feed.output("term-4", "late");
  feed.dispose();
  t.mock.timers.tick(60);
  assert.equal(actions.length, 2, "nothing after dispose");

  const state = apply([
    { type: "terminalOutput", terminalId: "term-1", text: "" },
    ...outputs,
    { type: "terminalOutput", terminalId: "term-1", text: "tail\n" },
    { type: "terminalExited", terminalId: "term-1", exitCode: 2, signal: null },
  ]);
  assert.equal(state.terminals["term-1"].exitCode, 2);
  assert.ok(state.terminals["term-1"].output.endsWith("49\ntail\n"));
});

test("store: panels get a snapshot on ready, then batched actions; none before ready", (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const store = new ChatStore();
  const received: HostToPanel[] = [];
  const sink: PanelSink = { post: (m) => received.push(m) };
  store.attach(sink);
  store.dispatch({ type: "notice", severity: "info", text: "before ready" });
  t.mock.timers.tick(1_000);
  assert.equal(received.length, 0);
  store.ready(sink);
  assert.equal(received[0].type, "snapshot");
  for (let i = 0; i < 50; i++) store.dispatch(update({ sessionUpdate: "agent_message_chunk", content: text(`${i} `) }));
  assert.equal(received.length, 1, "chunks wait for the batch");
  t.mock.timers.tick(16);
  assert.equal(received.length, 2, "fifty chunks, one post");
  const batch = received[1];
  assert.ok(batch.type === "actions");
  assert.equal(batch.actions.length, 50);
  // A panel applying snapshot + actions ends where the host is.
  const snapshot = received[0];
  assert.ok(snapshot.type === "snapshot");
  assert.deepEqual(apply(batch.actions, snapshot.state), store.state);
  store.dispose();
});

test("permissions: the panel answers, a cancel answers the rest; a hidden panel also notifies", async () => {
  const store = new ChatStore();
  const notified: string[][] = [];
  let answerNotification: (name: string | undefined) => void = () => {};
  let visible = true;
  const broker = new PermissionBroker(
    (a) => store.dispatch(a),
    (_title, names) => {
      notified.push(names);
      return new Promise((resolve) => (answerNotification = resolve));
    },
    () => visible,
  );
  const options: acp.PermissionOption[] = [
    { optionId: "allow", name: "Allow once", kind: "allow_once" },
    { optionId: "deny", name: "Deny", kind: "reject_once" },
  ];
  const first = broker.request({ sessionId: "s", toolCall: { toolCallId: "t1", title: "Edit" }, options });
  assert.equal(notified.length, 0, "a visible panel shows the card only");
  const card = store.state.items.find((i) => i.kind === "permission");
  assert.ok(card);
  assert.equal(broker.answer(card.id, "nope"), false, "an unknown option is refused");
  assert.ok(broker.answer(card.id, "allow"));
  assert.deepEqual(await first, { outcome: { outcome: "selected", optionId: "allow" } });

  visible = false;
  const second = broker.request({ sessionId: "s", toolCall: { toolCallId: "t2" }, options });
  assert.deepEqual(notified, [["Allow once", "Deny"]]);
  answerNotification("Deny");
  assert.deepEqual(await second, { outcome: { outcome: "selected", optionId: "deny" } });

  const third = broker.request({ sessionId: "s", toolCall: { toolCallId: "t3" }, options });
  broker.cancelAll();
  assert.deepEqual(await third, { outcome: { outcome: "cancelled" } });
  const outcomes = store.state.items.flatMap((i) => (i.kind === "permission" ? [i.outcome] : []));
  assert.deepEqual(outcomes, ["allow", "deny", "cancelled"]);
  store.dispose();
});

test("permissions: a rejection carries the user's reason in _meta; the tool card reads as rejected, not failed", async () => {
  const store = new ChatStore();
  const broker = new PermissionBroker((a) => store.dispatch(a), async () => undefined, () => true);
  const options: acp.PermissionOption[] = [
    { optionId: "allow", name: "Allow once", kind: "allow_once" },
    { optionId: "deny", name: "Reject", kind: "reject_once" },
  ];
  store.dispatch({ type: "update", update: { sessionUpdate: "tool_call", toolCallId: "t1", title: "rm -rf build", status: "pending" } });
  const asked = broker.request({ sessionId: "s", toolCall: { toolCallId: "t1" }, options });
  const card = store.state.items.find((i) => i.kind === "permission")!;
  assert.ok(broker.answer(card.id, "deny", "  use the clean script instead "));
  assert.deepEqual(await asked, { outcome: { outcome: "selected", optionId: "deny" }, _meta: { "hermes/reason": "use the clean script instead" } });
  store.dispatch({ type: "update", update: { sessionUpdate: "tool_call_update", toolCallId: "t1", status: "failed" } });
  const tool = store.state.items.find((i) => i.kind === "tool");
  assert.equal(tool?.kind === "tool" && tool.rejected, true);
  const answered = store.state.items.find((i) => i.kind === "permission");
  assert.equal(answered?.kind === "permission" && answered.reason, "use the clean script instead");

  // A reason sent with an allow is not passed on; an empty one is no reason.
  const allowed = broker.request({ sessionId: "s", toolCall: { toolCallId: "t2" }, options });
  const second = store.state.items.filter((i) => i.kind === "permission")[1];
  broker.answer(second.id, "allow", "whatever");
  assert.deepEqual(await allowed, { outcome: { outcome: "selected", optionId: "allow" } });
  const blank = broker.request({ sessionId: "s", toolCall: { toolCallId: "t3" }, options });
  broker.answer(store.state.items.filter((i) => i.kind === "permission")[2].id, "deny", "   ");
  assert.deepEqual(await blank, { outcome: { outcome: "selected", optionId: "deny" } });
  store.dispose();
});

test("a turn stopped by the user ends with a Stopped marker; one that ended normally does not", () => {
  const store = new ChatStore();
  store.dispatch({ type: "turnStarted", at: 1 });
  store.dispatch({ type: "turnEnded", stopReason: "end_turn" });
  assert.equal(store.state.items.length, 0);
  store.dispatch({ type: "turnStarted", at: 2 });
  store.dispatch({ type: "turnEnded", stopReason: "cancelled" });
  const last = store.state.items.at(-1);
  assert.equal(last?.kind === "notice" && last.marker, "stopped");
  // A second "ended" for the same turn (agent lost right after) adds nothing.
  store.dispatch({ type: "turnEnded", stopReason: "cancelled" });
  assert.equal(store.state.items.length, 1);
  store.dispose();
});

function reviewSetup() {
  const store = new ChatStore();
  const writes: { path: string; text: string; isNew: boolean }[] = [];
  const reviews = new EditReviews(
    (a) => store.dispatch(a),
    async (path, text, isNew) => void writes.push({ path, text, isNew }),
  );
  const review = () => store.state.items.find((i): i is ReviewItem => i.kind === "review" && i.status === "pending");
  return { store, writes, reviews, review };
}

const twelve = Array.from({ length: 12 }, (_, i) => `l${i + 1}\n`).join("");
const changed = twelve.replace("l1\n", "L1\n").replace("l12\n", "L12\n");

test("review: accepting one hunk of two writes only that hunk and reports the split", async () => {
  const { store, writes, reviews, review } = reviewSetup();
  const answer = reviews.hold({ path: "/p/a.txt", displayPath: "a.txt", oldText: twelve, newText: changed });
  const card = review();
  assert.ok(card);
  assert.equal(card.hunks.length, 2);
  await reviews.decide(card.id, 0, "accepted");
  assert.equal(writes.length, 0, "nothing is written while a hunk is undecided");
  await reviews.decide(card.id, 1, "rejected");
  const split = (await answer)._meta?.["hermes/review"] as { accepted: number; rejected: number; hunks: { accepted: boolean; line: number }[] };
  assert.deepEqual([split.accepted, split.rejected], [1, 1]);
  assert.deepEqual(split.hunks.map((h) => [h.accepted, h.line]), [[true, 1], [false, 12]], "which hunks landed, for the model");
  assert.deepEqual(writes, [{ path: "/p/a.txt", text: twelve.replace("l1\n", "L1\n"), isNew: false }]);
  const resolved = store.state.items.find((i) => i.kind === "review");
  assert.ok(resolved?.kind === "review");
  assert.equal(resolved.status, "applied");
  assert.deepEqual(resolved.hunks.map((h) => h.decision), ["accepted", "rejected"]);
  assert.equal(reviews.get(card.id)?.newText, changed, "a resolved review still opens as a diff");
});

test("review: rejecting everything answers with an error and writes nothing", async () => {
  const { writes, reviews, review } = reviewSetup();
  const answer = reviews.hold({ path: "/p/a.txt", displayPath: "a.txt", oldText: twelve, newText: changed });
  await reviews.decideAll(review()!.id, "rejected");
  await assert.rejects(answer, (error: Error) => error.message === REJECTED_MESSAGE);
  assert.equal(writes.length, 0);
});

test("review: a new file, accept all; identical text is written without review; cancel drops held edits", async () => {
  const { store, writes, reviews, review } = reviewSetup();
  const created = reviews.hold({ path: "/p/new.txt", displayPath: "new.txt", oldText: undefined, newText: "hello\n" });
  assert.equal(review()?.isNewFile, true);
  await reviews.decideAll(review()!.id, "accepted");
  assert.deepEqual((await created)._meta?.["hermes/review"], { accepted: 1, rejected: 0, hunks: [{ accepted: true, line: 1, removed: [], added: ["hello"] }] });
  assert.deepEqual(writes.at(-1), { path: "/p/new.txt", text: "hello\n", isNew: true });

  assert.deepEqual(await reviews.hold({ path: "/p/same.txt", displayPath: "same.txt", oldText: "x\n", newText: "x\n" }), {});
  assert.equal(store.state.items.filter((i) => i.kind === "review").length, 1, "no card for a no-op write");

  const held = reviews.hold({ path: "/p/a.txt", displayPath: "a.txt", oldText: twelve, newText: changed });
  const id = review()!.id;
  reviews.cancelAll();
  await assert.rejects(held, /cancelled/);
  const item = store.state.items[store.state.index[id]];
  assert.ok(item.kind === "review");
  assert.equal(item.status, "cancelled");
  await reviews.decide(id, 0, "accepted");
  assert.equal(writes.length, 1, "a decision after the cancel changes nothing");
});

test("prompt blocks: text first, mentions as links, selections and the active file embedded, images by capability", async () => {
  const built = await buildPrompt(
    "fix it",
    [
      { kind: "file", id: "1", uri: "file:///p/a.ts", name: "a.ts" },
      { kind: "selection", id: "2", uri: "file:///p/b.ts", name: "b.ts:3-4", text: "x()", startLine: 3, endLine: 4 },
      { kind: "file", id: "3", uri: "file:///p/c.md", name: "c.md", embed: true },
      { kind: "image", id: "4", name: "shot.png", mimeType: "image/png", data: "AAAA" },
    ],
    { promptCapabilities: { embeddedContext: true, image: false }, readText: async () => "# C" },
  );
  assert.deepEqual(built.blocks, [
    { type: "text", text: "fix it" },
    { type: "resource_link", uri: "file:///p/a.ts", name: "a.ts" },
    { type: "resource", resource: { uri: "file:///p/b.ts#L3-4", text: "x()", mimeType: "text/x-typescript" } },
    { type: "resource", resource: { uri: "file:///p/c.md", text: "# C", mimeType: "text/markdown" } },
  ]);
  assert.equal(built.skipped.length, 1, "the image is named in a notice instead");
  assert.ok(isCommandPrompt("/usage", [{ name: "usage" }]));
  assert.ok(!isCommandPrompt("/usages", [{ name: "usage" }]));
  assert.ok(!isCommandPrompt("see /usage", [{ name: "usage" }]));
});

test("parseMessage accepts good messages and rejects bad ones", () => {
  assert.ok(parseMessage(panelToHost, { type: "prompt", text: "hi" }).ok);
  assert.ok(parseMessage(panelToHost, { type: "reviewHunk", id: "review-1", hunk: 0, decision: "accepted" }).ok);
  assert.ok(parseMessage(panelToHost, { type: "showTerminal", terminalId: "term-1" }).ok);
  const bad = [
    null,
    "prompt",
    { type: "nope" },
    { type: "prompt" },
    { type: "prompt", text: 5 },
    { type: "reviewHunk", id: "r", hunk: -1, decision: "accepted" },
    { type: "reviewHunk", id: "r", hunk: 0, decision: "maybe" },
    { type: "permission", id: "", optionId: "x" },
    { type: "pasteImage", mimeType: "text/html", data: "x", name: "a" },
    { type: "showTerminal" },
    { type: "showTerminal", terminalId: "" },
  ];
  for (const message of bad) {
    const result = parseMessage(panelToHost, message);
    assert.equal(result.ok, false, JSON.stringify(message));
    if (!result.ok) assert.ok(result.error.length > 0);
  }
  assert.ok(parseMessage(hostToPanel, { type: "actions", actions: [{ type: "turnStarted", at: 1 }] }).ok);
  assert.equal(parseMessage(hostToPanel, { type: "actions", actions: [{ type: "explode" }] }).ok, false);
  const terminalActions = [
    { type: "terminalOutput", terminalId: "term-1", text: "hi\n" },
    { type: "terminalExited", terminalId: "term-1", exitCode: 0, signal: null },
  ];
  assert.ok(parseMessage(hostToPanel, { type: "actions", actions: terminalActions }).ok);
});

test("a permission card carries what the agent showed with the question (command, reasons, diff)", () => {
  const content: acp.ToolCallContent[] = [
    { type: "content", content: text("```sh\nrm -rf build\n```\nNeeds approval: recursive delete.") },
    { type: "diff", path: "/w/a.txt", oldText: "a\n", newText: "b\n" },
  ];
  const state = apply([
    { type: "sessionOpened", sessionId: "s1", loading: false },
    { type: "permissionRequested", id: "p1", toolCall: { toolCallId: "t1", title: "$ rm -rf build", content }, options: [{ optionId: "y", name: "Allow once", kind: "allow_once" }] },
  ]);
  const card = state.items.find((item) => item.kind === "permission");
  assert.ok(card && card.kind === "permission");
  assert.deepEqual(card.content, content);
  assert.equal(card.title, "$ rm -rf build");
});

test("errors shown to the user carry no protocol jargon", async () => {
  const { userMessage } = await import("../../extension/log");
  assert.equal(userMessage(new Error("ACP connection closed")), "The agent stopped unexpectedly (its connection closed).");
  assert.equal(userMessage(new Error("Session not found")), "Session not found");
  assert.doesNotMatch(userMessage(new Error("ACP request failed")), /\bACP\b/);
});
