// Issue 32, the panel's side: several chats open at once on one agent process. Two chats run
// their turns at the same time (the scripted model holds both replies until both turns reached
// it), each keeps its own transcript, the one in the background marks its tab and reports that
// it finished; a reload reopens the open chats; a chat opened in a worktree knows its branch.
// The extension's chat logic (chat-tabs.ts, chat-routing.ts) against the real built
// dist/hermes.js.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import type { ChatState } from "../../common/panel-state/types";
import { reopenChats } from "../../extension/chat-tabs";
import { listSessions } from "../../extension/history";
import { memoryLogger } from "../../extension/log";
import { reviewAndApply } from "../../extension/worktree-review";
import { makeTempDir } from "../support/acp-harness";
import { until } from "../support/extension-chat";
import { tabsWith } from "../support/extension-tabs";
import { useScriptedModel, type ScriptedReply } from "../support/scripted-model";

const scripted = useScriptedModel();

function held(reply: ScriptedReply): { reply: ScriptedReply; release: () => void } {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  return { reply: { handler: async () => (await gate, reply) }, release };
}

const userTexts = (state: ChatState) => state.items.flatMap((i) => (i.kind === "user" ? [i.text] : []));
const agentTexts = (state: ChatState) => state.items.flatMap((i) => (i.kind === "agent" ? [i.text] : []));

test("two chats run at once: each its own transcript, the background one marks its tab and reports its end; a reload reopens both", async () => {
  const model = scripted();
  const world = await tabsWith(model.url);
  const { tabs } = world;
  try {
    const a = tabs.active;
    await a.session.newChat();
    const first = held({ text: "answer in A" });
    const second = held({ text: "answer in B" });
    model.enqueue(first.reply, second.reply);
    let before = model.requests.length;
    const turnA = a.session.prompt("question for A");
    await model.waitForRequests(before + 1);

    // A keeps running while B is opened, shown and started.
    const b = tabs.open();
    tabs.show(b.id);
    await b.session.newChat();
    before = model.requests.length;
    const turnB = b.session.prompt("question for B");
    await model.waitForRequests(before + 1);
    assert.notEqual(a.sessionId, b.sessionId);
    assert.deepEqual(tabs.list().map((t) => t.status), ["running", "running"], "both turns run at the same time");
    assert.equal(tabs.active, b);

    // A (in the background) ends first: its tab is marked, and it reports that it finished.
    first.release();
    await turnA;
    await until(a.store, "A's turn to end", () => !a.store.state.turn.running);
    assert.deepEqual(world.background, [{ tab: a.id, event: { kind: "finished", failed: false } }]);
    assert.deepEqual(tabs.list().map((t) => [t.status, t.unseen]), [["idle", true], ["running", false]]);

    // B (shown) ends: no report, it was in sight.
    second.release();
    await turnB;
    await until(b.store, "B's turn to end", () => !b.store.state.turn.running);
    assert.equal(world.background.length, 1);
    assert.deepEqual(userTexts(a.store.state), ["question for A"]);
    assert.deepEqual(agentTexts(a.store.state), ["answer in A"]);
    assert.deepEqual(userTexts(b.store.state), ["question for B"]);
    assert.deepEqual(agentTexts(b.store.state), ["answer in B"]);

    // Showing A clears its mark.
    tabs.show(a.id);
    assert.deepEqual(tabs.list().map((t) => t.unseen), [false, false]);
    const saved = tabs.saved();
    assert.deepEqual(saved, { sessions: [a.sessionId, b.sessionId], active: a.sessionId });

    // A window reload: a fresh set of chats on a fresh agent reopens both, A shown.
    await world.close();
    const again = await tabsWith(model.url, { home: world.home, project: world.project });
    try {
      await reopenChats(again.tabs, saved, memoryLogger());
      assert.deepEqual(again.tabs.all.map((t) => t.sessionId), saved.sessions);
      assert.equal(again.tabs.active.sessionId, a.sessionId);
      const [ra, rb] = again.tabs.all;
      assert.deepEqual(agentTexts(ra!.store.state), ["answer in A"]);
      assert.deepEqual(agentTexts(rb!.store.state), ["answer in B"]);
    } finally {
      await again.close();
    }
  } finally {
    await world.close().catch(() => undefined); // expected: already closed before the reload
  }
});

