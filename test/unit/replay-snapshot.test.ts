// session/load's cached replay (acp/replay-send.ts, sessions/replay-snapshot.ts): a load after
// the first sends the cached frames and replays only the records after them, and that must be
// exactly what a replay built from the journal sends now. Any change it cannot vouch for (the
// journal edited, cut or grown, the snapshot cut or from other code or rules, a secret value
// registered since, a spill file gone) falls back to the journal.
import type * as acp from "@agentclientprotocol/sdk/unstable";
import assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import path from "node:path";
import { after, afterEach, test } from "node:test";
import { openJournal, restoredFrom } from "../../acp-server/app/load-journal";
import { replayUpdates } from "../../acp-server/acp/replay";
import { refreshReplayCache, sendReplay } from "../../acp-server/acp/replay-send";
import { restoreSession } from "../../acp-server/sessions/history";
import { SessionStore } from "../../acp-server/sessions/session-store";
import type { JournalRecord } from "../../acp-server/sessions/types";
import { clearSecretValues, registerSecretValue } from "../../acp-server/util/secret-values";
import { conversationTurn, recordingLogger, sessionMeta, tempDirs } from "../support/session-fixtures";

const dirs = tempDirs("hermes-replay-snapshot-");
after(() => dirs.cleanup());
afterEach(() => clearSecretValues());

const ID = "snap-session";

/** A home with one session of `turns` turns (well past the size worth caching). */
function makeSession(turns: number, extra: { spill?: string; secret?: string } = {}): { home: string; store: SessionStore; nextTurn: number } {
  const home = dirs.make();
  const store = new SessionStore({ home, log: recordingLogger() });
  store.create(sessionMeta(ID, home, 1));
  for (let turn = 0; turn < turns; turn++) for (const record of conversationTurn(turn, turn * 5, turn === 1 ? extra : {})) store.append(ID, record);
  store.closeSession(ID);
  return { home, store, nextTurn: turns };
}

function appendTurn(store: SessionStore, turn: number, open = false): void {
  const records = conversationTurn(turn, turn * 5);
  for (const record of open ? records.slice(0, -1) : records) store.append(ID, record);
  store.closeSession(ID);
}

/** One session/load's replay in a fresh store (as a new process does): the updates, in order, and the file it left. */
async function load(home: string, options: { turnMayBeRunning?: boolean } = {}): Promise<acp.SessionUpdate[]> {
  const store = new SessionStore({ home, log: recordingLogger() });
  const journal = await openJournal(store, ID);
  assert.ok(journal);
  const updates: acp.SessionUpdate[] = [];
  let text = "";
  const client = { notify: async (_method: string, params: { update: acp.SessionUpdate }) => void updates.push(params.update) } as unknown as acp.AgentContext;
  await sendReplay({ client, sessionId: ID, store, writeFrames: async (data) => void (text += typeof data === "string" ? data : Buffer.from(data).toString("utf8")) }, journal, options);
  for (const line of text.split("\n").filter(Boolean)) {
    const frame = JSON.parse(line) as { method: string; params: { sessionId: string; update: acp.SessionUpdate } };
    assert.equal(frame.method, "session/update");
    assert.equal(frame.params.sessionId, ID);
    updates.push(frame.params.update);
  }
  await store.close(); // waits for the snapshot being written
  return updates;
}

/** What a replay built from the journal as it is now sends. */
async function fromJournal(home: string, options: { turnMayBeRunning?: boolean } = {}): Promise<acp.SessionUpdate[]> {
  const store = new SessionStore({ home, log: recordingLogger() });
  const stored = await store.read(ID);
  assert.ok(stored);
  return [...replayUpdates(stored.records, options)];
}

const snapshotFile = (home: string) => path.join(home, "cache", "replay", `${ID}.ndjson`);

/** Rewrites the cached frames' text (same length, so only the content check can notice): proves a load used them. */
function markSnapshot(home: string, from: string, to: string): void {
  assert.equal(from.length, to.length);
  const data = readFileSync(snapshotFile(home), "utf8");
  const header = data.slice(0, data.indexOf("\n") + 1);
  assert.ok(data.includes(from, header.length));
  writeFileSync(snapshotFile(home), header + data.slice(header.length).replaceAll(from, to));
}

test("the first load caches its frames; the next sends them and equals a replay built from the journal", async () => {
  const { home } = makeSession(60);
  const first = await load(home);
  assert.deepEqual(first, await fromJournal(home));
  assert.ok(existsSync(snapshotFile(home)), "the snapshot is written");
  assert.deepEqual(await load(home), first, "the cached replay is the same");
  // Proof the second came from the cache: text changed in it shows.
  markSnapshot(home, "Reading 1.", "Readinq 1.");
  assert.ok(JSON.stringify(await load(home)).includes("Readinq 1."));
});

