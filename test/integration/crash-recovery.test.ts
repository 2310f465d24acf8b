// kill -9 in the middle of a turn, then load the session in a new process: every step that
// had completed (the prompt, the assistant's reply, each finished tool result) is there, and
// what never finished is marked as interrupted so the conversation can go on.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { makeTempDir, scriptedConfig, sessionUpdates, startHermes, type Harness } from "../support/acp-harness";
import { useScriptedModel } from "../support/scripted-model";
import { transcript } from "../support/transcript";

const scripted = useScriptedModel();

async function crash(hermes: Harness): Promise<void> {
  const exited = new Promise((resolve) => hermes.child.once("exit", resolve));
  hermes.child.kill("SIGKILL");
  await exited;
}

async function reopen(home: string, config: unknown, sessionId: string, cwd: string): Promise<Harness> {
  const next = await startHermes({ config, env: { HERMES_HOME: home } });
  await next.initialize();
  await next.agent.request(acp.methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
  return next;
}

test("killed while the model streams: the prompt survives and the session goes on", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const config = scriptedConfig(model.url);
  const first = await startHermes({ config });
  let second: Harness | undefined;
  try {
    await first.initialize();
    const { sessionId } = await first.newSession(project);
    model.enqueue({ text: "partial answer that never ends", hang: true });
    void first.prompt(sessionId, "remember PEREGRINE").catch(() => {});
    await first.waitForUpdate((u) => u.sessionUpdate === "agent_message_chunk");
    await crash(first);

    second = await reopen(first.home, config, sessionId, project);
    // The turn the kill cut ends with the Interrupted marker (journaled start, no end).
    assert.deepEqual(transcript(sessionUpdates(second, sessionId)), [
      { kind: "user", text: "remember PEREGRINE" },
      { kind: "agent", text: "\n\n*Interrupted: the agent stopped (its process ended during the turn)*\n" },
    ]);
    model.enqueue({ text: "ok" });
    const before = model.requests.length;
    assert.equal((await second.prompt(sessionId, "what should you remember?")).stopReason, "end_turn");
    const users = model.requests[before].body.messages.filter((m: any) => m.role === "user").map((m: any) => m.content);
    assert.deepEqual(users, ["remember PEREGRINE", "what should you remember?"]);
  } finally {
    await first.close();
    await second?.close();
  }
});

test("killed during the second of two tools: the first result survives, the second is marked interrupted", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const pidFile = path.join(project, "sleeper.pid");
  const config = scriptedConfig(model.url);
  const first = await startHermes({ config });
  let second: Harness | undefined;
  try {
    await first.initialize();
    const { sessionId } = await first.newSession(project);
    model.enqueue({
      text: "Running both.",
      toolCalls: [
        { id: "quick", name: "terminal", arguments: { command: "echo done-one" } },
        { id: "slow", name: "terminal", arguments: { command: `sh -c 'echo $$ > ${pidFile}; exec sleep 60'` } },
      ],
    });
    void first.prompt(sessionId, "run the two commands").catch(() => {});
    await first.waitForUpdate((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "slow" && u.status === "in_progress");
    await crash(first);

    second = await reopen(first.home, config, sessionId, project);
    const replayed = transcript(sessionUpdates(second, sessionId));
    assert.deepEqual(replayed.map((item) => item.kind), ["user", "agent", "tool", "agent"], "the finished tool is replayed, the unfinished one is not; the Interrupted marker ends the turn");
    const last = replayed.at(-1);
    assert.ok(last?.kind === "agent" && /Interrupted: the agent stopped/.test(last.text));
    assert.match(JSON.stringify(replayed[2]), /done-one/);

    model.enqueue({ text: "The second one was interrupted." });
    const before = model.requests.length;
    await second.prompt(sessionId, "what happened?");
    const messages = model.requests[before].body.messages;
    const results = messages.filter((m: any) => m.role === "tool");
    assert.deepEqual(results.map((m: any) => m.tool_call_id), ["quick", "slow"], "both calls have results, in call order");
    assert.match(results[0].content, /done-one/);
    assert.match(results[1].content, /Interrupted/);
  } finally {
    // The killed agent could not clean up after itself: end the orphaned sleep here.
    try {
      process.kill(Number(readFileSync(pidFile, "utf8").trim()), "SIGKILL");
    } catch {
      // already gone
    }
    await first.close();
    await second?.close();
  }
});
