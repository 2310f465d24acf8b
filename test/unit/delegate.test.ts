// The delegation engine's pure parts: the agent catalog, child tools and prompt, labels and the
// pool, the progress card, permission mapping, a child's transcript and its confined services.
import type * as acp from "@agentclientprotocol/sdk/unstable";
import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { AgentSession } from "../../acp-server/agent/session";
import { ConfigSchema } from "../../acp-server/config/schema";
import { agentCatalog, describeAgents, findCommand } from "../../acp-server/delegate/agents";
import { ChildServices, commandLine } from "../../acp-server/acp/child-agent/child-services";
import { pool, taskLabels } from "../../acp-server/delegate/delegation";
import { childAsk, childOutcome } from "../../acp-server/acp/child-agent/child-permissions";
import { boundSummary, ProgressBoard, renderTasks, type TaskView } from "../../acp-server/delegate/progress";
import { childTools, subagentPrompt } from "../../acp-server/delegate/subagent-setup";
import { ChildTranscript } from "../../acp-server/acp/child-agent/transcript";
import type { DisplayContent } from "../../acp-server/tools/context";
import { LocalFileAccess } from "../../acp-server/tools/local-files";
import { LocalShellRunner } from "../../acp-server/tools/local-shell";
import { builtinToolRegistry } from "../../acp-server/tools/all-tools";
import { SessionTools } from "../../acp-server/tools/tool-set";
import { makeTempDirSync } from "../support/temp-dirs";

test("config: delegation defaults", () => {
  const config = ConfigSchema.parse({});
  assert.deepEqual(
    { ...config.delegation },
    { max_concurrent_children: 3, max_iterations: 50, max_depth: 1, auto_approve: false, idle_timeout: 600, max_summary_chars: 4000, acp_agents: {} },
  );
  const custom = ConfigSchema.parse({ delegation: { acp_agents: { mine: { command: "x" } } } });
  assert.deepEqual(custom.delegation.acp_agents.mine, { command: "x", args: [], env: {}, env_passthrough: [], enabled: true });
  assert.equal(ConfigSchema.safeParse({ delegation: { acp_agents: { mine: { args: [] } } } }).success, false, "a command is required");
});

test("agent catalog: built-in defaults found on PATH, config entries win, disabled ones vanish, hermes is reserved", () => {
  const bin = makeTempDirSync();
  for (const name of ["gemini", "my-agent"]) {
    writeFileSync(path.join(bin, name), "#!/bin/sh\n");
    chmodSync(path.join(bin, name), 0o755);
  }
  const env = { PATH: bin };
  const catalog = agentCatalog(
    { codex: { command: "codex-acp", args: [], env: {}, env_passthrough: [], enabled: false }, mine: { command: "my-agent", args: ["--acp"], env: { A: "1" }, env_passthrough: ["MY_AGENT_KEY"], enabled: true }, hermes: { command: "evil", args: [], env: {}, env_passthrough: [], enabled: true } },
    env,
  );
  assert.deepEqual(
    catalog.map((entry) => [entry.name, entry.command, entry.args, entry.resolved, entry.configured]),
    [
      ["claude", "claude-agent-acp", [], undefined, false],
      ["gemini", "gemini", ["--acp"], path.join(bin, "gemini"), false],
      ["mine", "my-agent", ["--acp"], path.join(bin, "my-agent"), true],
    ],
  );
  // Child agents get their own credentials by name (built-ins know theirs), nothing else of Hermes'.
  assert.deepEqual(catalog.find((entry) => entry.name === "mine")?.envPassthrough, ["MY_AGENT_KEY"]);
  assert.ok(catalog.find((entry) => entry.name === "claude")?.envPassthrough.includes("ANTHROPIC_API_KEY"));
  assert.ok(!catalog.find((entry) => entry.name === "claude")?.envPassthrough.includes("OPENAI_API_KEY"));
  assert.equal(findCommand(path.join(bin, "gemini"), { PATH: "" }), path.join(bin, "gemini"));
  assert.equal(findCommand("./gemini", { PATH: "" }, bin), path.join(bin, "gemini"));
  assert.equal(findCommand("nope", env), undefined);
  const text = describeAgents(catalog);
  assert.match(text, /`claude`: `claude-agent-acp`, not found .*\(built-in default\)/);
  assert.match(text, /`mine`: `my-agent --acp`, found at/);
});

