// Hooks in Claude Code's format, over the real protocol with real hook scripts (sh and node):
// PreToolUse blocks a command and rewrites another's input, denies an edit with a reason the
// model reads; PostToolUse adds context; Stop sends the agent on once (and not forever);
// SessionStart and UserPromptSubmit add context or block; a hook that times out or crashes
// never breaks the turn; a project's hooks run only once trusted, are asked about again when the
// file changes, and never run in dont_ask.
import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import * as acp from "@agentclientprotocol/sdk/unstable";
import { stagePlugin } from "../../acp-server/plugins/plugin-install";
import { journalPath } from "../../acp-server/sessions/journal";
import { agentText, makeTempDir, scriptedConfig, startAgent } from "../support/in-process-agent";
import { copyPluginFixture } from "../support/plugin-fixtures";
import { useScriptedModel } from "../support/scripted-model";
import { waitForChangeIn } from "../support/wait";

const scripted = useScriptedModel();

/** Writes an executable hook script into `dir` and returns its path. */
function script(dir: string, name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  chmodSync(file, 0o755);
  return file;
}

const lastMessages = (model: { requests: { body: any }[] }): string => JSON.stringify(model.requests.at(-1)!.body.messages);

test("PreToolUse (matcher Bash, exit 2) blocks a command: it does not run, and the model reads the hook's reason", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const scripts = await makeTempDir("hermes-hook-scripts-");
  const guard = script(scripts, "no-rm.sh", `#!/bin/sh\ninput=$(cat)\ncase "$input" in *rm\\ *) echo "rm is not allowed in this repository" >&2; exit 2;; esac\nexit 0\n`);
  const hermes = await startAgent({ config: scriptedConfig(model.url, { hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: guard }] }] } }) });
  try {
    writeFileSync(path.join(project, "keep.txt"), "keep\n");
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    model.enqueue({ toolCalls: [{ name: "terminal", arguments: { command: "rm keep.txt" } }] }, { text: "Could not remove it." });
    await hermes.prompt(sessionId, "remove keep.txt");
    assert.ok(existsSync(path.join(project, "keep.txt")), "the blocked command did not run");
    assert.match(lastMessages(model), /A PreToolUse hook blocked this call: rm is not allowed in this repository/);
    // The run is in the session's journal, with what it decided; a reload replays the conversation without it.
    const journal = readFileSync(journalPath(path.join(hermes.home, "sessions"), sessionId), "utf8");
    const record = journal.split("\n").filter(Boolean).map((line) => JSON.parse(line)).find((entry) => entry.hook);
    assert.deepEqual(record && [record.hook.event, record.hook.exit, record.hook.origin], ["PreToolUse", 2, "config.yaml"]);
    assert.match(record.hook.decision, /blocked: rm is not allowed/);
    await hermes.agent.request(acp.methods.agent.session.load, { sessionId, cwd: project, mcpServers: [] });
  } finally {
    await hermes.close();
  }
});

test("PreToolUse rewrites a command's input (node script, updatedInput); the card says which hook did", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const scripts = await makeTempDir("hermes-hook-scripts-");
  const rewrite = script(
    scripts,
    "rewrite.mjs",
    `#!/usr/bin/env node\nlet text = "";\nprocess.stdin.on("data", (c) => (text += c));\nprocess.stdin.on("end", () => {\n  const input = JSON.parse(text);\n  const command = input.tool_input.command.replace("original", "rewritten");\n  process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", permissionDecisionReason: "safe echo", updatedInput: { ...input.tool_input, command } } }));\n});\n`,
  );
  const hermes = await startAgent({ config: scriptedConfig(model.url, { hooks: { PreToolUse: [{ matcher: "terminal", hooks: [{ type: "command", command: `node ${rewrite}` }] }] } }) });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    model.enqueue({ toolCalls: [{ name: "terminal", arguments: { command: "echo original > out.txt" } }] }, { text: "Done." });
    await hermes.prompt(sessionId, "write it");
    assert.equal(readFileSync(path.join(project, "out.txt"), "utf8"), "rewritten\n");
    const card = JSON.stringify(hermes.updates.filter((n) => n.sessionId === sessionId).map((n) => n.update));
    assert.match(card, /Hook: node .*rewrite\.mjs \(config\.yaml\): allow \(safe echo\)/);
    assert.match(card, /rewrote the input/);
  } finally {
    await hermes.close();
  }
});

