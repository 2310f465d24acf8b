// The session owner lease in one process: what another holder looks like is written by hand
// (a live foreign process is this test's parent; a dead one is a child that has exited; a
// reused pid is this process with another start identity). Two real processes are in
// test/integration/session-owner.test.ts.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, renameSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { leasePath, readLeaseHolder, SessionLease, SessionNotOwnedError, type LeaseHolder } from "../../acp-server/sessions/session-lease";
import { SessionStore } from "../../acp-server/sessions/session-store";
import { ownStartIdentity, processStartIdentity } from "../../acp-server/util/process-alive";
import { recordingLogger, userMessage } from "../support/session-fixtures";
import { makeTempDirSync } from "../support/temp-dirs";

function writeHolder(dir: string, id: string, holder: Partial<LeaseHolder>): void {
  writeFileSync(leasePath(dir, id), JSON.stringify({ host: hostname(), token: "theirs", at: 1, ...holder }));
}

const deadPid = (): number => spawnSync(process.execPath, ["-e", ""]).pid;

test("a live other holder is followed unless taken over; the old holder's check then fails", () => {
  const dir = makeTempDirSync();
  writeHolder(dir, "s1", { pid: process.ppid, start: processStartIdentity(process.ppid) });
  const followed = SessionLease.claim(dir, "s1");
  assert.equal(followed.owner, false);
  assert.equal(!followed.owner && followed.holder.pid, process.ppid);

  const taken = SessionLease.claim(dir, "s1", { takeOver: true });
  assert.ok(taken.owner);
  assert.equal(taken.lease.held(), true);
  assert.equal(readLeaseHolder(leasePath(dir, "s1"))?.pid, process.pid);

  // Someone takes it back: one fstat tells, and the refusal names the new holder.
  writeFileSync(`${leasePath(dir, "s1")}.new`, JSON.stringify({ pid: process.ppid, host: hostname(), token: "back", at: 2 }));
  renameSync(`${leasePath(dir, "s1")}.new`, leasePath(dir, "s1"));
  assert.equal(taken.lease.held(), false);
  assert.throws(() => taken.lease.assertHeld(), (error: unknown) => error instanceof SessionNotOwnedError && error.lost && error.holder?.pid === process.ppid && /took over session s1/.test(error.message));
  taken.lease.release();
  assert.equal(readLeaseHolder(leasePath(dir, "s1"))?.token, "back", "release never removes another holder's lease");
});

test("stale leases are claimed: a dead pid, or a live pid with another start identity (reused)", () => {
  const dir = makeTempDirSync();
  writeHolder(dir, "dead", { pid: deadPid() });
  assert.equal(SessionLease.claim(dir, "dead").owner, true);
  if (ownStartIdentity() !== undefined) {
    writeHolder(dir, "reused", { pid: process.ppid, start: "1" });
    assert.equal(SessionLease.claim(dir, "reused").owner, true, "the pid runs, but it is not the process that wrote the lease");
  }
  writeFileSync(leasePath(dir, "torn"), '{"pid": 12');
  assert.equal(SessionLease.claim(dir, "torn").owner, true, "an unreadable lease is no owner");
});

test("the store: created sessions are owned; a followed session refuses appends; close releases, delete removes", async () => {
  const home = makeTempDirSync();
  const store = new SessionStore({ home, log: recordingLogger() });
  const dir = path.join(home, "sessions");
  store.create({ id: "mine", cwd: "/tmp", createdAt: 1, source: "test" });
  assert.equal(store.owns("mine"), true);
  store.append("mine", userMessage(0, 1, "hello"));

  store.create({ id: "theirs", cwd: "/tmp", createdAt: 1, source: "test" });
  store.closeSession("theirs");
  assert.equal(existsSync(leasePath(dir, "theirs")), false, "close gives the lease up");
  writeHolder(dir, "theirs", { pid: process.ppid, start: processStartIdentity(process.ppid) });
  assert.equal(store.claim("theirs").owner, false);
  assert.throws(() => store.append("theirs", userMessage(1, 2, "refused")), (error: unknown) => error instanceof SessionNotOwnedError && !error.lost);
  assert.equal((await store.read("theirs"))?.records.length, 1, "nothing was written");

  assert.equal(await store.delete("mine"), true);
  assert.equal(existsSync(leasePath(dir, "mine")), false);
  await store.close();
});
