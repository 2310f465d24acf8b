import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { realpath } from "node:fs/promises";
import path from "node:path";
import { after, describe, it } from "node:test";
import type { RunningCommand } from "../../acp-server/tools/context";
import { LocalShellRunner } from "../../acp-server/tools/local-shell";
import { killAllProcessGroups } from "../../acp-server/util/process-group";
import { tempDir } from "../support/tool-context";
import { commandOutputMatching } from "../support/wait";

const runner = new LocalShellRunner();
const started: RunningCommand[] = [];

async function run(command: string, options: { cwd?: string; outputLimit?: number; env?: Record<string, string> } = {}) {
  const handle = await runner.start(command, {
    cwd: options.cwd ?? process.cwd(),
    outputLimit: options.outputLimit ?? 10_000,
    env: options.env,
  });
  started.push(handle);
  return handle;
}

/** Resolves with the output once `pattern` appears in it (the command is ready). */
const outputMatching = commandOutputMatching;

/**
 * Members of a process group that are still running. Zombies are ignored: once killed,
 * orphans are reaped by PID 1 on its own schedule, which is outside our control.
 */
function liveGroupMembers(pgid: number): number[] {
  try {
    process.kill(-pgid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return [];
  }
  if (process.platform !== "linux") return [pgid];
  const members: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(path.join("/proc", entry, "stat"), "utf8");
      // Fields after "(comm)": state, ppid, pgrp, ...
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(pgrp) === pgid && state !== "Z") members.push(Number(entry));
    } catch {
      // The process exited while we looked.
    }
  }
  return members;
}