test("PreToolUse denies an edit (Edit|Write, JSON deny) with a reason the model sees; PostToolUse adds context after an allowed read", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const scripts = await makeTempDir("hermes-hook-scripts-");
  const deny = script(scripts, "deny.sh", `#!/bin/sh\ncat >/dev/null\necho '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"generated files are read-only"}}'\n`);
  const after = script(scripts, "after.sh", `#!/bin/sh\ncat >/dev/null\necho '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"remember: run the linter after reading"}}'\n`);
  const hermes = await startAgent({
    config: scriptedConfig(model.url, {
      hooks: {
        PreToolUse: [{ matcher: "Edit|Write", hooks: [{ type: "command", command: deny }] }],
        PostToolUse: [{ matcher: "Read", hooks: [{ type: "command", command: after }] }],
      },
    }),
  });
  try {
    writeFileSync(path.join(project, "gen.txt"), "generated\n");
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    model.enqueue({ toolCalls: [{ name: "write_file", arguments: { path: "gen.txt", content: "changed\n" } }] }, { text: "Left it." });
    await hermes.prompt(sessionId, "change gen.txt");
    assert.equal(readFileSync(path.join(project, "gen.txt"), "utf8"), "generated\n");
    assert.match(lastMessages(model), /generated files are read-only/);

    model.enqueue({ toolCalls: [{ name: "read_file", arguments: { path: "gen.txt" } }] }, { text: "Read it." });
    await hermes.prompt(sessionId, "read gen.txt");
    assert.match(lastMessages(model), /Hook context: remember: run the linter after reading/);
  } finally {
    await hermes.close();
  }
});

test("Stop sends the agent on once with its reason (stop_hook_active guards the loop); SessionStart and UserPromptSubmit add context; UserPromptSubmit can block", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const scripts = await makeTempDir("hermes-hook-scripts-");
  const stop = script(scripts, "stop.mjs", `#!/usr/bin/env node\nlet t="";process.stdin.on("data",(c)=>t+=c);process.stdin.on("end",()=>{const i=JSON.parse(t);if(!i.stop_hook_active)process.stdout.write(JSON.stringify({decision:"block",reason:"run the tests first"}));});\n`);
  const start = script(scripts, "start.sh", `#!/bin/sh\ncat >/dev/null\necho "Session context: the main branch is frozen"\n`);
  const submit = script(scripts, "submit.sh", `#!/bin/sh\ninput=$(cat)\ncase "$input" in *password*) echo "prompts must not contain passwords" >&2; exit 2;; esac\necho "Ticket: HERM-42"\n`);
  const hermes = await startAgent({
    config: scriptedConfig(model.url, {
      hooks: {
        Stop: [{ hooks: [{ type: "command", command: `node ${stop}` }] }],
        SessionStart: [{ matcher: "startup", hooks: [{ type: "command", command: start }] }],
        UserPromptSubmit: [{ hooks: [{ type: "command", command: submit }] }],
      },
    }),
  });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    model.enqueue({ text: "Done." }, { text: "Tests pass." });
    const before = model.requests.length;
    await hermes.prompt(sessionId, "finish the feature");
    assert.equal(model.requests.length - before, 2, "one continuation, not a loop");
    const first = JSON.stringify(model.requests[before]!.body.messages);
    assert.match(first, /Session context: the main branch is frozen/);
    assert.match(first, /Ticket: HERM-42/);
    assert.match(lastMessages(model), /A Stop hook asks you to continue before finishing: run the tests first/);
    assert.match(agentText(hermes, sessionId), /Tests pass\./);

    const calls = model.requests.length;
    await hermes.prompt(sessionId, "my password is hunter2");
    assert.equal(model.requests.length, calls, "a blocked prompt reaches no model");
    assert.match(agentText(hermes, sessionId), /A UserPromptSubmit hook blocked this prompt.*prompts must not contain passwords/s);
  } finally {
    await hermes.close();
  }
});

