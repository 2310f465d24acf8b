// delegate_task with external ACP agents, over real stdio: the child is another
// `dist/hermes.js acp` on its own scripted model (a full run: its permission request reaches
// the test client through the parent, approval and denial reach the child, its steps stream into
// the parent's card, its fs/* is confined to the task's folder), or a fake agent that crashes or
// hangs (failed results with the reason, cancel → session/cancel then kill, no processes left).
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { stringify as toYaml } from "yaml";
import { agentText, HERMES_BIN, makeTempDir, ROOT, scriptedConfig, startHermes } from "../support/acp-harness";
import { alive, callNumber, childPids, delegateCard, startRoutedModel, toolMessages, waitUntil } from "../support/delegation";
import { EVERYTHING, stdioServer } from "../support/mcp-servers";
import type { RecordedRequest } from "../support/scripted-http";
import { waitForChangeIn } from "../support/wait";
import type { ScriptedReply } from "../support/scripted-model";

const FAKE_AGENT = path.join(ROOT, "test/support/fake-acp-agent.mjs");

function delegatingParent(tasks: unknown[]) {
  return (request: RecordedRequest): ScriptedReply =>
    callNumber(request) === 1 ? { toolCalls: [{ id: "delegate-1", name: "delegate_task", arguments: { tasks } }] } : { text: "Parent: the child reported back." };
}

/** A Hermes home for the child agent, on its own scripted model. */
async function childHome(modelUrl: string): Promise<string> {
  const home = await makeTempDir("hermes-child-home-");
  writeFileSync(path.join(home, "config.yaml"), toYaml(scriptedConfig(modelUrl)));
  return home;
}

async function hermesChildRun(answer: "allow" | "reject") {
  const project = await makeTempDir();
  const childModel = await startRoutedModel((request) =>
    callNumber(request) === 1
      ? { toolCalls: [{ id: "w1", name: "write_file", arguments: { path: "out.txt", content: "from the child\n" } }] }
      : { text: `Child finished. Tool said: ${toolMessages(request)[0]}` },
  );
  const parentModel = await startRoutedModel(delegatingParent([{ goal: "Write out.txt", context: "one line", agent: "helper" }]));
  const home = await childHome(childModel.url);
  const hermes = await startHermes({
    config: scriptedConfig(parentModel.url, { delegation: { acp_agents: { helper: { command: process.execPath, args: [HERMES_BIN, "acp"], env: { HERMES_HOME: home } } } } }),
    permission: answer,
  });
  return { project, childModel, parentModel, hermes };
}

test("external Hermes child: full run, its permission request answered by the user through the parent, progress in the card", async () => {
  const { project, childModel, parentModel, hermes } = await hermesChildRun("allow");
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    const response = await hermes.prompt(sessionId, "delegate it");
    assert.equal(response.stopReason, "end_turn");
    assert.equal(readFileSync(path.join(project, "out.txt"), "utf8"), "from the child\n");

    const card = delegateCard(hermes, sessionId);
    assert.equal(card.status, "completed");
    const [result] = card.rawOutput.results;
    assert.equal(result.agent, "helper");
    assert.equal(result.status, "completed");
    assert.equal(result.tool_calls, 1);
    assert.match(result.summary, /^Child finished\./);
    assert.ok(card.progressTexts.some((text) => text.includes("helper: write out.txt ✓")), card.progressTexts.join("\n---\n"));
    assert.ok(card.progressTexts.some((text) => text.includes("helper: write out.txt …")), "the step was shown while it ran");

    // The child's request reached the user on the parent's card, named after the child.
    assert.equal(hermes.permissionRequests.length, 1);
    assert.equal(hermes.permissionRequests[0].toolCall.title, "helper: Write out.txt");
    assert.equal(hermes.permissionRequests[0].toolCall.toolCallId, card.id);
    assert.ok(hermes.permissionRequests[0].toolCall.content?.some((c: any) => c.type === "diff" && c.newText === "from the child\n"), "the diff came along");
    // The child got goal and context as its prompt.
    const childPrompt = childModel.requests[0].body.messages.find((m: any) => m.role === "user");
    assert.match(JSON.stringify(childPrompt), /Write out.txt\\n\\nContext:\\none line/);
    assert.match(agentText(hermes, sessionId), /the child reported back/);
    assert.deepEqual(childPids(hermes.child.pid!), [], "the child agent is gone");
    assert.deepEqual(hermes.invalidUpdates, []);
  } finally {
    await hermes.close();
    await childModel.close();
    await parentModel.close();
  }
});

