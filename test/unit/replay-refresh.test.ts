// The process running a chat brings its replay cache up to date once the session is idle after a
// turn (acp/replay-send.ts), never while a turn runs: when the idle timer fires during a turn
// (a prompt that came after the previous turn's end), it leaves the journal alone and the next
// turn's end schedules it again. Nor for a child agent's session, one this process does not own,
// or a closed one.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { LiveSession } from "../../acp-server/runtime/live-session";
import { refreshReplayCacheWhenIdle } from "../../acp-server/acp/replay-send";
import type { SessionStore } from "../../acp-server/sessions/session-store";
import { recordingLogger } from "../support/session-fixtures";

/** The refresh timer is unref'd (an exit does not wait for it): keep the test's event loop alive meanwhile. */
async function whileAlive<T>(pending: Promise<T>): Promise<T> {
  const alive = setInterval(() => {}, 60_000);
  try {
    return await pending;
  } finally {
    clearInterval(alive);
  }
}

/** A session whose state the test sets, and that says when the idle timer looked at it. */
function fakeSession(state: { busy: boolean; depth?: number; closed?: boolean }, id = "s1") {
  let looked: () => void = () => {};
  const session = {
    id,
    agent: { depth: state.depth ?? 0 },
    get busy() {
      looked();
      return state.busy;
    },
    get isClosed() {
      return state.closed ?? false;
    },
  };
  return { session: session as unknown as LiveSession, nextLook: () => new Promise<void>((resolve) => (looked = resolve)) };
}

/** A store that records whether the refresh read the journal (its first step), and says when. */
function fakeStore(owns = true) {
  const reads: string[] = [];
  let read: () => void = () => {};
  const store = {
    owns: () => owns,
    journalSize: async (id: string) => {
      reads.push(id);
      read();
      return undefined; // no journal: the refresh stops there
    },
  };
  return { store: store as unknown as SessionStore, reads, nextRead: () => new Promise<void>((resolve) => (read = resolve)) };
}

test("while the session is busy the idle refresh does nothing; after the next turn it runs", async () => {
  const state = { busy: true };
  const { session, nextLook } = fakeSession(state);
  const { store, reads, nextRead } = fakeStore();
  // The timer fired: it either looked and found a turn running, or (wrongly) read the journal.
  const fired = Promise.race([nextLook(), nextRead()]);
  refreshReplayCacheWhenIdle(session, store, recordingLogger(), 0);
  await whileAlive(fired);
  await Promise.resolve();
  assert.deepEqual(reads, [], "no journal read during a turn");

  state.busy = false;
  const read = nextRead();
  refreshReplayCacheWhenIdle(session, store, recordingLogger(), 0); // the next turn's end
  await whileAlive(read);
  assert.deepEqual(reads, ["s1"]);
});

test("a child agent's session is never refreshed; nor one this process does not own", async () => {
  // The child's would fire first (same delay, scheduled first), so the top-level read proves it never came.
  const child = fakeSession({ busy: false, depth: 1 }, "child");
  const top = fakeSession({ busy: false }, "top");
  const { store, reads, nextRead } = fakeStore();
  const read = nextRead();
  refreshReplayCacheWhenIdle(child.session, store, recordingLogger(), 0);
  refreshReplayCacheWhenIdle(top.session, store, recordingLogger(), 0);
  await whileAlive(read);
  assert.deepEqual(reads, ["top"]);

  const followed = fakeSession({ busy: false });
  const notOwned = fakeStore(false);
  const seen = Promise.race([followed.nextLook(), notOwned.nextRead()]);
  refreshReplayCacheWhenIdle(followed.session, notOwned.store, recordingLogger(), 0);
  await whileAlive(seen);
  await Promise.resolve();
  assert.deepEqual(notOwned.reads, [], "a session another process writes is left to it");
});