test("closing a running chat stops its turn; closing the shown one shows its neighbour", async () => {
  const model = scripted();
  const world = await tabsWith(model.url);
  const { tabs } = world;
  try {
    const a = tabs.active;
    await a.session.newChat();
    const b = tabs.open();
    await b.session.newChat();
    const hold = held({ text: "never finished" });
    model.enqueue(hold.reply);
    const before = model.requests.length;
    const turn = b.session.prompt("long task");
    await model.waitForRequests(before + 1);
    await tabs.close(b.id);
    await turn;
    hold.release();
    assert.deepEqual(tabs.all.map((t) => t.id), [a.id]);
    assert.equal(b.store.state.turn.lastStopReason, "cancelled", "its turn was stopped, not left running");
    // Deleting from History a session open in another chat closes that chat first.
    const c = tabs.open();
    await c.session.newChat();
    const deleted = c.sessionId!;
    await tabs.deleteSession(deleted);
    assert.deepEqual(tabs.all.map((t) => t.id), [a.id], "no tab is left on a deleted session");
    const listed = await listSessions((await world.host.connected()).agent, world.project);
    assert.ok(!listed.some((session) => session.sessionId === deleted), "the session is deleted");
    await tabs.close(a.id);
    assert.equal(tabs.all.length, 1, "closing the last chat leaves a new, empty one");
    assert.notEqual(tabs.active.id, a.id);
  } finally {
    await world.close();
  }
});

test("a chat opened in a worktree knows its branch (the agent's answer says so); a plain chat has none", async () => {
  const model = scripted();
  const repo = await makeTempDir("hermes-tabs-repo-");
  const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" } });
  git("init", "-q", "-b", "main");
  writeFileSync(path.join(repo, "a.txt"), "a\n");
  git("add", ".");
  git("commit", "-q", "-m", "start");
  const world = await tabsWith(model.url, { project: repo });
  const { tabs } = world;
  try {
    await tabs.active.session.newChat();
    assert.equal(tabs.active.worktree, undefined);
    const wt = tabs.open();
    tabs.show(wt.id);
    await wt.session.newChat({ "hermes/worktree": { branch: "feature/tabs" } });
    assert.equal(wt.worktree?.branch, "feature/tabs");
    assert.equal(wt.worktree?.repo, repo);
    assert.deepEqual(tabs.list()[1]?.worktree, { branch: "feature/tabs", path: wt.worktree?.path });
  } finally {
    await world.close();
  }
});

async function repositoryWith(files: Record<string, string>): Promise<{ repo: string; git: (...args: string[]) => string }> {
  const repo = await makeTempDir("hermes-tabs-repo-");
  const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, encoding: "utf8", env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" } });
  git("init", "-q", "-b", "main");
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(repo, name), text);
  git("add", ".");
  git("commit", "-q", "-m", "start");
  return { repo, git };
}

const lines = (n: number, change: Record<number, string> = {}) => Array.from({ length: n }, (_, i) => `${change[i + 1] ?? `line ${i + 1}`}\n`).join("");