test("a hook that times out or crashes never breaks the turn: the tool runs, the user is told", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const scripts = await makeTempDir("hermes-hook-scripts-");
  const slow = script(scripts, "slow.sh", `#!/bin/sh\nsleep 30\n`);
  const crash = script(scripts, "crash.sh", `#!/bin/sh\necho "boom" >&2\nexit 1\n`);
  const hermes = await startAgent({
    config: scriptedConfig(model.url, { hooks: { PreToolUse: [{ matcher: "Read", hooks: [{ type: "command", command: slow, timeout: 1 }, { type: "command", command: crash }] }] } }),
  });
  try {
    writeFileSync(path.join(project, "a.txt"), "alpha\n");
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    model.enqueue({ toolCalls: [{ name: "read_file", arguments: { path: "a.txt" } }] }, { text: "Read." });
    const answer = await hermes.prompt(sessionId, "read a.txt");
    assert.equal(answer.stopReason, "end_turn");
    assert.match(lastMessages(model), /alpha/, "the read ran");
    const said = JSON.stringify(hermes.updates.filter((n) => n.sessionId === sessionId).map((n) => n.update));
    assert.match(said, /took longer than 1 s and was stopped/);
    assert.match(said, /failed \(exit 1\): boom/);
  } finally {
    await hermes.close();
  }
});

test("a project's hooks run only once trusted, are asked about again after an edit, and never run in dont_ask", async () => {
  const model = scripted();
  const project = await makeTempDir();
  mkdirSync(path.join(project, ".hermes"));
  const marker = path.join(project, "hook-ran.log");
  const hooksFile = path.join(project, ".hermes", "hooks.json");
  const writeHooks = (word: string) =>
    writeFileSync(hooksFile, JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Read", hooks: [{ type: "command", command: `echo ${word} >> ${marker}` }] }] } }));
  writeHooks("first");
  writeFileSync(path.join(project, "a.txt"), "alpha\n");
  let trustAnswer = "skip";
  const trustAsks: string[] = [];
  const hermes = await startAgent({
    config: scriptedConfig(model.url),
    permission: (request) => {
      if (request.toolCall.toolCallId.startsWith("hooks-trust")) {
        trustAsks.push(JSON.stringify(request.toolCall));
        return { outcome: { outcome: "selected", optionId: trustAnswer } };
      }
      return "allow";
    },
  });
  const readOnce = async (sessionId: string) => {
    model.enqueue({ toolCalls: [{ name: "read_file", arguments: { path: "a.txt" } }] }, { text: "Read." });
    await hermes.prompt(sessionId, "read a.txt");
  };
  try {
    await hermes.initialize();
    const first = await hermes.newSession(project);
    await readOnce(first.sessionId);
    assert.equal(trustAsks.length, 1, "asked once");
    assert.match(trustAsks[0]!, /echo first >> /, "the card shows the command");
    assert.ok(!existsSync(marker), "not run before trust");

    trustAnswer = "trust";
    const second = await hermes.newSession(project);
    await readOnce(second.sessionId);
    assert.equal(readFileSync(marker, "utf8"), "first\n", "run after trust");
    const third = await hermes.newSession(project);
    await readOnce(third.sessionId);
    assert.equal(trustAsks.length, 2, "a trusted file is not asked about again");

    writeHooks("second");
    trustAnswer = "skip";
    const fourth = await hermes.newSession(project);
    await readOnce(fourth.sessionId);
    assert.equal(trustAsks.length, 3, "an edited file is asked about again");
    assert.doesNotMatch(readFileSync(marker, "utf8"), /second/);

    const fifth = await hermes.newSession(project);
    await hermes.agent.request(acp.methods.agent.session.setMode, { sessionId: fifth.sessionId, modeId: "dont_ask" });
    await readOnce(fifth.sessionId);
    assert.equal(trustAsks.length, 3, "dont_ask never asks");
    assert.doesNotMatch(readFileSync(marker, "utf8"), /second/, "and never runs untrusted hooks");
  } finally {
    await hermes.close();
  }
});

test("a plugin's hooks/hooks.json runs with CLAUDE_PLUGIN_ROOT set to the plugin's folder", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const hermes = await startAgent({ config: scriptedConfig(model.url) });
  try {
    (await stagePlugin(hermes.home, copyPluginFixture(), "/")).commit();
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    model.enqueue({ toolCalls: [{ name: "terminal", arguments: { command: "echo from-the-agent" } }] }, { text: "Ran." });
    await hermes.prompt(sessionId, "run it");
    const log = readFileSync(path.join(hermes.home, "plugins", "code-review-kit", "commands.log"), "utf8");
    const input = JSON.parse(log.trim().split("\n")[0]!);
    assert.equal(input.hook_event_name, "PreToolUse");
    assert.equal(input.tool_name, "terminal");
    assert.equal(input.tool_input.command, "echo from-the-agent");
    assert.equal(input.session_id, sessionId);
  } finally {
    await hermes.close();
  }
});