test("a journal grown since: the cached frames, then the new records (an open last turn as the options say)", async () => {
  const { home, store, nextTurn } = makeSession(60);
  await load(home);
  appendTurn(store, nextTurn);
  appendTurn(store, nextTurn + 1, true); // its process died mid-turn, or it is still running
  markSnapshot(home, "Reading 2.", "Readinq 2."); // shows that the cache is used
  for (const turnMayBeRunning of [false, true]) {
    const expected = JSON.parse(JSON.stringify(await fromJournal(home, { turnMayBeRunning })).replaceAll("Reading 2.", "Readinq 2.")) as acp.SessionUpdate[];
    assert.deepEqual(await load(home, { turnMayBeRunning }), expected);
  }
});

test("an edited, truncated or replaced journal, a cut or foreign snapshot: replayed from the journal, never the stale frames", async () => {
  const cases: [string, (home: string) => void][] = [
    ["a byte of an early record changed", (home) => editJournal(home, (text) => text.replace("Reading 1.", "Writing 1."))],
    ["the journal cut before the cached part's end", (home) => truncateSync(journalFile(home), Math.floor(readFileSync(journalFile(home)).length / 3))],
    ["the snapshot cut short", (home) => truncateSync(snapshotFile(home), readFileSync(snapshotFile(home)).length - 100)],
    ["the snapshot from other code", (home) => editSnapshotHeader(home, (header) => ({ ...header, code: "0.0.1 elsewhere" }))],
    ["the snapshot from older redaction rules", (home) => editSnapshotHeader(home, (header) => ({ ...header, redaction: (header.redaction as number) - 1 }))],
    ["the snapshot in another format", (home) => editSnapshotHeader(home, (header) => ({ ...header, format: (header.format as number) + 1 }))],
    ["the snapshot of another session", (home) => editSnapshotHeader(home, (header) => ({ ...header, sessionId: "other" }))],
    ["a header that is not JSON", (home) => writeFileSync(snapshotFile(home), `{not json\n${readFileSync(snapshotFile(home), "utf8").split("\n").slice(1).join("\n")}`)],
  ];
  for (const [name, change] of cases) {
    const { home } = makeSession(60);
    await load(home);
    markSnapshot(home, "Reading 5.", "Readinq 5."); // what a wrongly used snapshot would show
    change(home);
    const expected = await fromJournal(home);
    assert.deepEqual(await load(home), expected, name);
    assert.ok(!JSON.stringify(expected).includes("Readinq"), name);
  }
});

test("a secret value registered after the frames were cached never shows: the replay is built and redacted again", async () => {
  const secret = "Tr0ub4dor" + "-zebra-staple-91";
  const { home } = makeSession(60, { secret });
  assert.ok(JSON.stringify(await load(home)).includes(secret), "not a registered value yet: shown as written");
  registerSecretValue(secret); // e.g. the key added to config.yaml since
  const updates = await load(home);
  assert.ok(!JSON.stringify(updates).includes(secret));
  assert.deepEqual(updates, await fromJournal(home));
  assert.ok(!readFileSync(snapshotFile(home), "utf8").includes(secret), "the snapshot written again holds it no more");
});

test("a spill file that went away: its card no longer offers it", async () => {
  const spill = path.join(dirs.make(), "output.txt");
  writeFileSync(spill, "whole output");
  const { home } = makeSession(60, { spill });
  assert.ok(JSON.stringify(await load(home)).includes("hermes/fullOutput"));
  rmSync(spill);
  const updates = await load(home);
  assert.ok(!JSON.stringify(updates).includes("hermes/fullOutput"));
  assert.deepEqual(updates, await fromJournal(home));
});

test("a short session has no snapshot; deleting a session deletes its snapshot", async () => {
  const small = makeSession(2);
  await load(small.home);
  assert.ok(!existsSync(snapshotFile(small.home)));
  const { home, store } = makeSession(60);
  await load(home);
  assert.ok(existsSync(snapshotFile(home)));
  assert.equal(await store.delete(ID), true);
  assert.ok(!existsSync(snapshotFile(home)), "nothing of a deleted session stays");
});

const journalFile = (home: string) => path.join(home, "sessions", `${ID}.jsonl`);

function editJournal(home: string, edit: (text: string) => string): void {
  const text = readFileSync(journalFile(home), "utf8");
  const edited = edit(text);
  assert.notEqual(edited, text);
  writeFileSync(journalFile(home), edited);
}

function editSnapshotHeader(home: string, edit: (header: Record<string, unknown>) => Record<string, unknown>): void {
  const data = readFileSync(snapshotFile(home), "utf8");
  const end = data.indexOf("\n");
  writeFileSync(snapshotFile(home), `${JSON.stringify(edit(JSON.parse(data.slice(0, end)) as Record<string, unknown>))}${data.slice(end)}`);
}

