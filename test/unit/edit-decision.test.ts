// One decision per edit, as the host runs it: an edit's permission request that Hermes marked
// (`_meta["hermes/partialAccept"]`) becomes one card with its hunks; deciding them answers the
// agent, and the write that follows applies only the accepted hunks without asking again, its
// answer saying which landed. Plus the server's side: the text the model reads about it.
import type * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { test } from "node:test";
import { reviewOutcome } from "../../acp-server/acp/client-files";
import { ChatStore } from "../../extension/chat-store";
import { computeHunks, hunkAtLine } from "../../extension/diff-hunks";
import { EditReviews, firstChangedLine, type HeldEdit } from "../../extension/edit-review";
import { PermissionBroker } from "../../extension/permissions";
import { embeddedDecision } from "../../common/panel-state/reducer";
import type { PermissionItem } from "../../common/panel-state/types";

const OPTIONS: acp.PermissionOption[] = [
  { optionId: "allow_once", name: "Allow once", kind: "allow_once" },
  { optionId: "allow_session", name: "Allow edits like this for this session", kind: "allow_always" },
  { optionId: "reject_once", name: "Reject", kind: "reject_once" },
];
const twelve = Array.from({ length: 12 }, (_, i) => `l${i + 1}\n`).join("");
const changed = twelve.replace("l1\n", "L1\n").replace("l12\n", "L12\n");
const FILE = "/p/a.txt";

function setup(perHunk = true) {
  const store = new ChatStore();
  const writes: { path: string; text: string; isNew: boolean }[] = [];
  const landed: HeldEdit[] = [];
  const reviews = new EditReviews(
    (a) => store.dispatch(a),
    async (path, text, isNew) => void writes.push({ path, text, isNew }),
    (edit) => landed.push(edit),
  );
  const broker = new PermissionBroker((a) => store.dispatch(a), async () => undefined, () => true, {
    perHunk: () => perHunk,
    decided: (edit) => reviews.approve(edit),
  });
  // The agent announces the tool call before it asks.
  store.dispatch({ type: "update", update: { sessionUpdate: "tool_call", toolCallId: "t1", title: "Edit a.txt", kind: "edit", status: "pending" } });
  const ask = (meta: Record<string, unknown> | null = { "hermes/partialAccept": true }, oldText: string | null = twelve, newText = changed) =>
    broker.request({
      sessionId: "s",
      toolCall: { toolCallId: "t1", title: "Edit a.txt", kind: "edit", content: [{ type: "diff", path: FILE, oldText, newText }] },
      options: OPTIONS,
      ...(meta ? { _meta: meta } : {}),
    });
  const card = () => store.state.items.find((i): i is PermissionItem => i.kind === "permission")!;
  const cards = () => store.state.items.filter((i) => i.kind === "permission" || i.kind === "review");
  return { store, writes, landed, reviews, broker, ask, card, cards };
}

test("one card: accepting one hunk of two answers allow, and the write applies only that hunk", async () => {
  const { store, writes, landed, reviews, broker, ask, card, cards } = setup();
  const answer = ask();
  const asked = card();
  assert.equal(asked.hunks?.length, 2, "the card carries the edit's hunks");
  assert.equal(asked.embedded, true, "it shows inside the edit's tool card");
  assert.equal(embeddedDecision(store.state, "t1")?.id, asked.id);

  assert.ok(broker.decideHunk(asked.id, 0, "accepted"));
  assert.equal(card().outcome, undefined, "a hunk left undecided keeps the card waiting");
  assert.ok(broker.decideHunk(asked.id, 1, "rejected"));
  assert.deepEqual(await answer, { outcome: { outcome: "selected", optionId: "allow_once" } });
  assert.deepEqual(card().hunks?.map((h) => h.decision), ["accepted", "rejected"]);

  // The write that follows: no second card, only the accepted hunk lands, the answer says which.
  const written = await reviews.hold({ path: FILE, displayPath: "a.txt", oldText: twelve, newText: changed });
  assert.equal(cards().length, 1, "no review card after the permission card");
  assert.deepEqual(writes, [{ path: FILE, text: twelve.replace("l1\n", "L1\n"), isNew: false }]);
  assert.deepEqual(written._meta?.["hermes/review"], {
    accepted: 1,
    rejected: 1,
    hunks: [
      { accepted: true, line: 1, removed: ["l1"], added: ["L1"] },
      { accepted: false, line: 12, removed: ["l12"], added: ["L12"] },
    ],
  });
  // "Open diff" afterwards compares with what landed.
  assert.equal(reviews.get(asked.id)?.landedText, twelve.replace("l1\n", "L1\n"));
  assert.deepEqual(landed.map((e) => [e.accepted, e.total]), [[1, 2]]);

  // The model reads which change was written and which was not.
  const note = reviewOutcome(written._meta)?.note ?? "";
  assert.match(note, /accepted 1 of 2 hunks/);
  assert.match(note, /Written: the change at line 1 \(-"l1" \+"L1"\)/);
  assert.match(note, /Not written \(rejected by the user\): the change at line 12 \(-"l12" \+"L12"\)/);
  assert.match(note, /Read the file again/);
  store.dispose();
});