test("subagents' tool calls pass the session's PreToolUse hooks; SubagentStop sends a subagent on once; PreCompact runs before /compress", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const scripts = await makeTempDir("hermes-hook-scripts-");
  const marker = path.join(scripts, "events.log");
  const guard = script(scripts, "guard.sh", `#!/bin/sh\ncat >/dev/null\necho "PreToolUse" >> ${marker}\necho "no reading in subagents today" >&2\nexit 2\n`);
  const subStop = script(scripts, "substop.mjs", `#!/usr/bin/env node\nlet t="";process.stdin.on("data",(c)=>t+=c);process.stdin.on("end",()=>{const i=JSON.parse(t);if(!i.stop_hook_active)process.stdout.write(JSON.stringify({decision:"block",reason:"double-check your answer"}));});\n`);
  const compact = script(scripts, "compact.sh", `#!/bin/sh\ncat >> ${marker}\necho >> ${marker}\n`);
  const hermes = await startAgent({
    config: scriptedConfig(model.url, {
      hooks: {
        PreToolUse: [{ matcher: "Read", hooks: [{ type: "command", command: guard }] }],
        SubagentStop: [{ hooks: [{ type: "command", command: `node ${subStop}` }] }],
        PreCompact: [{ hooks: [{ type: "command", command: compact }] }],
      },
    }),
  });
  try {
    writeFileSync(path.join(project, "a.txt"), "alpha\n");
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    model.enqueue(
      { toolCalls: [{ name: "delegate_task", arguments: { tasks: [{ goal: "Read a.txt" }] } }] },
      { toolCalls: [{ name: "read_file", arguments: { path: "a.txt" } }] },
      { text: "I could not read it." },
      { text: "Double-checked: still could not read it." },
      { text: "The subagent was blocked." },
    );
    await hermes.prompt(sessionId, "delegate the read");
    const subagentCalls = model.requests.map((request) => JSON.stringify(request.body.messages));
    assert.ok(subagentCalls.some((text) => /A PreToolUse hook blocked this call: no reading in subagents today/.test(text)), "the subagent's read went through the hook");
    assert.ok(subagentCalls.some((text) => /A SubagentStop hook asks you to continue before finishing: double-check your answer/.test(text)));
    assert.match(agentText(hermes, sessionId), /The subagent was blocked\./);

    // Too little to compress here (PreCompact is told all the same), so no summary reply is queued.
    await hermes.prompt(sessionId, "/compress");
    assert.match(readFileSync(marker, "utf8"), /"hook_event_name":"PreCompact".*"trigger":"manual"/);
  } finally {
    await hermes.close();
  }
});