test("a session restored from the cached replay (settings from the cache, history deferred) equals one restored from the journal", async () => {
  const { home, store, nextTurn } = makeSession(60);
  const settingsUpdates = (at: number, title: string): JournalRecord[] => [
    { t: "update", at, title, titleSource: "user", mode: "plan", modelId: "openai/other", toolToggles: { web: false }, systemPrompt: `prompt ${title}`, tokens: at },
    { t: "update", at, permission: { call: { id: `ask-${at}`, requestId: `ask-${at}`, name: "terminal", title: "$ ls", kind: "execute", locations: [], rawInput: { command: "ls" } }, title: "$ ls", action: "command", content: [] } },
  ];
  for (const record of settingsUpdates(5_000, "early")) store.append(ID, record);
  appendTurn(store, nextTurn);
  await load(home); // caches up to the last answer
  for (const record of settingsUpdates(6_000, "late")) store.append(ID, record);
  appendTurn(store, nextTurn + 1);
  store.closeSession(ID);

  const fresh = new SessionStore({ home, log: recordingLogger() });
  const journal = await openJournal(fresh, ID);
  assert.ok(journal?.cached, "opened from the cache");
  const stored = await fresh.read(ID);
  assert.ok(stored);
  const expected = restoreSession(stored.meta, stored.records);
  const { deferred, history, toolCallIds, ...settings } = restoredFrom(journal, journal.meta, fresh, recordingLogger());
  assert.deepEqual(history, [], "nothing parsed before it is needed");
  assert.ok(deferred);
  const { history: expectedHistory, toolCallIds: expectedIds, ...expectedSettings } = expected;
  assert.deepEqual(settings, expectedSettings);
  assert.equal(settings.title, "late");
  assert.equal(settings.contextTokens, 6_000);
  const conversation = deferred();
  assert.deepEqual(conversation.history, expectedHistory);
  assert.deepEqual([...conversation.toolCallIds], expectedIds);
  assert.equal(toolCallIds.length, 0);
  assert.ok(expectedIds.includes("ask-6000"), "a question's card takes its id");
  await fresh.close();
});

test("a journal grown well past its cache: the next load caches anew from the cached frames on, and the one after uses that", async () => {
  const { home, store, nextTurn } = makeSession(60);
  await load(home);
  const coveredBefore = snapshotHeader(home).covered as number;
  markSnapshot(home, "Reading 2.", "Readinq 2."); // carried into the next cache if that is built from this one
  for (let turn = nextTurn; turn < nextTurn + 60; turn++) appendTurn(store, turn);
  const expected = JSON.parse(JSON.stringify(await fromJournal(home)).replaceAll("Reading 2.", "Readinq 2.")) as acp.SessionUpdate[];
  assert.deepEqual(await load(home), expected);
  assert.ok((snapshotHeader(home).covered as number) > coveredBefore + 64 * 1024, "cached anew, further on");
  markSnapshot(home, `Reading ${nextTurn + 5}.`, `Readinq ${nextTurn + 5}.`);
  const again = JSON.parse(JSON.stringify(expected).replaceAll(`Reading ${nextTurn + 5}.`, `Readinq ${nextTurn + 5}.`)) as acp.SessionUpdate[];
  assert.deepEqual(await load(home), again);
});

function snapshotHeader(home: string): Record<string, unknown> {
  const data = readFileSync(snapshotFile(home), "utf8");
  return JSON.parse(data.slice(0, data.indexOf("\n"))) as Record<string, unknown>;
}

test("a cache written by the live process (refreshReplayCache, no client) equals a fresh replay, and the next load is served from it", async () => {
  const { home, store, nextTurn } = makeSession(60);
  // The process that ran the session writes the cache; nobody loaded it.
  const live = new SessionStore({ home, log: recordingLogger() });
  assert.equal(existsSync(snapshotFile(home)), false);
  assert.equal(await refreshReplayCache(live, ID), readFileSync(path.join(home, "sessions", `${ID}.jsonl`)).length);
  assert.ok(existsSync(snapshotFile(home)), "cached without a load");
  const fresh = await fromJournal(home);
  assert.deepEqual(await load(home), fresh, "a load from the live process's cache sends what a replay from the journal does");
  markSnapshot(home, "Reading 1.", "Readinq 1."); // proof the load used it
  assert.ok(JSON.stringify(await load(home)).includes("Readinq 1."));
  markSnapshot(home, "Readinq 1.", "Reading 1.");
  // The session goes on: the live process extends its cache from the cached frames on.
  const coveredBefore = snapshotHeader(home).covered as number;
  for (let turn = nextTurn; turn < nextTurn + 60; turn++) appendTurn(store, turn);
  await refreshReplayCache(live, ID);
  assert.ok((snapshotHeader(home).covered as number) > coveredBefore, "extended");
  assert.deepEqual(await load(home), await fromJournal(home));
  await live.close();
});
