// Cancelling a turn (in process, over the real protocol): during streaming, during a long
// local command, and during a command in the editor's terminal. The prompt answers
// "cancelled", every started tool call ends, the HTTP stream is dropped and no process survives.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";

import path from "node:path";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { useScriptedModel } from "../support/scripted-model";
import { waitForChangeIn } from "../support/wait";
import { makeTempDir, scriptedConfig, sessionUpdates, startAgent } from "../support/in-process-agent";

const scripted = useScriptedModel();

/** True while the process exists and is not a zombie waiting to be reaped. */
/**
 * The host pid of the process whose pid inside its PID namespace is `nsPid` and whose command
 * line is `argv` (commands run in the OS sandbox, where `$$` is a namespace pid).
 */
function hostPid(nsPid: number, argv: string[]): number | undefined {
  const wanted = `${argv.join("\0")}\0`;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, "latin1") !== wanted) continue;
      const nspid = /^NSpid:\s+(.*)$/m.exec(readFileSync(`/proc/${entry}/status`, "latin1"))?.[1]?.trim().split(/\s+/);
      if (nspid && Number(nspid.at(-1)) === nsPid) return Number(entry);
    } catch {
      // Gone while we looked.
    }
  }
  return undefined;
}

function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/** For process states (the sleep's pid appearing, its exit): no event reaches us for those, so this polls. */
async function waitUntil(condition: () => boolean, timeoutMs = 5_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await sleep(25);
  }
  return condition();
}

test("cancel during streaming aborts the model request and answers cancelled", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const abortedBefore = model.abortedStreams;
  model.enqueue({ text: "word ".repeat(400), chunkDelayMs: 20 });
  const hermes = await startAgent({ config: scriptedConfig(model.url) });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    const prompt = hermes.prompt(sessionId, "talk for a long time");
    await hermes.waitForUpdate((u) => u.sessionUpdate === "agent_message_chunk");
    await hermes.agent.notify(acp.methods.agent.session.cancel, { sessionId });
    const response = await prompt;
    assert.equal(response.stopReason, "cancelled");
    await model.waitForAbortedStreams(abortedBefore + 1); // the server saw the stream dropped

    // The session is still usable and remembers the partial answer.
    model.enqueue({ text: "short answer" });
    const again = await hermes.prompt(sessionId, "be brief");
    assert.equal(again.stopReason, "end_turn");
    const history = model.requests.at(-1)!.body.messages;
    const partial = history.find((m: any) => m.role === "assistant");
    assert.match(partial.content, /^word /);
    assert.ok(partial.content.length < 2000, "only what streamed before the cancel is kept");
  } finally {
    await hermes.close();
  }
});

test("cancel during a long local command kills its process group and ends the tool call cancelled, live and replayed", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const pidFile = path.join(project, "pid");
  model.enqueue({ toolCalls: [{ id: "long", name: "terminal", arguments: { command: `sh -c 'echo $$ > ${pidFile}; exec sleep 30'` } }] });
  const hermes = await startAgent({ config: scriptedConfig(model.url) });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    const prompt = hermes.prompt(sessionId, "run the long thing");
    await hermes.waitForUpdate((u) => u.sessionUpdate === "tool_call_update" && u.status === "in_progress");
    await waitForChangeIn(project, () => readFileSafe(pidFile) !== "", 5_000, "the command to start (its pid file)");
    let pid: number | undefined;
    assert.ok(await waitUntil(() => (pid = hostPid(Number(readFileSafe(pidFile)), ["sleep", "30"])) !== undefined), "found the sleep process");
    assert.ok(alive(pid!));

    await hermes.agent.notify(acp.methods.agent.session.cancel, { sessionId });
    const response = await prompt;
    assert.equal(response.stopReason, "cancelled");
    const end = sessionUpdates(hermes, sessionId).find((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "long" && (u.status === "completed" || u.status === "failed"));
    assert.ok(end && end.sessionUpdate === "tool_call_update");
    assert.equal(end.status, "failed");
    // Stopped by the user, not a failure of the command: the card says so (ACP v1 has no "cancelled" status).
    assert.equal(end._meta?.["hermes/cancelled"], true);
    assert.ok(await waitUntil(() => !alive(pid!)), "the sleep process was killed");
    // The journal keeps it: a reload shows the same cancelled card.
    const before = sessionUpdates(hermes, sessionId).length;
    await hermes.agent.request("session/load", { sessionId, cwd: project, mcpServers: [] });
    const replayed = sessionUpdates(hermes, sessionId).slice(before).find((u) => u.sessionUpdate === "tool_call" && u.toolCallId === "long");
    assert.ok(replayed && replayed.sessionUpdate === "tool_call", "the tool call is replayed");
    assert.equal(replayed.status, "failed");
    assert.equal(replayed._meta?.["hermes/cancelled"], true);
  } finally {
    await hermes.close();
  }
});

test("cancel during a command in the editor's terminal kills and releases the terminal", async () => {
  const model = scripted();
  const project = await makeTempDir();
  model.enqueue({ toolCalls: [{ id: "term", name: "terminal", arguments: { command: "sleep 30" } }] });
  // The editor's own (unsandboxed) terminals, by the user's choice: where the sandbox works they are not used otherwise.
  const hermes = await startAgent({ config: scriptedConfig(model.url, { terminal: { editor_terminals: "always" } }), serveTerminal: true });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    const prompt = hermes.prompt(sessionId, "run it in the editor");
    const shown = await hermes.waitForUpdate((u) => u.sessionUpdate === "tool_call_update" && (u.content ?? []).some((c) => c.type === "terminal"));
    assert.ok(shown.sessionUpdate === "tool_call_update");
    await hermes.agent.notify(acp.methods.agent.session.cancel, { sessionId });
    assert.equal((await prompt).stopReason, "cancelled");
    assert.ok(await waitUntil(() => hermes.terminals.released.length === 1), "the terminal was released");
    assert.ok(hermes.terminals.killed.length + hermes.terminals.released.length >= 1);
  } finally {
    await hermes.close();
  }
});

function readFileSafe(file: string): string {
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    return "";
  }
}