test("child tools: requested ∩ parent's, minus the blocked tools; delegate_task only below max_depth", () => {
  const registry = builtinToolRegistry();
  let parent = new AgentSession("p", "/tmp", "default", { tools: new SessionTools(registry) });
  const names = (filter: (tool: any) => boolean) => parent.tools.narrow(filter).list().map((tool) => tool.name);
  const all = childTools(parent, undefined, false);
  assert.ok(!names(all.filter).some((name) => ["delegate_task", "memory", "skill_manage", "clarify"].includes(name)));
  assert.ok(names(all.filter).includes("terminal"));
  const some = childTools(parent, ["file", "bogus"], false);
  assert.deepEqual(some.toolsets, ["file"]);
  assert.deepEqual(names(some.filter).sort(), ["apply_patch", "patch", "read_file", "search_files", "write_file"]);
  assert.ok(names(childTools(parent, ["delegation", "file"], true).filter).includes("delegate_task"));
  // A parent that is itself restricted passes its restriction on.
  parent = new AgentSession("p", "/tmp", "default", { tools: new SessionTools(registry).narrow((tool) => tool.name !== "write_file") });
  assert.ok(!names(childTools(parent, ["file"], false).filter).includes("write_file"));
});

test("subagent prompt: goal, context, task id and cwd; no persona", () => {
  const prompt = subagentPrompt({ task: { goal: "Fix the bug", context: "in src/a.ts" }, taskId: "s/c/task-1", cwd: "/w", toolNames: ["read_file"], maxIterations: 7 });
  assert.match(prompt, /^You are a subagent of Hermes/);
  assert.match(prompt, /# Goal\nFix the bug\n\n# Context\nin src\/a\.ts/);
  assert.match(prompt, /Task id: s\/c\/task-1\nWorking directory: \/w\nTools: read_file/);
  assert.match(prompt, /at most 7 model calls/);
  assert.doesNotMatch(subagentPrompt({ task: { goal: "g" }, taskId: "t", cwd: "/", toolNames: [], maxIterations: 1 }), /# Context/);
});

test("labels: agent names, numbered when repeated", () => {
  assert.deepEqual(taskLabels([{ goal: "a" }, { goal: "b", agent: "claude" }, { goal: "c", agent: "hermes" }]), ["subagent 1", "claude", "subagent 2"]);
  assert.deepEqual(taskLabels([{ goal: "a", agent: "gemini" }]), ["gemini"]);
});

test("pool: at most `limit` at once, results in order", async () => {
  // Each task waits until the test finishes it; they are finished out of order.
  const finish = new Map<number, () => void>();
  const startedTasks: number[] = [];
  let running = 0;
  let most = 0;
  let taskStarted: () => void = () => {};
  const nextStart = () => new Promise<void>((resolve) => (taskStarted = resolve));
  let started = nextStart();
  const results = pool([0, 1, 2, 3, 4], 2, async (task, index) => {
    most = Math.max(most, ++running);
    startedTasks.push(task);
    await new Promise<void>((resolve) => {
      finish.set(task, resolve);
      taskStarted();
    });
    running--;
    return index;
  });
  const finishAfterStart = async (task: number) => {
    while (!finish.has(task)) {
      await started;
      started = nextStart();
    }
    finish.get(task)!();
  };
  await finishAfterStart(1);
  await finishAfterStart(2);
  await finishAfterStart(0);
  await finishAfterStart(3);
  await finishAfterStart(4);
  assert.deepEqual(await results, [0, 1, 2, 3, 4]);
  assert.equal(most, 2);
  assert.deepEqual(startedTasks, [0, 1, 2, 3, 4]);
});

test("progress card: steps with marks, plan, text tail, outcome; batched sends; nothing after close", async (t) => {
  const view: TaskView = {
    label: "claude",
    goal: "Edit things\nmore",
    state: "running",
    steps: [
      { id: "1", title: "Edit src/x.ts", status: "completed" },
      { id: "2", title: "Run npm test", status: "running" },
      { id: "3", title: "Write y", status: "failed" },
    ],
    text: "Now checking",
    plan: [{ id: "1", content: "edit", status: "completed" }],
    notes: [],
  };
  const [block] = renderTasks([view]) as { type: "text"; text: string }[];
  assert.equal(block.text, "**claude** (task 1, running): Edit things\n  [x] edit\nclaude: Edit src/x.ts ✓\nclaude: Run npm test …\nclaude: Write y ✗\n> Now checking");

  // Fake timers: the batching interval passes when the test says so.
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const sent: DisplayContent[][] = [];
  const board = new ProgressBoard((content) => sent.push(content), 20);
  const task = board.add("subagent", "goal");
  task.started();
  task.step("a", "read x");
  task.stepStatus("a", "completed");
  t.mock.timers.tick(19);
  assert.equal(sent.length, 0, "batched");
  t.mock.timers.tick(1);
  assert.equal(sent.length, 1);
  assert.match((sent[0][0] as any).text, /subagent: read x ✓/);
  task.text("hello");
  board.close();
  t.mock.timers.tick(1_000);
  assert.equal(sent.length, 1, "nothing after close");
  for (let i = 0; i < 20; i++) task.step(`s${i}`, `step ${i}`, "completed");
  assert.match((board.content()[0] as any).text, /subagent: … 9 earlier steps/);
});

test("summary is bounded with a note", () => {
  assert.equal(boundSummary("  short  ", 10), "short");
  assert.equal(boundSummary("x".repeat(15), 10), `${"x".repeat(10)}\n[summary cut: 5 more characters]`);
});

test("permissions: a child's request as Hermes's question, and the answer as the child's option", () => {
  const request: acp.RequestPermissionRequest = {
    sessionId: "s",
    toolCall: { toolCallId: "t", title: "Write a.txt", kind: "edit", rawInput: { p: 1 }, locations: [{ path: "/w/a.txt" }], content: [{ type: "diff", path: "/w/a.txt", oldText: null, newText: "x" }, { type: "content", content: { type: "text", text: "why" } }] },
    options: [
      { optionId: "yes", name: "Allow", kind: "allow_once" },
      { optionId: "always", name: "Always", kind: "allow_always" },
      { optionId: "no", name: "Reject", kind: "reject_once" },
    ],
  };
  const { call, ask } = childAsk(request);
  assert.deepEqual(call, { title: "Write a.txt", kind: "edit", rawInput: { p: 1 }, locations: [{ path: "/w/a.txt" }] });
  assert.deepEqual(ask, { action: "other", title: "Write a.txt", content: [{ type: "diff", path: "/w/a.txt", oldText: null, newText: "x" }, { type: "text", text: "why" }] });
  const table: [Parameters<typeof childOutcome>[0], string | undefined][] = [
    ["allow_once", "yes"],
    ["allow_session", "always"],
    ["allow_always", "always"],
    ["reject", "no"],
    ["reject_always", "no"],
  ];
  for (const [answer, option] of table) assert.deepEqual(childOutcome(answer, request.options), { outcome: { outcome: "selected", optionId: option } }, answer);
  assert.deepEqual(childOutcome("reject", [request.options[0]]), { outcome: { outcome: "cancelled" } }, "no reject option: cancelled");
});

test("transcript: tool calls counted once, steps and plan on the card, final answer after the last tool", () => {
  const board = new ProgressBoard(() => {}, 1_000);
  const task = board.add("claude", "g");
  const transcript = new ChildTranscript(task);
  const updates: acp.SessionUpdate[] = [
    { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Let me look." } },
    { sessionUpdate: "tool_call", toolCallId: "1", title: "Read a.ts", status: "pending" },
    { sessionUpdate: "tool_call_update", toolCallId: "1", status: "completed" },
    { sessionUpdate: "tool_call", toolCallId: "2", title: "Edit a.ts" },
    { sessionUpdate: "tool_call_update", toolCallId: "2", title: "Edit src/a.ts" },
    { sessionUpdate: "tool_call_update", toolCallId: "2", status: "failed" },
    { sessionUpdate: "plan", entries: [{ content: "fix", priority: "high", status: "in_progress" }] },
    { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Done: " } },
    { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "fixed it." } },
  ];
  for (const update of updates) transcript.update(update);
  board.close();
  assert.equal(transcript.toolCalls, 2);
  assert.equal(transcript.answer, "Done: fixed it.");
  const text = (board.content()[0] as any).text;
  assert.match(text, /\[~\] fix\nclaude: Read a\.ts ✓\nclaude: Edit src\/a\.ts ✗/);
  const quiet = new ChildTranscript(new ProgressBoard(() => {}).add("x", "g"));
  quiet.update({ sessionUpdate: "tool_call", toolCallId: "1", title: "t" });
  quiet.update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "  " } });
  assert.equal(quiet.answer.trim(), "");
});