test("external Hermes child: the tokens and cost it reports count in the parent session's /usage", async () => {
  const project = await makeTempDir();
  const childModel = await startRoutedModel(() => ({ text: "Child: nothing to do.", usage: { prompt_tokens: 400, completion_tokens: 40 } }));
  const parentModel = await startRoutedModel((request) => ({ ...delegatingParent([{ goal: "Look around", agent: "helper" }])(request), usage: { prompt_tokens: 1000, completion_tokens: 10 } }));
  const home = await makeTempDir("hermes-child-home-");
  const priced = (url: string) => {
    const config = scriptedConfig(url);
    Object.assign(config.model as Record<string, unknown>, { price: { input: 2, output: 8 } });
    return config;
  };
  writeFileSync(path.join(home, "config.yaml"), toYaml(priced(childModel.url)));
  const hermes = await startHermes({ config: { ...priced(parentModel.url), delegation: { acp_agents: { helper: { command: process.execPath, args: [HERMES_BIN, "acp"], env: { HERMES_HOME: home } } } } } });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    assert.equal((await hermes.prompt(sessionId, "delegate it")).stopReason, "end_turn");
    assert.equal(delegateCard(hermes, sessionId).rawOutput.results[0].status, "completed");
    const before = agentText(hermes, sessionId).length;
    await hermes.prompt(sessionId, "/usage");
    // Parent: 2 calls of 1000 in / 10 out; child: one of 400 in / 40 out, its cost as it reported it.
    // (2 × (1000·2 + 10·8) + 400·2 + 40·8) per million tokens = $0.00528.
    assert.match(agentText(hermes, sessionId).slice(before), /2,400 input and 60 output tokens over 3 model calls, cost \$0\.0053/);
  } finally {
    await hermes.close();
    await childModel.close();
    await parentModel.close();
  }
});

test("external Hermes child: the user's denial reaches the child", async () => {
  const { project, childModel, parentModel, hermes } = await hermesChildRun("reject");
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    assert.equal((await hermes.prompt(sessionId, "delegate it")).stopReason, "end_turn");
    assert.ok(!existsSync(path.join(project, "out.txt")));
    assert.equal(hermes.permissionRequests.length, 1);
    // The child's model read the refusal as the tool's result.
    assert.match(toolMessages(childModel.requests[1])[0], /not allow|denied|rejected|declined/i);
    const card = delegateCard(hermes, sessionId);
    assert.ok(card.progressTexts.some((text) => text.includes("helper: write out.txt ✗")), card.progressTexts.at(-1));
    assert.match(card.rawOutput.results[0].summary, /not allow|denied|rejected|declined/i);
    assert.deepEqual(childPids(hermes.child.pid!), []);
  } finally {
    await hermes.close();
    await childModel.close();
    await parentModel.close();
  }
});

test("external child: fs/* outside the task's folder is refused", async () => {
  const project = await makeTempDir();
  const outside = await makeTempDir("hermes-outside-");
  const target = path.join(outside, "escape.txt");
  const childModel = await startRoutedModel((request) =>
    callNumber(request) === 1 ? { toolCalls: [{ id: "w1", name: "write_file", arguments: { path: target, content: "escaped\n" } }] } : { text: `Tool said: ${toolMessages(request)[0]}` },
  );
  const parentModel = await startRoutedModel(delegatingParent([{ goal: "escape", agent: "helper" }]));
  const home = await childHome(childModel.url);
  const hermes = await startHermes({
    config: scriptedConfig(parentModel.url, { delegation: { auto_approve: true, acp_agents: { helper: { command: process.execPath, args: [HERMES_BIN, "acp"], env: { HERMES_HOME: home } } } } }),
    permission: "allow",
  });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    assert.equal((await hermes.prompt(sessionId, "go")).stopReason, "end_turn");
    assert.ok(!existsSync(target), "nothing written outside the task's folder");
    assert.match(toolMessages(childModel.requests[1])[0], /outside this task's folder/);
    assert.equal(hermes.permissionRequests.length, 0, "auto_approve answered the child");
  } finally {
    await hermes.close();
    await childModel.close();
    await parentModel.close();
  }
});

async function fakeChildRun(mode: "crash" | "hang", delegation: Record<string, unknown> = {}) {
  const project = await makeTempDir();
  const state = await makeTempDir("hermes-fake-agent-");
  const parentModel = await startRoutedModel(delegatingParent([{ goal: "do something", agent: "fake" }]));
  const hermes = await startHermes({
    config: scriptedConfig(parentModel.url, { delegation: { acp_agents: { fake: { command: process.execPath, args: [FAKE_AGENT, mode, state] } }, ...delegation } }),
  });
  const pid = (file: string) => (existsSync(path.join(state, file)) ? Number(readFileSync(path.join(state, file), "utf8")) : 0);
  const received = () => (existsSync(path.join(state, "received.log")) ? readFileSync(path.join(state, "received.log"), "utf8").trim().split("\n") : []);
  /** Resolves once `check()` holds, looking again at each change of the fake agent's state files. */
  const stateUntil = (check: () => boolean, timeoutMs: number, what: string) => waitForChangeIn(state, check, timeoutMs, what);
  return { project, state, parentModel, hermes, pid, received, stateUntil };
}

