import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { after, describe, it } from "node:test";
import { killAllProcessGroups, ProcessGroup } from "../../acp-server/util/process-group";

const ROOT = path.resolve(import.meta.dirname, "../..");
const FIXTURE = path.join(ROOT, "test/support/process-group-child.ts");

after(() => killAllProcessGroups());

/**
 * Starts `script` in a group whose members all hold its stdout pipe; resolves once the shell
 * has started the background member. The pipe's end is the event that says they are all gone.
 */
async function groupWithBackgroundMember(script: string): Promise<ProcessGroup> {
  const group = ProcessGroup.spawn("/bin/sh", ["-c", `${script} & echo started; wait`], { stdio: ["ignore", "pipe", "ignore"] });
  let text = "";
  for await (const chunk of group.child.stdout!) {
    text += String(chunk);
    if (text.includes("started")) break;
  }
  return group;
}

/** Resolves when the group's stdout pipe has closed: every member holding it has exited. */
function pipeClosed(group: ProcessGroup): Promise<unknown> {
  return group.child.stdout!.closed ? Promise.resolve() : once(group.child.stdout!, "close");
}

describe("ProcessGroup", { timeout: 30_000 }, () => {
  it("stop() ends the leader and what it started; the group is gone when it resolves", async () => {
    const group = await groupWithBackgroundMember("sleep 1000");
    const closed = pipeClosed(group);
    await group.stop({ graceMs: 5_000 });
    assert.equal(group.child.signalCode, "SIGTERM", "SIGTERM was enough: no escalation");
    assert.equal(group.running(), false);
    await closed;
  });

  it("escalates to SIGKILL when the group ignores SIGTERM", async () => {
    // An ignored signal stays ignored across exec, so the background sleep ignores it too.
    const group = await groupWithBackgroundMember("trap '' TERM; sleep 1000");
    const closed = pipeClosed(group);
    await group.stop({ graceMs: 200 });
    assert.equal(group.child.signalCode, "SIGKILL");
    assert.equal(group.running(), false);
    await closed;
  });

  it("endStdin lets a leader that exits on end of input go by itself", async () => {
    const group = ProcessGroup.spawn(process.execPath, ["-e", "process.stdin.resume(); process.stdin.on('end', () => process.exit(7))"], { stdio: ["pipe", "ignore", "ignore"] });
    await once(group.child, "spawn");
    await group.stop({ graceMs: 10_000, endStdin: true });
    assert.equal(group.child.exitCode, 7, "it was not signalled");
    assert.equal(group.running(), false);
  });

  it("stop() is idempotent and concurrent stops share one; kill() after it is harmless", async () => {
    const group = await groupWithBackgroundMember("sleep 1000");
    const first = group.stop({ graceMs: 5_000 });
    assert.equal(group.stop({ graceMs: 1 }), first);
    await first;
    await group.stop({ graceMs: 5_000 });
    group.kill();
    assert.equal(group.running(), false);
  });

  it("kill() SIGKILLs the whole group at once", async () => {
    const group = await groupWithBackgroundMember("sleep 1000");
    const closed = pipeClosed(group);
    const exited = once(group.child, "exit");
    group.kill();
    assert.deepEqual(await exited, [null, "SIGKILL"]);
    await closed;
  });

  it("a program that cannot start is the child's error event; stopping it is a no-op", async () => {
    const group = ProcessGroup.spawn("/nonexistent/program-xyz", []);
    const [error] = (await once(group.child, "error")) as [NodeJS.ErrnoException];
    assert.equal(error.code, "ENOENT");
    await group.leaderExited;
    assert.equal(group.pid, undefined);
    assert.equal(group.running(), false);
    await group.stop({ graceMs: 100 });
  });
});

describe("groups die with Hermes", { timeout: 30_000 }, () => {
  /**
   * Runs the fixture; resolves with its exit once its stdout closed. Its group's members hold
   * that pipe too, so a member that survived would keep it open and fail the test by timeout.
   */
  async function fixture(mode: string, afterReady: (child: ReturnType<typeof spawn>) => void) {
    const child = spawn(process.execPath, ["--import", "tsx", FIXTURE, mode], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
    let text = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      const first = !/ready \d+/.test(text);
      text += chunk;
      if (first && /ready \d+/.test(text)) afterReady(child);
    });
    const exit = once(child, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
    await once(child.stdout, "close");
    const pgid = Number(/ready (\d+)/.exec(text)?.[1]);
    assert.ok(pgid > 0, `the fixture started a group: ${text}`);
    // The pipe closed, so no member is left running (zombies may linger: PID 1 reaps orphans,
    // and in some containers never does).
    return exit;
  }

  it("process.exit() kills every group", async () => {
    assert.deepEqual(await fixture("exit", () => {}), [0, null]);
  });

  it("a fatal signal nobody handles kills the groups, then still ends the process as that signal", async () => {
    assert.deepEqual(await fixture("signal", (child) => child.kill("SIGTERM")), [null, "SIGTERM"]);
  });

  it("a signal the process handles itself is left to its handler, whose exit kills the groups", async () => {
    assert.deepEqual(await fixture("handled", (child) => child.kill("SIGTERM")), [3, null]);
  });
});