test("child services: fs confined to the task's folder (symlinks too); terminals run and are released", async () => {
  const root = makeTempDirSync();
  const outside = makeTempDirSync();
  mkdirSync(path.join(root, "sub"));
  writeFileSync(path.join(root, "sub", "a.txt"), "1\n2\n3\n");
  const services = new ChildServices(root, new LocalFileAccess(), new LocalShellRunner());
  assert.deepEqual(await services.readTextFile({ sessionId: "s", path: path.join(root, "sub/a.txt"), line: 2, limit: 1 }), { content: "2" });
  await services.writeTextFile({ sessionId: "s", path: path.join(root, "b.txt"), content: "b" });
  assert.equal(readFileSync(path.join(root, "b.txt"), "utf8"), "b");
  await assert.rejects(services.writeTextFile({ sessionId: "s", path: path.join(outside, "x"), content: "x" }), /outside this task's folder/);
  await assert.rejects(services.readTextFile({ sessionId: "s", path: path.join(root, "../etc/passwd") }), /outside this task's folder/);
  const { symlinkSync } = await import("node:fs");
  symlinkSync(outside, path.join(root, "link"));
  await assert.rejects(services.writeTextFile({ sessionId: "s", path: path.join(root, "link", "x"), content: "x" }), /outside this task's folder/);
  await assert.rejects(services.readTextFile({ sessionId: "s", path: path.join(root, "missing.txt") }), /not found/i);

  const { terminalId } = await services.createTerminal({ sessionId: "s", command: "printf", args: ["%s|", "it's", "two words"], cwd: path.join(root, "sub") });
  assert.deepEqual(await services.waitForExit({ sessionId: "s", terminalId }), { exitCode: 0, signal: null });
  assert.equal((await services.terminalOutput({ sessionId: "s", terminalId })).output, "it's|two words|");
  await assert.rejects(services.createTerminal({ sessionId: "s", command: "true", cwd: outside }), /outside this task's folder/);
  await services.releaseAll();
  await assert.rejects(services.terminalOutput({ sessionId: "s", terminalId }), /not found/i);
  assert.equal(commandLine("echo", ["a b", "c"]), "echo 'a b' c");
});

test("child services: a delegated agent cannot plant code for the user's git, by fs/write_text_file or by a command", async () => {
  const root = makeTempDirSync();
  const { execFileSync } = await import("node:child_process");
  execFileSync("git", ["init", "-q", "."], { cwd: root });
  const services = new ChildServices(root, new LocalFileAccess(), new LocalShellRunner());
  for (const file of [".git/hooks/pre-commit", ".git/config", "sub/.git", ".vscode/tasks.json"]) {
    await assert.rejects(services.writeTextFile({ sessionId: "s", path: path.join(root, file), content: "touch pwned" }), /may not change it/, file);
  }
  assert.equal(existsSync(path.join(root, ".git", "hooks", "pre-commit")), false);
  const { terminalId } = await services.createTerminal({ sessionId: "s", command: "sh", args: ["-c", "echo 'touch pwned' > .git/hooks/post-commit && chmod +x .git/hooks/post-commit"], cwd: root });
  await services.waitForExit({ sessionId: "s", terminalId });
  // The guard's check is registered first on the same exit: it has run by now.
  assert.equal(existsSync(path.join(root, ".git", "hooks", "post-commit")), false, "undone when the command ended");
  await services.releaseAll();
});
