// delegate_task with in-process subagents, over real ACP stdio against a scripted model:
// parallel children (all asking the model before any is answered), queueing, focused prompts and blocked tools,
// the depth limit, the iteration budget, permission requests through the parent, and cancel.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { writeFileSync, existsSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { agentText, makeTempDir, scriptedConfig, startAgent, type InProcessAgent } from "../support/in-process-agent";
import { callNumber, delegateCard, goalOf, isSubagent, startRoutedModel, systemText, toolMessages, toolNames } from "../support/delegation";
import type { RecordedRequest } from "../support/scripted-http";
import type { ScriptedReply } from "../support/scripted-model";

/**
 * Holds every subagent's model reply until all `count` have asked: they get answers only if
 * they run at the same time. Run one after another, the first would wait for the others
 * forever; the guard answers it "alone" instead, which fails the test with a clear diff.
 */
function barrier(count: number, options: { guardMs?: number; before?: () => Promise<unknown> } = {}) {
  const guardMs = options.guardMs ?? 30_000;
  const arrived: string[] = [];
  let release!: () => void;
  const all = new Promise<void>((resolve) => (release = resolve));
  return {
    arrived,
    async reply(name: string, reply: ScriptedReply): Promise<ScriptedReply> {
      arrived.push(name);
      // `before`: what must be seen while all of them wait (e.g. the card showing them running).
      if (arrived.length === count) void (options.before?.() ?? Promise.resolve()).then(release);
      let timer: NodeJS.Timeout | undefined;
      const guard = new Promise<"alone">((resolve) => (timer = setTimeout(() => resolve("alone"), guardMs)));
      const outcome = await Promise.race([all, guard]);
      clearTimeout(timer);
      return outcome === "alone" ? { text: `${name}: alone` } : reply;
    },
  };
}

/** The parent: first call delegates `tasks`, the next answers with text. */
function parentRoute(tasks: unknown[], answer = "All delegated work is done.") {
  return (request: RecordedRequest): ScriptedReply =>
    callNumber(request) === 1 ? { toolCalls: [{ id: "delegate-1", name: "delegate_task", arguments: { tasks } }] } : { text: answer };
}

test("three subagents run in parallel: all three ask the model before any gets an answer", async () => {
  const project = await makeTempDir();
  let hermes: InProcessAgent | undefined;
  // Released once the card has shown a child running (its progress is batched, so it is
  // seen only while the children wait).
  const running = (): Promise<unknown> => hermes!.waitForUpdate((u) => u.sessionUpdate === "tool_call_update" && /\*\*subagent 2\*\* \(task 2, running\)/.test(JSON.stringify(u.content ?? [])));
  const together = barrier(3, { before: running });
  const parent = parentRoute([{ goal: "Task A: count the files" }, { goal: "Task B: read the readme", context: "It is README.md" }, { goal: "Task C: check the tests" }]);
  const model = await startRoutedModel((request) => {
    if (!isSubagent(request)) return parent(request);
    const letter = /Task (\w)/.exec(goalOf(request))?.[1] ?? "?";
    return together.reply(letter, { text: `Report ${letter}: finished.` });
  });
  hermes = await startAgent({ config: scriptedConfig(model.url) });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    const response = await hermes.prompt(sessionId, "split this up");
    assert.equal(response.stopReason, "end_turn");

    const card = delegateCard(hermes, sessionId);
    assert.equal(card.status, "completed");
    const results = card.rawOutput.results;
    assert.deepEqual(
      results.map((r: any) => [r.task_index, r.agent, r.status, r.summary, r.tool_calls]),
      [
        [0, "hermes", "completed", "Report A: finished.", 0],
        [1, "hermes", "completed", "Report B: finished.", 0],
        [2, "hermes", "completed", "Report C: finished.", 0],
      ],
    );
    for (const result of results) assert.ok(Number.isInteger(result.duration_ms) && result.duration_ms >= 0, `duration ${result.duration_ms}`);
    assert.deepEqual([...together.arrived].sort(), ["A", "B", "C"]);

    // Progress streamed into the card, each child named.
    assert.ok(card.progressTexts.some((text) => /\*\*subagent 2\*\* \(task 2, running\)/.test(text)), card.progressTexts.join("\n---\n"));
    assert.ok(card.progressTexts.some((text) => text.includes("Report A")));

    // Focused prompts: goal and context, not the parent's identity; the parent got the results.
    const child = model.requests.find((r) => goalOf(r).startsWith("Task B"))!;
    assert.match(systemText(child), /# Context\nIt is README.md/);
    assert.doesNotMatch(systemText(child), /working inside the user's editor/);
    const last = model.requests.filter((r) => !isSubagent(r)).at(-1)!;
    assert.match(toolMessages(last)[0], /Report C: finished\./);
    assert.deepEqual(hermes.invalidUpdates, []);
  } finally {
    await hermes.close();
    await model.close();
  }
});

test("extra tasks queue behind delegation.max_concurrent_children", async () => {
  const project = await makeTempDir();
  let running = 0;
  let most = 0;
  // The first two are held until both asked (so they overlap for sure); the third comes later.
  const firstTwo = barrier(2);
  const parent = parentRoute([{ goal: "one" }, { goal: "two" }, { goal: "three" }]);
  const model = await startRoutedModel(async (request) => {
    if (!isSubagent(request)) return parent(request);
    running++;
    most = Math.max(most, running);
    const reply = await firstTwo.reply(goalOf(request), { text: `did ${goalOf(request)}` });
    running--;
    return reply;
  });
  const hermes = await startAgent({ config: scriptedConfig(model.url, { delegation: { max_concurrent_children: 2 } }) });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    assert.equal((await hermes.prompt(sessionId, "go")).stopReason, "end_turn");
    assert.equal(most, 2);
    const results = delegateCard(hermes, sessionId).rawOutput.results;
    assert.deepEqual(results.map((r: any) => r.summary), ["did one", "did two", "did three"]);
  } finally {
    await hermes.close();
    await model.close();
  }
});