test("Review & apply: the worktree chat's changes held hunk by hunk; only the accepted hunks reach the main checkout", async () => {
  const model = scripted();
  const { repo, git } = await repositoryWith({ "a.txt": lines(30) });
  const world = await tabsWith(model.url, { project: repo });
  const tab = world.tabs.active;
  try {
    await tab.session.newChat({ "hermes/worktree": true });
    const worktree = tab.worktree!.path;
    // What the chat did in its worktree: two separate changes to a.txt, and a new file.
    writeFileSync(path.join(worktree, "a.txt"), lines(30, { 2: "first change", 28: "second change" }));
    writeFileSync(path.join(worktree, "b.txt"), "new file\n");

    const applying = reviewAndApply(tab, () => world.host.connected());
    const cards = await until(tab.store, "both files held for review", () => {
      const held = tab.store.state.items.filter((i) => i.kind === "review" && i.status === "pending");
      return held.length === 2 ? held : undefined;
    });
    const a = cards.find((c) => c.kind === "review" && c.displayPath === "a.txt");
    const b = cards.find((c) => c.kind === "review" && c.displayPath === "b.txt");
    assert.ok(a?.kind === "review" && b?.kind === "review");
    assert.equal(a.hunks.length, 2, "one hunk per change");
    assert.equal(readFileSync(path.join(repo, "a.txt"), "utf8"), lines(30), "nothing reaches the checkout while files are undecided");
    await tab.reviewsById.decide(a.id, 0, "accepted");
    await tab.reviewsById.decide(a.id, 1, "rejected");
    await tab.reviewsById.decideAll(b.id, "accepted");
    assert.equal(await applying, "applied");

    assert.equal(readFileSync(path.join(repo, "a.txt"), "utf8"), lines(30, { 2: "first change" }), "only the accepted hunk");
    assert.equal(readFileSync(path.join(repo, "b.txt"), "utf8"), "new file\n");
    assert.match(git("status", "--porcelain"), /M a\.txt/, "as uncommitted changes");
    assert.equal(readFileSync(path.join(worktree, "a.txt"), "utf8"), lines(30, { 2: "first change", 28: "second change" }), "the worktree keeps its work");
  } finally {
    await world.close();
  }
});

test("Review & apply refuses, changing nothing, when the checkout has its own changes to the file: the chat says so and keeps it", async () => {
  const model = scripted();
  const { repo } = await repositoryWith({ "a.txt": lines(5) });
  const world = await tabsWith(model.url, { project: repo });
  const tab = world.tabs.active;
  try {
    await tab.session.newChat({ "hermes/worktree": true });
    writeFileSync(path.join(tab.worktree!.path, "a.txt"), lines(5, { 3: "chat's change" }));
    writeFileSync(path.join(repo, "a.txt"), lines(5, { 1: "my own change" }));

    const applying = reviewAndApply(tab, () => world.host.connected());
    const card = await until(tab.store, "a.txt held", () => tab.store.state.items.find((i) => i.kind === "review" && i.status === "pending"));
    await tab.reviewsById.decideAll(card.id, "accepted");
    assert.equal(await applying, "refused");
    assert.equal(readFileSync(path.join(repo, "a.txt"), "utf8"), lines(5, { 1: "my own change" }), "the checkout is untouched");
    const said = await until(tab.store, "the refusal in the chat", () => tab.store.state.items.find((i) => i.kind === "notice" && i.text.includes("Not applied")));
    assert.ok(said.kind === "notice" && said.text.includes(": a.txt."), "it names the file");
    const decided = tab.store.state.items.find((i) => i.id === card.id);
    assert.equal(decided?.kind === "review" ? decided.status : undefined, "cancelled", "its card does not say Applied");

    // Kept in the chat's record: a reload shows it again.
    const sessionId = tab.sessionId!;
    const again = world.tabs.open();
    await again.session.load(sessionId);
    assert.ok(again.store.state.items.some((i) => i.kind === "notice" && i.text.includes("Not applied")), "journaled");
  } finally {
    await world.close();
  }
});

test("Review & apply refuses a file the chat changed again during the review (its hunks would not be the ones decided)", async () => {
  const model = scripted();
  const { repo } = await repositoryWith({ "a.txt": lines(5) });
  const world = await tabsWith(model.url, { project: repo });
  const tab = world.tabs.active;
  try {
    await tab.session.newChat({ "hermes/worktree": true });
    const file = path.join(tab.worktree!.path, "a.txt");
    writeFileSync(file, lines(5, { 3: "first version" }));
    const applying = reviewAndApply(tab, () => world.host.connected());
    const card = await until(tab.store, "a.txt held", () => tab.store.state.items.find((i) => i.kind === "review" && i.status === "pending"));
    writeFileSync(file, lines(5, { 3: "changed during the review" }));
    await tab.reviewsById.decideAll(card.id, "accepted");
    assert.equal(await applying, "refused");
    assert.equal(readFileSync(path.join(repo, "a.txt"), "utf8"), lines(5));
  } finally {
    await world.close();
  }
});
