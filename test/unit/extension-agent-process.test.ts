// The extension's agent process against the real built dist/hermes.js (run `npm run build`
// first): spawn, initialize over real stdio through the extension's ACP client, crash →
// restart with backoff, and a stop that leaves no process behind.
import assert from "node:assert/strict";
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { connectAgent } from "../../extension/acp-connection";
import { AgentProcess, agentCommand, backoffDelay } from "../../extension/agent-process";
import { memoryLogger } from "../../extension/log";
import { makeTempDir, ROOT } from "../support/acp-harness";

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function hermesProcess(log = memoryLogger()) {
  assert.ok(existsSync(path.join(ROOT, "dist", "hermes.js")), "run `npm run build` first");
  const home = await makeTempDir("hermes-ext-home-");
  const agent = new AgentProcess(() => agentCommand(ROOT, { env: { HERMES_HOME: home } }), log);
  return { agent, log };
}

function nextEvent<T extends unknown[]>(emitter: AgentProcess, event: "started" | "crashed", timeoutMs = 10_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within ${timeoutMs} ms`)), timeoutMs);
    emitter.once(event, (...args: unknown[]) => {
      clearTimeout(timer);
      resolve(args as T);
    });
  });
}

test("the bundled command runs dist/hermes.js acp on VS Code's runtime, a configured one runs as given", () => {
  const bundled = agentCommand("/ext", { env: { HERMES_HOME: "/h" } }, "/vscode/electron");
  assert.equal(bundled.command, "/vscode/electron");
  assert.deepEqual(bundled.args, ["/ext/dist/hermes.js", "acp"]);
  assert.equal(bundled.env.ELECTRON_RUN_AS_NODE, "1");
  assert.equal(bundled.env.HERMES_HOME, "/h");
  assert.equal(bundled.env.PATH, process.env.PATH, "settings go over the host environment");
  const custom = agentCommand("/ext", { command: "npx", args: ["some-agent", "--acp"], env: { A: "1" } });
  assert.deepEqual([custom.command, custom.args, custom.env.A, custom.env.ELECTRON_RUN_AS_NODE], ["npx", ["some-agent", "--acp"], "1", undefined]);
});

test("backoff doubles from 1 s and stops at 30 s", () => {
  assert.deepEqual([1, 2, 3, 4, 5, 6, 7].map((n) => backoffDelay(n)), [1000, 2000, 4000, 8000, 16000, 30000, 30000]);
});

test("spawns hermes and initializes over real stdio with the editor's capabilities", async () => {
  const { agent, log } = await hermesProcess();
  const child = agent.start();
  try {
    const connection = connectAgent(
      child,
      { update: () => {}, requestPermission: async () => ({ outcome: { outcome: "cancelled" } }) },
      { log, trace: () => true },
    );
    const response = await connection.initialize();
    assert.equal(response.agentInfo?.name, "hermes");
    assert.ok(response.agentCapabilities?.loadSession);
    assert.ok(log.lines.some((line) => line.startsWith("info →") && line.includes('"hermes-vscode"')), "outgoing frames traced");
    assert.ok(log.lines.some((line) => line.startsWith("info ←") && line.includes('"protocolVersion"')), "incoming frames traced");
  } finally {
    await agent.stop();
  }
});

test("a crash restarts the agent with backoff; stop leaves no process", async (t) => {
  const { agent } = await hermesProcess();
  const first = agent.start();
  const pids = [first.pid!];
  let starts = 0;
  agent.on("started", () => starts++);
  try {
    // Fake timers: the restart delay passes when the test says so.
    t.mock.timers.enable({ apis: ["setTimeout"] });
    const crashed = nextEvent<[unknown, number]>(agent, "crashed");
    let started = nextEvent<[ChildProcessWithoutNullStreams]>(agent, "started");
    first.kill("SIGKILL");
    const [, delay1] = await crashed;
    assert.equal(delay1, 1000);
    t.mock.timers.tick(999);
    assert.equal(starts, 0, "no restart before the delay");
    t.mock.timers.tick(1);
    assert.equal(starts, 1, "restarted once the delay passed");
    const [second] = await started;
    assert.notEqual(second.pid, first.pid);
    pids.push(second.pid!);

    const crashedAgain = nextEvent<[unknown, number]>(agent, "crashed");
    started = nextEvent<[ChildProcessWithoutNullStreams]>(agent, "started");
    second.kill("SIGKILL");
    const [, delay2] = await crashedAgain;
    assert.equal(delay2, 2000, "the second crash in a row waits twice as long");
    t.mock.timers.tick(1999);
    assert.equal(starts, 1);
    t.mock.timers.tick(1);
    const [third] = await started;
    pids.push(third.pid!);
    t.mock.timers.reset();

    // The restarted agent is a working one.
    const connection = connectAgent(third, { update: () => {}, requestPermission: async () => ({ outcome: { outcome: "cancelled" } }) }, { log: memoryLogger(), trace: () => false });
    await connection.initialize();
  } finally {
    t.mock.timers.reset();
    await agent.stop();
  }
  assert.equal(agent.running, false);
  // Every child's exit was awaited (crash events, stop), so each is reaped: none may remain.
  for (const pid of pids) assert.equal(alive(pid), false, `pid ${pid} is gone`);
});

test("stop during the restart delay cancels the restart", async (t) => {
  const { agent } = await hermesProcess();
  const child = agent.start();
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const crashed = nextEvent(agent, "crashed");
  let restarted = false;
  agent.on("started", () => (restarted = true));
  child.kill("SIGKILL");
  await crashed;
  await agent.stop();
  t.mock.timers.tick(60_000); // well past any restart delay
  assert.equal(restarted, false);
  assert.equal(agent.running, false);
});

test("a command that does not exist fails without a restart loop", async () => {
  const agent = new AgentProcess(() => ({ command: "/nonexistent/agent-binary", args: [], env: process.env }), memoryLogger());
  const failed = new Promise<Error>((resolve) => agent.once("failed", resolve));
  agent.start();
  const error = await failed;
  assert.match(error.message, /ENOENT/);
  assert.equal(agent.running, false);
});