test("a subagent gets requested ∩ parent's toolsets, never delegate_task/memory/skill_manage, and blocked calls fail", async () => {
  const project = await makeTempDir();
  writeFileSync(path.join(project, "notes.txt"), "hello\n");
  const parent = parentRoute([{ goal: "look around", toolsets: ["file", "memory", "no-such-toolset"] }]);
  const model = await startRoutedModel((request) => {
    if (!isSubagent(request)) return parent(request);
    if (callNumber(request) === 1) {
      return {
        toolCalls: [
          { id: "m1", name: "memory", arguments: { action: "add", target: "memory", content: "x" } },
          { id: "t1", name: "terminal", arguments: { command: "echo hi" } },
          { id: "r1", name: "read_file", arguments: { path: "notes.txt" } },
        ],
      };
    }
    return { text: "looked" };
  });
  const hermes = await startAgent({ config: scriptedConfig(model.url) });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    assert.equal((await hermes.prompt(sessionId, "go")).stopReason, "end_turn");
    const childRequests = model.requests.filter(isSubagent);
    const names = toolNames(childRequests[0]);
    assert.ok(names.includes("read_file") && names.includes("write_file") && names.includes("session_search"), names.join(","));
    for (const blocked of ["delegate_task", "memory", "skill_manage", "terminal", "todo"]) assert.ok(!names.includes(blocked), `${blocked} offered: ${names}`);
    const results = toolMessages(childRequests[1]);
    assert.match(results[0], /Unknown tool \\?"memory\\?"/);
    assert.match(results[1], /Unknown tool \\?"terminal\\?"/);
    assert.match(results[2], /hello/);
    const result = delegateCard(hermes, sessionId).rawOutput.results[0];
    assert.equal(result.tool_calls, 3);
    assert.equal(result.summary, "looked");
  } finally {
    await hermes.close();
    await model.close();
  }
});

