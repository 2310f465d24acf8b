import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdir, realpath } from "node:fs/promises";
import path from "node:path";
import { after, describe, it } from "node:test";
import type { ExitStatus, RunningCommand, ShellRunner } from "../../acp-server/tools/context";
import { LocalShellRunner } from "../../acp-server/tools/local-shell";
import { killAllProcessGroups } from "../../acp-server/util/process-group";
import { processTool } from "../../acp-server/tools/process";
import { ToolError } from "../../acp-server/tools/registry";
import { terminalTool } from "../../acp-server/tools/terminal";
import { recordingContext, tempDir, type RecordingContext } from "../support/tool-context";
import { commandOutputMatching } from "../support/wait";

const shell = new LocalShellRunner();

type Out = Record<string, unknown>;

function terminal(ctx: RecordingContext, args: Record<string, unknown>) {
  return terminalTool.handler(terminalTool.schema.parse(args), ctx);
}

function processAction(ctx: RecordingContext, args: Record<string, unknown>) {
  return processTool.handler(processTool.schema.parse(args), ctx);
}

/** Live (non-zombie) members of a process group; see local-shell.test.ts. */
function liveGroupMembers(pgid: number): number[] {
  try {
    process.kill(-pgid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return [];
  }
  if (process.platform !== "linux") return [pgid];
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        const stat = readFileSync(path.join("/proc", entry, "stat"), "utf8");
        const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        return Number(pgrp) === pgid && state !== "Z";
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** For process-group states read from /proc: no event reaches us for those, so this polls. */
async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const pgidOf = (text: unknown) => Number(/pgid=(\d+)/.exec(String(text))?.[1]);

after(() => killAllProcessGroups());

describe("terminal tool", () => {
  it("runs a command after asking permission and reports output and exit code", async () => {
    const cwd = await tempDir();
    const ctx = recordingContext({ cwd, shell });
    const result = await terminal(ctx, { command: "echo hello" });
    const output = result.output as Out;
    assert.equal(output.exit_code, 0);
    assert.equal(output.output, "hello\n");
    assert.equal(typeof output.duration_ms, "number");
    assert.ok(!result.isError);
    assert.deepEqual(ctx.asks, [{ action: "execute", title: "$ echo hello", command: "echo hello", paths: [cwd] }]);
    assert.ok(ctx.progressUpdates.some((update) => update.content?.[0]?.type === "text" && update.content[0].text === "```\nhello\n```"));
    assert.deepEqual(result.content, [{ type: "text", text: "```\nhello\n```\nexit code 0" }]);
  });

  it("reports a non-zero exit as a normal result", async () => {
    const ctx = recordingContext({ cwd: await tempDir(), shell });
    const result = await terminal(ctx, { command: "echo oops >&2; exit 2" });
    assert.equal((result.output as Out).exit_code, 2);
    assert.equal((result.output as Out).output, "oops\n");
    assert.ok(!result.isError);
  });

  it("runs in workdir, resolved against the session cwd", async () => {
    const cwd = await tempDir();
    await mkdir(path.join(cwd, "sub"));
    const ctx = recordingContext({ cwd, shell });
    const result = await terminal(ctx, { command: "pwd", workdir: "sub" });
    assert.equal((result.output as Out).output, `${await realpath(path.join(cwd, "sub"))}\n`);
    assert.deepEqual(ctx.asks[0].paths, [path.join(cwd, "sub")]);
  });

  it("does not run the command when permission is denied", async () => {
    const cwd = await tempDir();
    const ctx = recordingContext({ cwd, shell, allow: false });
    const result = await terminal(ctx, { command: "touch marker" });
    assert.equal(result.isError, true);
    assert.deepEqual(result.output, { error: "The user denied running this command" });
    assert.equal(existsSync(path.join(cwd, "marker")), false);
  });

  it("fails clearly when the workdir does not exist", async () => {
    const ctx = recordingContext({ cwd: await tempDir(), shell });
    const result = await terminal(ctx, { command: "echo hi", workdir: "missing" });
    assert.equal(result.isError, true);
    assert.match(String((result.output as Out).error), /Working directory does not exist/);
  });

  it("kills the command on timeout and returns the output so far", async () => {
    const ctx = recordingContext({ cwd: await tempDir(), shell });
    const result = await terminal(ctx, { command: "echo pgid=$$; sleep 5", timeout: 1 });
    const output = result.output as Out;
    assert.equal(result.isError, true);
    assert.equal(output.timed_out, true);
    assert.match(String(output.error), /timed out after 1s/);
    assert.match(String(output.output), /pgid=\d+/);
    await waitFor(() => liveGroupMembers(pgidOf(output.output)).length === 0, "the timed-out group to exit");
  });

  it("kills the command promptly when the turn is cancelled", async () => {
    const controller = new AbortController();
    const ctx = recordingContext({ cwd: await tempDir(), shell, signal: controller.signal });
    const running = terminal(ctx, { command: "echo pgid=$$; sleep 30 & sleep 30; wait" });
    await waitFor(
      () => ctx.progressUpdates.some((update) => update.content?.some((c) => c.type === "text" && /pgid=\d+/.test(c.text))),
      "streamed output",
    );
    controller.abort();
    const result = await running;
    const output = result.output as Out;
    assert.equal(output.cancelled, true);
    assert.equal(result.isError, true);
    await waitFor(() => liveGroupMembers(pgidOf(output.output)).length === 0, "the cancelled group to exit");
  });

  it("keeps the head and tail of very long output and says so", async () => {
    const ctx = recordingContext({ cwd: await tempDir(), shell });
    const result = await terminal(ctx, { command: "echo FIRST; head -c 200000 /dev/zero | tr '\\0' x; echo; echo LAST" });
    const output = result.output as Out;
    const text = String(output.output);
    assert.ok(text.startsWith("FIRST\n") && text.endsWith("LAST\n"));
    assert.ok(text.length < 51_000);
    assert.match(text, /omitted/);
    assert.equal(typeof output.truncated, "string");
  });

  it("shows an editor terminal in the card when the runner provides one, and releases it", async () => {
    let released = 0;
    const handle: RunningCommand = {
      terminalId: "term-7",
      output: async () => ({ text: "done\n", truncated: false, exit: { code: 0, signal: null } }),
      waitForExit: async (): Promise<ExitStatus> => ({ code: 0, signal: null }),
      kill: async () => {},
      release: async () => {
        released++;
      },
    };
    const stub: ShellRunner = { start: async () => handle };
    const ctx = recordingContext({ cwd: await tempDir(), shell: stub });
    const result = await terminal(ctx, { command: "make" });
    assert.deepEqual(ctx.progressUpdates[0], { content: [{ type: "terminal", terminalId: "term-7" }] });
    assert.deepEqual(result.content, [{ type: "terminal", terminalId: "term-7" }]);
    assert.equal((result.output as Out).exit_code, 0);
    assert.equal(released, 1);
  });

  it("trims long titles to one short line", () => {
    const title = terminalTool.title(terminalTool.schema.parse({ command: `echo ${"a".repeat(200)}\necho b` }), "/");
    assert.ok(title.startsWith("$ echo aaa"));
    assert.ok(title.length <= 82 && !title.includes("\n"));
  });
});

describe("terminal background + process tool", () => {
  it("starts a background process that process poll/list/kill manage", async () => {
    const controller = new AbortController();
    const ctx = recordingContext({ cwd: await tempDir(), shell, signal: controller.signal });
    const started = await terminal(ctx, { command: "echo pgid=$$; echo ready; sleep 30", background: true });
    const startedOutput = started.output as Out;
    assert.equal(startedOutput.process_id, "proc_1");
    assert.equal(startedOutput.status, "running");
    assert.ok(ctx.state.processes.has("proc_1"));
    assert.equal(ctx.state.nextProcessNumber, 2);

    // Cancelling the turn must not stop a background process.
    controller.abort();

    // Waits on the process's own output stream, then asks the tool what it shows.
    await commandOutputMatching(ctx.state.processes.get("proc_1")!.handle, /ready/);
    const polled = (await processAction(ctx, { action: "poll", id: "proc_1" })).output as Out;
    assert.match(String(polled.output), /ready/);
    assert.equal(polled.status, "running");
    const pgid = pgidOf(polled.output);
    assert.ok(liveGroupMembers(pgid).length > 0);

    const listed = (await processAction(ctx, { action: "list" })).output as { processes: Out[] };
    assert.equal(listed.processes.length, 1);
    assert.equal(listed.processes[0].id, "proc_1");
    assert.equal(listed.processes[0].status, "running");
    assert.equal(typeof listed.processes[0].uptime_s, "number");

    const killed = (await processAction(ctx, { action: "kill", id: "proc_1" })).output as Out;
    assert.equal(killed.status, "killed");
    assert.match(String(killed.output), /ready/);
    assert.equal(ctx.state.processes.size, 0);
    await waitFor(() => liveGroupMembers(pgid).length === 0, "the killed group to exit");
  });

  it("reports the exit code of a background process that finished", async () => {
    const ctx = recordingContext({ cwd: await tempDir(), shell });
    await terminal(ctx, { command: "echo bye; exit 4", background: true });
    await ctx.state.processes.get("proc_1")!.handle.waitForExit();
    const polled = (await processAction(ctx, { action: "poll", id: "proc_1" })).output as Out;
    assert.equal(polled.status, "exited");
    assert.equal(polled.exit_code, 4);
    assert.equal(polled.output, "bye\n");
    const killed = (await processAction(ctx, { action: "kill", id: "proc_1" })).output as Out;
    assert.equal(killed.status, "exited");
    assert.equal(ctx.state.processes.size, 0);
  });

  it("rejects unknown or missing ids, listing the known ones", async () => {
    const ctx = recordingContext({ cwd: await tempDir(), shell });
    await assert.rejects(processAction(ctx, { action: "poll", id: "proc_9" }), (error: unknown) => {
      assert.ok(error instanceof ToolError);
      assert.match(error.message, /No background process "proc_9"\. There are no background processes/);
      return true;
    });
    await terminal(ctx, { command: "sleep 30", background: true });
    await assert.rejects(processAction(ctx, { action: "kill", id: "proc_9" }), /Known ids: proc_1/);
    await assert.rejects(processAction(ctx, { action: "poll" }), /needs an id/);
    await processAction(ctx, { action: "kill", id: "proc_1" });
    assert.deepEqual((await processAction(ctx, { action: "list" })).output, { processes: [], note: "No background processes." });
  });

  it("titles process calls with the action and id", () => {
    assert.equal(processTool.title({ action: "poll", id: "proc_1" }, "/"), "process poll proc_1");
    assert.equal(processTool.title({ action: "list" }, "/"), "process list");
  });
});

describe("terminal: code planted for the user's git is undone after the command", () => {
  it("removes a hook a command wrote, restores the config it changed, and says so in the result and the card", async () => {
    const cwd = await realpath(await tempDir());
    const git = "git -c user.email=t@t -c user.name=t";
    const ctx = recordingContext({ cwd, shell });
    await terminal(ctx, { command: `git init -q . && ${git} commit -q --allow-empty -m init` });
    const config = readFileSync(path.join(cwd, ".git", "config"), "utf8");
    const result = await terminal(ctx, { command: "printf '#!/bin/sh\\ntouch marker\\n' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit && git config core.fsmonitor 'touch marker; false'" });
    assert.equal(existsSync(path.join(cwd, ".git", "hooks", "pre-commit")), false, "the planted hook is gone");
    assert.equal(readFileSync(path.join(cwd, ".git", "config"), "utf8"), config, "the config is as before");
    assert.match(String((result.output as Out).planted_code), /removed \S+pre-commit/);
    assert.match(String((result.output as Out).planted_code), /restored \S+config \(it set core\.fsmonitor\)/);
    assert.ok(result.content?.some((part) => part.type === "text" && /undid changes/.test(part.text)), "the user sees it in the card");
  });
});

describe("terminal: a background command that keeps planting (race)", () => {
  it("is undone before every later command and when it ends; git runs nothing planted", async () => {
    const cwd = await realpath(await tempDir());
    const marker = path.join(cwd, "..", `marker-${path.basename(cwd)}`);
    const gitEnv = "GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null git -c user.email=t@t -c user.name=t";
    const ctx = recordingContext({ cwd, shell });
    await terminal(ctx, { command: `git init -q . && ${gitEnv} commit -q --allow-empty -m init` });
    // Plants a hook and a config setting, again and again, until told to stop.
    const plant = `while [ ! -e stop ]; do printf '#!/bin/sh\\ntouch ${marker}\\n' > .git/hooks/pre-commit; chmod +x .git/hooks/pre-commit; git config core.fsmonitor 'touch ${marker}; false'; done`;
    const started = await terminal(ctx, { command: plant, background: true });
    const id = String((started.output as Out).process_id);
    let reported = 0;
    let during = 0;
    const tries = 40;
    for (let i = 0; i < tries; i++) {
      const result = await terminal(ctx, { command: "true" });
      const planted = (result.output as Out).planted_code;
      if (typeof planted === "string" && planted.includes("while a background command ran")) reported++;
      else if (planted) during++;
    }
    const handle = ctx.state.processes.get(id)?.handle;
    await terminal(ctx, { command: "touch stop" });
    await handle?.waitForExit();
    // The exit check ran before this await resumed (registered first); now the user's git, outside.
    const after = await terminal(ctx, { command: `rm -f stop; echo x > f && ${gitEnv} add f && ${gitEnv} commit -q -m next; git status >/dev/null; echo done` });
    assert.match(String((after.output as Out).output), /done/);
    assert.equal(existsSync(marker), false, "nothing planted ran");
    assert.equal(existsSync(path.join(cwd, ".git", "hooks", "pre-commit")), false);
    assert.doesNotMatch(readFileSync(path.join(cwd, ".git", "config"), "utf8"), /fsmonitor/);
    assert.ok(reported > 0, "plants made between commands are caught before the next one");
    process.stderr.write(`  background planter: ${tries} commands; undone before ${reported}, after ${during} more\n`);
  });
});