/** Polls /proc: a process group's members are not our children, so their exit sends us no event. */
async function waitForGroupGone(pgid: number, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (liveGroupMembers(pgid).length > 0) {
    if (Date.now() > deadline) assert.fail(`process group ${pgid} still has live members: ${liveGroupMembers(pgid)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

after(async () => {
  // Safety net: no test may leave processes behind, even when it failed midway.
  for (const handle of started) await handle.release();
  killAllProcessGroups();
});

describe("LocalShellRunner", () => {
  it("reports output and a zero exit code", async () => {
    const handle = await run("echo hello");
    assert.deepEqual(await handle.waitForExit(), { code: 0, signal: null });
    const output = await handle.output();
    assert.equal(output.text, "hello\n");
    assert.equal(output.truncated, false);
    assert.deepEqual(output.exit, { code: 0, signal: null });
  });

  it("reports a non-zero exit code", async () => {
    const handle = await run("echo failing; exit 3");
    assert.deepEqual(await handle.waitForExit(), { code: 3, signal: null });
    assert.equal((await handle.output()).text, "failing\n");
  });

  it("merges stdout and stderr in order of arrival", async () => {
    const handle = await run("echo one; sleep 0.1; echo two >&2; sleep 0.1; echo three");
    await handle.waitForExit();
    assert.equal((await handle.output()).text, "one\ntwo\nthree\n");
  });

  it("streams chunks and keeps multi-byte characters split across writes intact", async () => {
    const handle = await run("printf '\\342\\202'; sleep 0.1; printf '\\254 done\\n'");
    const chunks: string[] = [];
    handle.onOutput?.((chunk) => chunks.push(chunk));
    await handle.waitForExit();
    assert.equal(chunks.join(""), "€ done\n");
    assert.ok(!chunks.join("").includes("\uFFFD"));
    assert.equal((await handle.output()).text, "€ done\n");
  });

  it("stops streaming to unsubscribed listeners", async () => {
    const handle = await run("echo a; sleep 0.2; echo b");
    const chunks: string[] = [];
    const unsubscribe = handle.onOutput!((chunk) => chunks.push(chunk));
    await outputMatching(handle, /a\n/);
    unsubscribe();
    await handle.waitForExit();
    assert.equal(chunks.join(""), "a\n");
    assert.equal((await handle.output()).text, "a\nb\n");
  });

  it("runs in the given cwd with extra env and non-interactive defaults", async () => {
    const dir = await tempDir();
    const handle = await run('pwd; echo "$HERMES_TEST_VAR $PAGER $GIT_PAGER"', { cwd: dir, env: { HERMES_TEST_VAR: "set" } });
    await handle.waitForExit();
    assert.equal((await handle.output()).text, `${await realpath(dir)}\nset cat cat\n`);
  });

  it("rejects start() with a clear error when the cwd does not exist", async () => {
    await assert.rejects(
      runner.start("echo hi", { cwd: "/definitely/not/here", outputLimit: 100 }),
      /Working directory does not exist: \/definitely\/not\/here/,
    );
  });

  it("caps output, keeping head and tail", async () => {
    const handle = await run("echo START; head -c 100000 /dev/zero | tr '\\0' x; echo; echo END", { outputLimit: 1000 });
    await handle.waitForExit();
    const output = await handle.output();
    assert.equal(output.truncated, true);
    assert.ok(output.text.startsWith("START\n"));
    // The tail's first "word" (a run of x that began before the cut) goes with the middle:
    // a cut never shows part of a token.
    assert.ok(output.text.endsWith("\nEND\n"));
    assert.match(output.text, /\[\.\.\. \d+ bytes omitted \.\.\.\]\n\nEND\n$/);
    assert.ok(output.text.length < 1100);
  });

  it("kill() terminates the whole process group, grandchildren included", async () => {
    // The line comes after both sleeps are forked: once it is out, they are in the group.
    const handle = await run("sleep 30 & sleep 30 & echo pgid=$$; wait");
    const pgid = Number(/pgid=(\d+)/.exec(await outputMatching(handle, /pgid=\d+/))?.[1]);
    assert.ok(liveGroupMembers(pgid).length >= 2, "shell and sleeps are running");
    await handle.kill();
    const status = await handle.waitForExit();
    assert.equal(status.code, null);
    assert.equal(status.signal, "SIGTERM");
    await waitForGroupGone(pgid);
  });

  it("escalates to SIGKILL when SIGTERM is ignored", async () => {
    const handle = await run("trap '' TERM; echo pgid=$$; sleep 30; echo survived");
    const pgid = Number(/pgid=(\d+)/.exec(await outputMatching(handle, /pgid=\d+/))?.[1]);
    await handle.kill();
    assert.equal((await handle.waitForExit()).signal, "SIGKILL");
    await waitForGroupGone(pgid);
    assert.ok(!(await handle.output()).text.includes("survived"));
  });

  it("kill() and release() are safe after exit and when repeated", async () => {
    const handle = await run("echo done");
    await handle.waitForExit();
    await handle.kill();
    await handle.kill();
    await handle.release();
    await handle.release();
    assert.deepEqual((await handle.output()).exit, { code: 0, signal: null });
  });

  it("reports the exit even when a background grandchild keeps the pipes open, and release() kills it", async () => {
    const handle = await run("echo pgid=$$; sleep 30 & echo started");
    const status = await handle.waitForExit();
    assert.deepEqual(status, { code: 0, signal: null });
    const pgid = Number(/pgid=(\d+)/.exec((await handle.output()).text)?.[1]);
    assert.ok(liveGroupMembers(pgid).length >= 1, "the background sleep outlives the shell");
    await handle.release();
    await waitForGroupGone(pgid);
  });

  it("killAllProcessGroups() SIGKILLs every live group synchronously", async () => {
    const first = await run("echo pgid=$$; sleep 30; wait");
    const second = await run("echo pgid=$$; sleep 30 & sleep 30");
    const pgids = await Promise.all(
      [first, second].map(async (handle) => Number(/pgid=(\d+)/.exec(await outputMatching(handle, /pgid=\d+/))?.[1])),
    );
    killAllProcessGroups();
    assert.equal((await first.waitForExit()).signal, "SIGKILL");
    assert.equal((await second.waitForExit()).signal, "SIGKILL");
    for (const pgid of pgids) await waitForGroupGone(pgid);
  });
});