test("depth limit: with max_depth 2 a subagent may delegate once more, its own subagent may not", async () => {
  const project = await makeTempDir();
  const parent = parentRoute([{ goal: "level one" }]);
  const model = await startRoutedModel((request) => {
    if (!isSubagent(request)) return parent(request);
    const goal = goalOf(request);
    const n = callNumber(request);
    if (goal === "level one") return n === 1 ? { toolCalls: [{ id: "d2", name: "delegate_task", arguments: { tasks: [{ goal: "level two" }] } }] } : { text: "level one done" };
    return n === 1 ? { toolCalls: [{ id: "d3", name: "delegate_task", arguments: { tasks: [{ goal: "level three" }] } }] } : { text: "level two done" };
  });
  const hermes = await startAgent({ config: scriptedConfig(model.url, { delegation: { max_depth: 2 } }) });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    assert.equal((await hermes.prompt(sessionId, "go deep")).stopReason, "end_turn");
    const levelOne = model.requests.filter((r) => goalOf(r) === "level one");
    const levelTwo = model.requests.filter((r) => goalOf(r) === "level two");
    assert.ok(toolNames(levelOne[0]).includes("delegate_task"));
    assert.ok(!toolNames(levelTwo[0]).includes("delegate_task"));
    assert.match(toolMessages(levelTwo[1])[0], /Unknown tool \\?"delegate_task\\?"/);
    assert.equal(model.requests.filter((r) => goalOf(r) === "level three").length, 0);
    assert.match(toolMessages(levelOne[1])[0], /level two done/);
  } finally {
    await hermes.close();
    await model.close();
  }
});

test("default max_depth 1: a subagent has no delegate_task", async () => {
  const project = await makeTempDir();
  const parent = parentRoute([{ goal: "try to delegate" }]);
  const model = await startRoutedModel((request) => {
    if (!isSubagent(request)) return parent(request);
    return callNumber(request) === 1 ? { toolCalls: [{ id: "d", name: "delegate_task", arguments: { tasks: [{ goal: "deeper" }] } }] } : { text: "could not" };
  });
  const hermes = await startAgent({ config: scriptedConfig(model.url) });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    await hermes.prompt(sessionId, "go");
    const child = model.requests.filter(isSubagent);
    assert.ok(!toolNames(child[0]).includes("delegate_task"));
    assert.match(toolMessages(child[1])[0], /Unknown tool \\?"delegate_task\\?"/);
    assert.equal(child.length, 2, "no grandchild ran");
  } finally {
    await hermes.close();
    await model.close();
  }
});

test("the iteration budget stops a subagent with a summary (max_iterations)", async () => {
  const project = await makeTempDir();
  writeFileSync(path.join(project, "a.txt"), "a\n");
  const parent = parentRoute([{ goal: "loop forever" }]);
  const model = await startRoutedModel((request) => {
    if (!isSubagent(request)) return parent(request);
    if (toolNames(request).length === 0) return { text: "Budget summary: read a.txt twice." };
    return { toolCalls: [{ id: `r${callNumber(request)}`, name: "read_file", arguments: { path: "a.txt" } }] };
  });
  const hermes = await startAgent({ config: scriptedConfig(model.url, { delegation: { max_iterations: 2 } }) });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    assert.equal((await hermes.prompt(sessionId, "go")).stopReason, "end_turn");
    const result = delegateCard(hermes, sessionId).rawOutput.results[0];
    assert.equal(result.status, "max_iterations");
    assert.equal(result.tool_calls, 2);
    assert.equal(result.summary, "Budget summary: read a.txt twice.");
    assert.match(result.error, /delegation\.max_iterations/);
    assert.equal(model.requests.filter(isSubagent).length, 3);
  } finally {
    await hermes.close();
    await model.close();
  }
});