test("reject all, or every hunk rejected one by one: the agent gets a rejection and nothing is written", async () => {
  const { writes, broker, ask, card, store } = setup();
  const first = ask();
  assert.ok(broker.decideHunk(card().id, 0, "rejected"));
  assert.ok(broker.decideHunk(card().id, 1, "rejected"));
  assert.deepEqual(await first, { outcome: { outcome: "selected", optionId: "reject_once" } });
  const tool = store.state.items.find((i) => i.kind === "tool");
  assert.equal(tool?.kind === "tool" && tool.rejected, true, "the tool card reads Rejected by you");

  const second = ask();
  const id = store.state.items.filter((i): i is PermissionItem => i.kind === "permission")[1]!.id;
  assert.ok(broker.answerKind(id, "reject_once"));
  assert.deepEqual(await second, { outcome: { outcome: "selected", optionId: "reject_once" } });
  assert.equal(writes.length, 0);
  store.dispose();
});

test("an allow accepts the undecided hunks; a rejection with words keeps them for the model", async () => {
  const { writes, reviews, broker, ask, card, store } = setup();
  const answer = ask();
  broker.decideHunk(card().id, 1, "rejected");
  assert.ok(broker.answer(card().id, "allow_session"));
  assert.deepEqual(await answer, { outcome: { outcome: "selected", optionId: "allow_session" } });
  assert.deepEqual(card().hunks?.map((h) => h.decision), ["accepted", "rejected"]);
  await reviews.hold({ path: FILE, displayPath: "a.txt", oldText: twelve, newText: changed });
  assert.equal(writes[0]?.text, twelve.replace("l1\n", "L1\n"));

  const reasoned = ask();
  const id = store.state.items.filter((i): i is PermissionItem => i.kind === "permission")[1]!.id;
  broker.answer(id, "reject_once", "rename it instead");
  assert.deepEqual(await reasoned, { outcome: { outcome: "selected", optionId: "reject_once" }, _meta: { "hermes/reason": "rename it instead" } });
  store.dispose();
});

test("fails closed: a write that is not the text decided on is held for review; unmarked requests are plain cards", async () => {
  const { writes, reviews, broker, ask, card, cards, store } = setup();
  const answer = ask();
  broker.decideHunk(card().id, 0, "accepted");
  broker.decideHunk(card().id, 1, "rejected");
  await answer;
  // The file changed meanwhile: what arrives is not what the user decided on.
  const held = reviews.hold({ path: FILE, displayPath: "a.txt", oldText: twelve.replace("l6\n", "edited\n"), newText: changed });
  assert.equal(cards().filter((i) => i.kind === "review").length, 1, "reviewed again instead of applying old decisions");
  assert.equal(writes.length, 0);
  reviews.cancelAll();
  await assert.rejects(held, /cancelled/);

  // Not marked by the agent (another agent, or a preview that is not the write): no hunks.
  void ask(null);
  const plain = store.state.items.filter((i): i is PermissionItem => i.kind === "permission").at(-1)!;
  assert.equal(plain.hunks, undefined);
  assert.equal(broker.decideHunk(plain.id, 0, "accepted"), false);
  broker.cancelAll();
  store.dispose();
});

test("per-hunk review off: the edit's card is a plain permission card", async () => {
  const { broker, ask, card, store } = setup(false);
  const answer = ask();
  assert.equal(card().hunks, undefined);
  broker.answer(card().id, "allow_once");
  await answer;
  store.dispose();
});

test("a new file is one hunk; accepted, it is created without a second card", async () => {
  const { writes, reviews, broker, ask, card, cards, store } = setup();
  const created = ask({ "hermes/partialAccept": true }, null, "hello\n");
  assert.equal(card().hunks?.length, 1);
  assert.ok(broker.answerKind(card().id, "allow_once"));
  await created;
  const result = await reviews.hold({ path: FILE, displayPath: "a.txt", oldText: undefined, newText: "hello\n" });
  assert.deepEqual(writes, [{ path: FILE, text: "hello\n", isNew: true }]);
  assert.deepEqual(result._meta?.["hermes/review"], { accepted: 1, rejected: 0, hunks: [{ accepted: true, line: 1, removed: [], added: ["hello"] }] });
  assert.equal(reviewOutcome(result._meta), undefined, "all of it landed: nothing more to tell");
  assert.equal(cards().length, 1);
  store.dispose();
});