test("a child that crashes is a failed result with the reason (and the parent's MCP servers were passed on)", async () => {
  const { project, state, parentModel, hermes, pid } = await fakeChildRun("crash");
  try {
    await hermes.initialize();
    const mcpServers = [stdioServer("everything", [EVERYTHING, "stdio"])];
    const { sessionId } = await hermes.agent.request<acp.NewSessionResponse>(acp.methods.agent.session.new, { cwd: project, mcpServers });
    assert.equal((await hermes.prompt(sessionId, "go")).stopReason, "end_turn");
    const [result] = delegateCard(hermes, sessionId).rawOutput.results;
    assert.equal(result.status, "failed");
    assert.match(result.error, /fake exited \(exit code 3\): fake agent: crashed on purpose/);
    const sessionNew = JSON.parse(readFileSync(path.join(state, "session-new.json"), "utf8"));
    assert.equal(sessionNew.cwd, project);
    assert.deepEqual(sessionNew.mcpServers, mcpServers);
    assert.ok(!alive(pid("agent.pid")));
  } finally {
    await hermes.close();
    await parentModel.close();
  }
});

test("a child that hangs is stopped after delegation.idle_timeout, with its whole process group", async () => {
  const { project, parentModel, hermes, pid } = await fakeChildRun("hang", { idle_timeout: 1 });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    assert.equal((await hermes.prompt(sessionId, "go")).stopReason, "end_turn");
    const card = delegateCard(hermes, sessionId);
    const [result] = card.rawOutput.results;
    assert.equal(result.status, "failed");
    assert.match(result.error, /sent nothing for 1 s \(delegation\.idle_timeout\)/);
    assert.ok(card.progressTexts.some((text) => text.includes("working on it")), "its message streamed into the card");
    assert.ok(pid("grandchild.pid") > 0);
    assert.ok(await waitUntil(() => !alive(pid("agent.pid")) && !alive(pid("grandchild.pid"))), "agent and grandchild are gone");
  } finally {
    await hermes.close();
    await parentModel.close();
  }
});

test("cancelling the parent sends session/cancel to the child and kills it after 2 s", async () => {
  const { project, parentModel, hermes, pid, received, stateUntil } = await fakeChildRun("hang");
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    const prompt = hermes.prompt(sessionId, "go");
    await stateUntil(() => pid("grandchild.pid") > 0, 10_000, "the child to be working (its grandchild's pid file)");
    const agentPid = pid("agent.pid");
    const grandchild = pid("grandchild.pid");
    await hermes.agent.notify(acp.methods.agent.session.cancel, { sessionId });
    assert.equal((await prompt).stopReason, "cancelled");
    await stateUntil(() => received().includes("session/cancel"), 5_000, `session/cancel at the child (received: ${received().join(",")})`);
    assert.ok(alive(agentPid), "given a grace period first");
    assert.ok(await waitUntil(() => !alive(agentPid) && !alive(grandchild), 5_000), "killed with its group after the grace period");
    assert.equal(delegateCard(hermes, sessionId).status, "failed");
  } finally {
    await hermes.close();
    await parentModel.close();
  }
});

test("an agent that is not configured or not installed fails to start with the reason; /agents says which are found", async () => {
  const project = await makeTempDir();
  const parentModel = await startRoutedModel(
    delegatingParent([
      { goal: "a", agent: "nobody" },
      { goal: "b", agent: "ghost" },
      { goal: "c", agent: "quitter" },
    ]),
  );
  const hermes = await startHermes({
    config: scriptedConfig(parentModel.url, {
      delegation: { acp_agents: { ghost: { command: "/nonexistent/ghost-acp" }, quitter: { command: process.execPath, args: ["-e", "process.exit(2)"] } } },
    }),
  });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    assert.equal((await hermes.prompt(sessionId, "go")).stopReason, "end_turn");
    const results = delegateCard(hermes, sessionId).rawOutput.results;
    assert.deepEqual(results.map((r: any) => r.status), ["failed", "failed", "failed"]);
    assert.match(results[0].error, /Unknown agent "nobody"\. Available: hermes, quitter/);
    assert.match(results[1].error, /"ghost" is not installed: `\/nonexistent\/ghost-acp` was not found/);
    assert.match(results[2].error, /quitter exited \(exit code 2\)/);

    const { sessionId: other } = await hermes.newSession(project);
    await hermes.prompt(other, "/agents");
    const text = agentText(hermes, other);
    assert.match(text, /`hermes`: subagents in this process/);
    assert.match(text, /`ghost`: `\/nonexistent\/ghost-acp`, not found/);
    assert.match(text, new RegExp(`\`quitter\`: .*found at \`${process.execPath.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}\``));
    assert.match(text, /`claude`: `claude-agent-acp`/);
    // No agent is left behind. The session's own short background work (the system prompt's
    // git status, the checkpoint store opening) may still be running a git for a moment.
    assert.ok(await waitUntil(() => childPids(hermes.child.pid!).length === 0, 10_000), `left running: ${childPids(hermes.child.pid!).join(", ")}`);
  } finally {
    await hermes.close();
    await parentModel.close();
  }
});