test("SessionStart runs again after the context starts over (clear after /reset, compact after /compress) and adds its context; Notification hears a clarify question", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const scripts = await makeTempDir("hermes-hook-scripts-");
  const events = path.join(scripts, "events.log");
  // Each SessionStart says which source it heard, as context and in the log.
  const start = script(scripts, "start.cjs", `#!/usr/bin/env node\nlet t="";process.stdin.on("data",(c)=>t+=c);process.stdin.on("end",()=>{const i=JSON.parse(t);require("fs").appendFileSync(${JSON.stringify(events)},"start:"+i.source+"\\n");process.stdout.write("Context after "+i.source);});\n`);
  const notify = script(scripts, "notify.cjs", `#!/usr/bin/env node\nlet t="";process.stdin.on("data",(c)=>t+=c);process.stdin.on("end",()=>{const i=JSON.parse(t);require("fs").appendFileSync(${JSON.stringify(events)},"notify:"+i.message+"\\n");});\n`);
  const hermes = await startAgent({
    config: scriptedConfig(model.url, {
      hooks: {
        SessionStart: [{ hooks: [{ type: "command", command: `node ${start}` }] }],
        Notification: [{ hooks: [{ type: "command", command: `node ${notify}` }] }],
      },
      compression: { protect_last: 2 },
    }),
    elicitation: async () => ({ action: "accept", content: { answer: "the blue one" } }),
  });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    model.enqueue({ text: "One." });
    await hermes.prompt(sessionId, "first");
    assert.match(lastMessages(model), /Context after startup/);

    await hermes.prompt(sessionId, "/reset");
    model.enqueue({ text: "Two." });
    await hermes.prompt(sessionId, "after the reset");
    assert.match(lastMessages(model), /Context after clear/);
    assert.doesNotMatch(lastMessages(model), /Context after startup/);

    model.enqueue({ text: "Three." }, { text: "Four." }, { text: "Summary of the earlier turns." });
    await hermes.prompt(sessionId, "something to compress");
    await hermes.prompt(sessionId, "one more exchange");
    await hermes.prompt(sessionId, "/compress");
    model.enqueue({ toolCalls: [{ name: "clarify", arguments: { question: "Which colour?" } }] }, { text: "Blue it is." });
    await hermes.prompt(sessionId, "after the compression");
    const afterCompaction = model.requests.map((request) => JSON.stringify(request.body.messages)).find((text) => text.includes("after the compression"));
    assert.match(afterCompaction ?? "", /Context after compact/);
    assert.match(agentText(hermes, sessionId), /Blue it is\./);

    // Notification hooks run beside the question, never holding it up: wait for the line itself.
    await waitForChangeIn(scripts, () => readFileSync(events, "utf8").includes("notify:"), 15_000, "the Notification hook's line");
    const log = readFileSync(events, "utf8");
    assert.deepEqual(log.split("\n").filter((line) => line.startsWith("start:")), ["start:startup", "start:clear", "start:compact"]);
    assert.match(log, /notify:Hermes is waiting for your answer: Which colour\?/);
    assert.equal(model.pending, 0, "every scripted reply was used");
  } finally {
    await hermes.close();
  }
});

test("SessionEnd runs when the session closes (session/close), with the session's id and a reason", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const scripts = await makeTempDir("hermes-hook-scripts-");
  const events = path.join(scripts, "end.log");
  const end = script(scripts, "end.cjs", `#!/usr/bin/env node\nlet t="";process.stdin.on("data",(c)=>t+=c);process.stdin.on("end",()=>{require("fs").appendFileSync(${JSON.stringify(events)},t+"\\n");});\n`);
  const hermes = await startAgent({ config: scriptedConfig(model.url, { hooks: { SessionEnd: [{ hooks: [{ type: "command", command: `node ${end}` }] }] } }) });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    model.enqueue({ text: "Hello." });
    await hermes.prompt(sessionId, "hi");
    await hermes.agent.request(acp.methods.agent.session.close, { sessionId });
    await waitForChangeIn(scripts, () => existsSync(events) && readFileSync(events, "utf8").includes("SessionEnd"), 15_000, "the SessionEnd hook's line");
    const input = JSON.parse(readFileSync(events, "utf8").trim().split("\n")[0]!) as { hook_event_name: string; session_id: string; reason: string };
    assert.deepEqual([input.hook_event_name, input.session_id, input.reason], ["SessionEnd", sessionId, "other"]);
  } finally {
    await hermes.close();
  }
});