test("hunk at a line of either side of the diff editor; where a hunk's change starts", () => {
  const hunks = computeHunks(twelve, changed);
  assert.equal(hunks.length, 2);
  assert.equal(hunkAtLine(hunks, 1, "new"), 0);
  assert.equal(hunkAtLine(hunks, 4, "old"), 0, "context lines belong to their hunk");
  assert.equal(hunkAtLine(hunks, 6, "old"), undefined, "between hunks");
  assert.equal(hunkAtLine(hunks, 12, "new"), 1);
  assert.deepEqual(hunks.map(firstChangedLine), [1, 12]);
  const inserted = computeHunks("a\nb\n", "a\nnew\nb\n");
  assert.equal(firstChangedLine(inserted[0]!), 2);
});

test("the review note: bounded client input, nothing when all landed or the meta is not a review", () => {
  assert.equal(reviewOutcome({ "hermes/review": { accepted: 2, rejected: 0 } }), undefined);
  assert.equal(reviewOutcome({ "hermes/review": { accepted: "1", rejected: 1 } }), undefined);
  assert.equal(reviewOutcome(undefined), undefined);
  assert.match(reviewOutcome({ "hermes/review": { accepted: 1, rejected: 1 } })?.note ?? "", /accepted 1 of 2 hunks/);
  const long = "x".repeat(300);
  const note = reviewOutcome({ "hermes/review": { accepted: 0, rejected: 1, hunks: [{ accepted: false, line: 3, removed: [long], added: [] }] } })?.note ?? "";
  assert.match(note, /the change at line 3 \(-"x{120}…"\)/);
  assert.equal(reviewOutcome({ "hermes/review": { accepted: 0, rejected: 1, hunks: [{ accepted: false, line: 0 }] } }), undefined, "a malformed hunk: not trusted");
});

test("an allowed request with several diffs (apply_patch): writes of exactly those texts are not asked again", async () => {
  const { store, writes, reviews, broker, cards } = setup();
  const other = "x\n";
  const asked = broker.request({
    sessionId: "s",
    toolCall: {
      toolCallId: "t1",
      kind: "edit",
      content: [
        { type: "diff", path: FILE, oldText: twelve, newText: changed },
        { type: "diff", path: "/p/b.txt", oldText: null, newText: other },
      ],
    },
    options: OPTIONS,
  });
  const card = store.state.items.find((i): i is PermissionItem => i.kind === "permission")!;
  assert.equal(card.hunks, undefined, "several files: no per-hunk choice in the card");
  broker.answer(card.id, "allow_once");
  await asked;
  await reviews.hold({ path: FILE, displayPath: "a.txt", oldText: twelve, newText: changed });
  await reviews.hold({ path: "/p/b.txt", displayPath: "b.txt", oldText: undefined, newText: other });
  assert.deepEqual(writes.map((w) => [w.path, w.text]), [[FILE, changed], ["/p/b.txt", other]]);
  assert.equal(cards().filter((i) => i.kind === "review").length, 0, "no review card after the allow");
  store.dispose();
});

test("a held write nobody asked about (accept_edits) shows inside its running edit's card", () => {
  const store = new ChatStore();
  const hunk = { oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: [{ op: "-" as const, text: "a" }, { op: "+" as const, text: "b" }], decision: "pending" as const };
  store.dispatch({ type: "update", update: { sessionUpdate: "tool_call", toolCallId: "t9", title: "Edit a.txt", kind: "edit", status: "in_progress", locations: [{ path: FILE }] } });
  store.dispatch({ type: "reviewRequested", review: { id: "review-1", path: FILE, displayPath: "a.txt", isNewFile: false, hunks: [hunk] } });
  const review = embeddedDecision(store.state, "t9");
  assert.equal(review?.kind === "review" && review.id, "review-1");
  // A write of another file (or with no running edit) stays a card of its own.
  store.dispatch({ type: "reviewRequested", review: { id: "review-2", path: "/p/other.txt", displayPath: "other.txt", isNewFile: false, hunks: [hunk] } });
  const other = store.state.items.find((i) => i.kind === "review" && i.id === "review-2");
  assert.equal(other?.kind === "review" && other.embedded, undefined);
  store.dispose();
});