test("a subagent's edit asks the user through the parent (child named); a denial reaches the subagent", async () => {
  const project = await makeTempDir();
  const parent = parentRoute([{ goal: "write one", context: "write one.txt" }, { goal: "write two" }]);
  const model = await startRoutedModel((request) => {
    if (!isSubagent(request)) return parent(request);
    const name = goalOf(request) === "write one" ? "one.txt" : "two.txt";
    return callNumber(request) === 1 ? { toolCalls: [{ id: "w", name: "write_file", arguments: { path: name, content: "x\n" } }] } : { text: `result: ${toolMessages(request)[0]}` };
  });
  const hermes = await startAgent({
    config: scriptedConfig(model.url),
    permission: (request) => request.options.find((o) => o.kind === (request.toolCall.title?.includes("one.txt") ? "allow_once" : "reject_once"))!.optionId,
  });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    assert.equal((await hermes.prompt(sessionId, "go")).stopReason, "end_turn");
    const card = delegateCard(hermes, sessionId);
    const titles = hermes.permissionRequests.map((r) => r.toolCall.title).sort();
    assert.deepEqual(titles, ["subagent 1: Write one.txt", "subagent 2: Write two.txt"]);
    for (const request of hermes.permissionRequests) assert.equal(request.toolCall.toolCallId, card.id, "asked on the delegate_task card");
    assert.ok(existsSync(path.join(project, "one.txt")));
    assert.ok(!existsSync(path.join(project, "two.txt")));
    const [one, two] = card.rawOutput.results;
    assert.doesNotMatch(one.summary, /not allow|denied|rejected/i);
    assert.match(two.summary, /not allow|denied|rejected|declined/i);
    assert.ok(card.progressTexts.some((text) => /subagent 2: write two\.txt ✗/.test(text)), card.progressTexts.at(-1));
  } finally {
    await hermes.close();
    await model.close();
  }
});

test("cancelling the parent cancels running subagents (their model streams are dropped)", async () => {
  const project = await makeTempDir();
  const parent = parentRoute([{ goal: "slow one" }, { goal: "slow two" }]);
  const model = await startRoutedModel((request) => (isSubagent(request) ? { text: "thinking ".repeat(500), chunkDelayMs: 50 } : parent(request)));
  const hermes = await startAgent({ config: scriptedConfig(model.url) });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    const prompt = hermes.prompt(sessionId, "go");
    await model.waitForRequests(3);
    await hermes.waitForUpdate((u) => u.sessionUpdate === "tool_call_update" && !!u.content && JSON.stringify(u.content).includes("thinking"));
    await hermes.agent.notify(acp.methods.agent.session.cancel, { sessionId });
    assert.equal((await prompt).stopReason, "cancelled");
    // Each child's stream (500 chunks, 50 ms apart) was dropped, not left to finish.
    await model.waitForAbortedStreams(2);
    assert.equal(delegateCard(hermes, sessionId).status, "failed");
    assert.equal(model.requests.filter(isSubagent).length, 2, "no further subagent calls");
  } finally {
    await hermes.close();
    await model.close();
  }
});

test("/usage and the prompt's usage count the subagents' tokens and cost in the parent session's account", async () => {
  const project = await makeTempDir();
  const parent = (request: RecordedRequest): ScriptedReply =>
    callNumber(request) === 1
      ? { toolCalls: [{ id: "delegate-1", name: "delegate_task", arguments: { tasks: [{ goal: "Task A" }, { goal: "Task B" }] } }], usage: { prompt_tokens: 1000, completion_tokens: 50 } }
      : { text: "Both done.", usage: { prompt_tokens: 1200, completion_tokens: 20 } };
  const model = await startRoutedModel((request) => (isSubagent(request) ? { text: `Report for ${goalOf(request)}.`, usage: { prompt_tokens: 300, completion_tokens: 30 } } : parent(request)));
  const config = scriptedConfig(model.url);
  Object.assign(config.model as Record<string, unknown>, { price: { input: 2, output: 8 } });
  const hermes = await startAgent({ config });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    const response = (await hermes.prompt(sessionId, "split this up")) as acp.PromptResponse & { usage?: Record<string, number> };
    assert.equal(response.stopReason, "end_turn");
    assert.equal(model.requests.filter(isSubagent).length, 2, "two subagent calls");
    // Parent 1000+1200 in, 50+20 out; two children 300 in, 30 out each.
    assert.deepEqual(response.usage, { totalTokens: 2930, inputTokens: 2800, outputTokens: 130 });

    const before = agentText(hermes, sessionId).length;
    await hermes.prompt(sessionId, "/usage");
    const usage = agentText(hermes, sessionId).slice(before);
    // (1000·2 + 50·8) + (1200·2 + 20·8) + 2 × (300·2 + 30·8) = 6640 per million tokens.
    assert.match(usage, /2,800 input and 130 output tokens over 4 model calls, cost \$0\.0066/);
  } finally {
    await hermes.close();
    await model.close();
  }
});
