import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { after, describe, test } from "node:test";
import { InvalidCursorError, InvalidSessionIdError } from "../../acp-server/sessions/errors";
import { SessionIndex } from "../../acp-server/sessions/session-index";
import { SessionStore } from "../../acp-server/sessions/session-store";
import { loadSqlJs } from "../../acp-server/sessions/sqlite";
import { assistantMessage, recordingLogger, sessionMeta, tempDirs, toolMessage, userMessage } from "../support/session-fixtures";

const dirs = tempDirs();
after(() => dirs.cleanup());

/** The stores' clock: it moves only when a test steps it past the catch-up throttle. */
let clockMs = 1_000_000;
const now = () => clockMs;

function newStore(home = dirs.make()) {
  const log = recordingLogger();
  return { home, log, store: new SessionStore({ home, log, now }) };
}

/** Longer than the store's catch-up throttle (100 ms), so the next query rescans the journals. */
const pastThrottle = () => {
  clockMs += 150;
};

describe("SessionStore", () => {
  test("construction does no I/O; the sessions directory appears on first create", () => {
    const { home, store } = newStore();
    assert.equal(existsSync(path.join(home, "sessions")), false);
    store.create(sessionMeta("a", home, 1));
    assert.equal(existsSync(path.join(home, "sessions", "a.jsonl")), true);
    assert.equal(existsSync(path.join(home, "state.db")), false, "no index work before a query");
  });

  test("list is newest first and pages 50 at a time with nextCursor", async () => {
    const { home, store } = newStore();
    for (let i = 0; i < 120; i++) {
      store.create(sessionMeta(`s${String(i).padStart(3, "0")}`, home, 1_000 + i));
      // Update order differs from creation order: the list follows the last activity.
      store.append(`s${String(i).padStart(3, "0")}`, userMessage(0, 10_000 + ((i * 37) % 120), `hello ${i}`));
    }
    const seen: string[] = [];
    const updated: number[] = [];
    let cursor: string | undefined;
    const pageSizes: number[] = [];
    do {
      const page = await store.list({ cursor, limit: 50 });
      pageSizes.push(page.sessions.length);
      for (const s of page.sessions) {
        seen.push(s.id);
        updated.push(s.updatedAt);
      }
      cursor = page.nextCursor;
    } while (cursor);
    assert.deepEqual(pageSizes, [50, 50, 20]);
    assert.equal(new Set(seen).size, 120);
    assert.deepEqual(updated, [...updated].sort((a, b) => b - a));
    const first = (await store.list({ limit: 1 })).sessions[0];
    assert.equal(first.updatedAt, 10_119);
    assert.equal(first.messageCount, 1);
    await assert.rejects(store.list({ cursor: "not-a-cursor" }), InvalidCursorError);
    await store.close();
  });

  test("a session updated between two pages is listed once, not skipped (the listing keeps its order)", async () => {
    const { home, store } = newStore();
    const ids = Array.from({ length: 60 }, (_, i) => `p${String(i).padStart(3, "0")}`);
    ids.forEach((id, i) => {
      store.create(sessionMeta(id, home, 1_000 + i));
      store.append(id, userMessage(0, 10_000 + i, `hello ${i}`));
    });
    const first = await store.list({ limit: 50 });
    assert.equal(first.sessions.length, 50);
    assert.ok(first.nextCursor);
    // The oldest sessions (due on the second page) become the newest meanwhile: by (updated_at, id)
    // alone they would now sort above the cursor and be on no page the client fetches.
    for (const id of ids.slice(0, 5)) store.append(id, userMessage(1, 50_000, "later"));
    const deleted = ids[7]!;
    await store.delete(deleted);
    const second = await store.list({ cursor: first.nextCursor, limit: 50 });
    const listed = [...first.sessions, ...second.sessions].map((s) => s.id);
    assert.equal(new Set(listed).size, listed.length, "no session listed twice");
    assert.deepEqual(new Set(listed), new Set(ids.filter((id) => id !== deleted)));
    const stamps = [...first.sessions, ...second.sessions].map((s) => s.updatedAt);
    assert.deepEqual(stamps, [...stamps].sort((a, b) => b - a), "one order across the pages");
    assert.equal(second.sessions.find((s) => s.id === ids[0])?.messageCount, 2, "the summary itself is current");
    // A listing started now sees the new order.
    assert.deepEqual((await store.list({ limit: 5 })).sessions.map((s) => s.id).sort(), ids.slice(0, 5));
    await store.close();
  });

  test("the cwd filter compares real paths, so a symlinked directory finds its sessions", async () => {
    const { home, store } = newStore();
    const real = path.join(home, "project");
    const other = path.join(home, "other");
    const link = path.join(home, "link-to-project");
    mkdirSync(real);
    mkdirSync(other);
    symlinkSync(real, link);
    store.create(sessionMeta("via-real", real, 1));
    store.create(sessionMeta("via-link", link, 2));
    store.create(sessionMeta("elsewhere", other, 3));
    const ids = async (cwd: string) => (await store.list({ cwd })).sessions.map((s) => s.id).sort();
    assert.deepEqual(await ids(link), ["via-link", "via-real"]);
    assert.deepEqual(await ids(real), ["via-link", "via-real"]);
    assert.deepEqual(await ids(other), ["elsewhere"]);
    const linked = (await store.list({ cwd: real })).sessions.find((s) => s.id === "via-link");
    assert.equal(linked?.cwd, link, "the cwd is reported as the client gave it");
    await store.close();
  });

  test("search ranks by relevance, one hit per session, with marked snippets", async () => {
    const { home, store } = newStore();
    store.create(sessionMeta("once", home, 1));
    store.append("once", userMessage(0, 10, "the flamingo crossed the road near the lake and then flew away quickly"));
    store.append("once", assistantMessage(1, 11, "noted, nothing else to add about birds here today at all"));
    store.create(sessionMeta("many", home, 2));
    store.append("many", userMessage(0, 5, "flamingo flamingo flamingo: why does the flamingo stand like a flamingo"));
    store.append("many", toolMessage(1, 6, "flamingo facts: pink from food"));
    store.create(sessionMeta("none", home, 3));
    store.append("none", userMessage(0, 20, "penguins only"));
    store.append("many", { t: "update", at: 7, title: "Flamingo questions", titleSource: "user" });

    const hits = await store.search("flamingo");
    assert.deepEqual(hits.map((h) => h.sessionId), ["many", "once"]);
    assert.ok(hits[0].score > hits[1].score);
    assert.equal(hits[0].seq, 0, "the best message of the session");
    assert.equal(hits[0].role, "user");
    assert.equal(hits[0].title, "Flamingo questions");
    assert.match(hits[0].snippet, /\[flamingo\]/);
    assert.match(hits[1].snippet, /the \[flamingo\] crossed/);

    assert.deepEqual((await store.search("flamingo", { excludeSessionId: "many" })).map((h) => h.sessionId), ["once"]);
    assert.deepEqual((await store.search("flamingo", { limit: 1 })).map((h) => h.sessionId), ["many"]);
    assert.deepEqual((await store.search("flamingo lake")).map((h) => h.sessionId), ["once"], "all terms first");
    assert.deepEqual((await store.search("flamingo penguins")).map((h) => h.sessionId).sort(), ["many", "none", "once"], "then any term");
    assert.deepEqual((await store.search("flam*")).map((h) => h.sessionId).sort(), ["many", "once"], "prefix");
    assert.deepEqual(await store.search("giraffe"), []);
    for (const hostile of ['foo"bar', "AND OR (", '"', "*", "NEAR/3 -x", "flamingo)", "NOT flamingo", "'; DROP TABLE sessions; --"]) {
      assert.ok(Array.isArray(await store.search(hostile)), hostile);
    }
    assert.deepEqual((await store.search('flamingo"')).map((h) => h.sessionId), ["many", "once"]);
    await store.close();
  });

  test("messages pages in order or around a message; images appear as [image]", async () => {
    const { home, store } = newStore();
    store.create(sessionMeta("long", home, 1));
    store.append("long", { t: "message", seq: 0, at: 2, tokens: 9, message: { role: "user", content: [{ type: "text", text: "look" }, { type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" }] } });
    store.append("long", { t: "message", seq: 1, at: 3, tokens: 9, message: { role: "assistant", content: "I see", toolCalls: [{ id: "c", name: "read_file", arguments: '{"path":"x.ts"}' }] } });
    for (let seq = 2; seq < 30; seq++) store.append("long", assistantMessage(seq, 10 + seq, `step ${seq}`));
    const start = await store.messages("long", { limit: 2 });
    assert.deepEqual(start.map((m) => m.text), ["look\n[image]", 'I see\n[read_file] {"path":"x.ts"}']);
    assert.deepEqual((await store.messages("long", { offset: 10, limit: 10 })).map((m) => m.seq), [10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);
    assert.deepEqual((await store.messages("long", { aroundSeq: 15, limit: 5 })).map((m) => m.seq), [13, 14, 15, 16, 17]);
    assert.deepEqual((await store.messages("long", { aroundSeq: 1, limit: 5 })).map((m) => m.seq), [0, 1, 2, 3, 4]);
    assert.deepEqual((await store.messages("long", { aroundSeq: 29, limit: 4 })).map((m) => m.seq), [28, 29]);
    assert.equal((await store.summary("long"))?.messageCount, 30);
    assert.equal(await store.summary("nope"), undefined);
    await store.close();
  });

  test("delete removes the session from list, search and disk", async () => {
    const { home, store } = newStore();
    store.create(sessionMeta("keep", home, 1));
    store.append("keep", userMessage(0, 2, "walrus one"));
    store.create(sessionMeta("drop", home, 3));
    store.append("drop", userMessage(0, 4, "walrus two"));
    assert.equal((await store.search("walrus")).length, 2);
    assert.equal(await store.delete("drop"), true);
    assert.equal(existsSync(path.join(home, "sessions", "drop.jsonl")), false);
    assert.deepEqual((await store.list()).sessions.map((s) => s.id), ["keep"]);
    assert.deepEqual((await store.search("walrus")).map((h) => h.sessionId), ["keep"]);
    assert.deepEqual(await store.messages("drop"), []);
    assert.equal(await store.delete("drop"), false);
    await assert.rejects(store.delete("../keep"), InvalidSessionIdError);
    // Deleted from the saved index too: a new store does not resurrect it.
    const { store: reopened } = newStore(home);
    assert.deepEqual((await reopened.search("walrus")).map((h) => h.sessionId), ["keep"]);
    await reopened.close();
    await store.close();
  });

  test("state.db is reloaded as is; only journals that grew are read again, from their offset", async () => {
    const { home, store } = newStore();
    store.create(sessionMeta("cached", home, 1));
    store.append("cached", userMessage(0, 2, "original narwhal words"));
    await store.list();
    await store.close();
    assert.ok(statSync(path.join(home, "state.db")).size > 0);

    // Change the journal behind the index's back, keeping its size and mtime: a store that
    // re-read the journal would now see "replaced"; one that trusts state.db still sees "original".
    const file = path.join(home, "sessions", "cached.jsonl");
    const before = statSync(file);
    writeFileSync(file, readFileSync(file, "utf8").replace("original", "replaced"));
    utimesSync(file, before.atime, before.mtime);

    const second = newStore(home);
    assert.equal((await second.store.search("original")).length, 1);
    assert.equal((await second.store.search("replaced")).length, 0);
    assert.deepEqual(second.log.warnings, [], "state.db was valid");

    // A record appended later (by whoever) is ingested from the stored offset: counted once.
    second.store.append("cached", assistantMessage(1, 3, "appended beluga"));
    pastThrottle();
    assert.equal((await second.store.summary("cached"))?.messageCount, 2);
    assert.equal((await second.store.search("beluga")).length, 1);
    await second.store.close();
  });

  test("an index left without queries is saved and closed; the next query opens it with what was appended meanwhile", async (t) => {
    t.mock.timers.enable({ apis: ["setTimeout"] });
    const home = dirs.make();
    const log = recordingLogger();
    // Idle sooner than a save is due (1.5 s after a change): closing is what saves.
    const store = new SessionStore({ home, log, indexIdleMs: 1_000 });
    store.create(sessionMeta("idle", home, 1));
    store.append("idle", userMessage(0, 2, "first walrus question"));
    assert.equal((await store.search("walrus")).length, 1);
    store.append("idle", assistantMessage(1, 3, "an answer about otters"));
    t.mock.timers.tick(999);
    assert.equal(store.indexState, "open");
    t.mock.timers.tick(1);
    assert.equal(store.indexState, "closed");
    await store.flush(); // waits for the closing's save
    const saved = SessionIndex.open(await loadSqlJs(), readFileSync(path.join(home, "state.db"))).index;
    assert.equal(saved.summary("idle")?.messageCount, 2, "state.db holds both messages, the one fed last included");
    saved.close();

    // While closed, appends go to the journal only; the next query reopens and catches up.
    store.append("idle", userMessage(2, 4, "a follow-up on puffins"));
    assert.equal((await store.search("puffins")).length, 1, "appended while closed, read from the journal");
    assert.equal(store.indexState, "open");
    assert.equal((await store.search("otters")).length, 1);
    assert.equal((await store.summary("idle"))?.messageCount, 3, "each message counted once");
    await store.close();
    assert.deepEqual(log.warnings, []);
  });

  test("a second store on the same home (another process) sees the first one's sessions after catch-up", async () => {
    const home = dirs.make();
    const a = newStore(home).store;
    const b = newStore(home).store;
    assert.deepEqual((await b.list()).sessions, []);
    a.create(sessionMeta("from-a", home, 1));
    a.append("from-a", userMessage(0, 2, "octopus in session a"));
    assert.deepEqual((await a.list()).sessions.map((s) => s.id), ["from-a"], "a sees its own write at once");
    pastThrottle();
    assert.deepEqual((await b.list()).sessions.map((s) => s.id), ["from-a"]);
    a.append("from-a", assistantMessage(1, 3, "more octopus"));
    b.create(sessionMeta("from-b", home, 4));
    pastThrottle();
    assert.equal((await b.summary("from-a"))?.messageCount, 2);
    assert.deepEqual((await a.list()).sessions.map((s) => s.id), ["from-b", "from-a"]);
    assert.equal((await b.search("octopus"))[0]?.sessionId, "from-a");
    await a.close();
    await b.close();
  });

  test("continuing another process's new session here shows up at once, counted once", async () => {
    const home = dirs.make();
    const a = newStore(home).store;
    const b = newStore(home).store;
    await b.list(); // b's index is loaded and has just caught up
    a.create(sessionMeta("shared", home, 1));
    a.append("shared", userMessage(0, 2, "started in a"));
    a.closeSession("shared");
    b.append("shared", assistantMessage(1, 3, "continued in b")); // b's index has not read this journal yet
    const summary = (await b.list()).sessions.find((s) => s.id === "shared"); // no wait for the throttle
    assert.equal(summary?.messageCount, 2);
    assert.equal((await b.search("continued")).length, 1);
    await a.close();
    await b.close();
  });

  test("corrupt journals and a corrupt state.db do not block list", async () => {
    const { home, store, log } = newStore();
    store.create(sessionMeta("good", home, 1));
    store.append("good", userMessage(0, 2, "fine"));
    await store.close();
    writeFileSync(path.join(home, "sessions", "garbage.jsonl"), "\u0000\u0001 not json at all\n{{{\n");
    writeFileSync(path.join(home, "sessions", "torn.jsonl"), '{"t":"meta","v":1,"at":1,"session":{"id":"torn"');
    writeFileSync(path.join(home, "sessions", "not a session id!.jsonl"), "ignored\n");
    writeFileSync(path.join(home, "state.db"), "this is not sqlite");
    const second = newStore(home);
    assert.deepEqual((await second.store.list()).sessions.map((s) => s.id), ["good"]);
    assert.ok(second.log.warnings.some((w) => w.includes("state.db not usable")), second.log.warnings.join("\n"));
    assert.ok(second.log.warnings.some((w) => w.includes("garbage.jsonl:1")), second.log.warnings.join("\n"));
    assert.equal(await second.store.read("garbage"), undefined);
    assert.deepEqual(log.warnings, []);
    await second.store.close();
  });

  test("read returns the journal's records (meta first) and its warnings", async () => {
    const { home, store } = newStore();
    store.create(sessionMeta("r", home, 1));
    store.append("r", userMessage(0, 2, "hi"));
    store.closeSession("r");
    writeFileSync(path.join(home, "sessions", "r.jsonl"), "{broken\n", { flag: "a" });
    store.append("r", assistantMessage(1, 3, "hello")); // reopens the journal
    const stored = await store.read("r");
    assert.equal(stored?.meta.id, "r");
    assert.deepEqual(stored?.records.map((r) => r.t), ["meta", "message", "message"]);
    assert.equal(stored?.warnings.length, 1);
    assert.equal(await store.read("missing"), undefined);
    await assert.rejects(store.read("../../etc/passwd"), InvalidSessionIdError);
    await store.close();
  });
});
