// The real Claude Code as a child agent of Hermes, offline: @zed-industries/claude-agent-acp
// (installed by test/e2e/setup-claude.sh into .e2e-tools/claude/) talks to a scripted Anthropic
// Messages server. A Hermes parent, driven over ACP by a test client, delegates to "claude";
// Claude Code's Write raises a permission request that Hermes forwards to the test client.
// Checked: the child's steps stream into the parent's delegate_task card, the user's approval
// writes the file and a denial reaches Claude Code, and no Claude process is left afterwards.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { makeTempDir, ROOT, scriptedConfig, startHermes } from "../support/acp-harness";
import { callNumber, childPids, delegateCard, startRoutedModel, waitUntil } from "../support/delegation";
import { startScriptedAnthropic, type AnthropicReply, type RecordedRequest } from "../support/scripted-anthropic";

const CLAUDE_DIR = path.join(ROOT, ".e2e-tools", "claude");
const CLAUDE_ACP = path.join(CLAUDE_DIR, "node_modules", "@zed-industries", "claude-agent-acp", "dist", "index.js");
const installed = existsSync(CLAUDE_ACP);

/** The text of every tool_result block the request carries. */
function toolResults(request: RecordedRequest): string[] {
  const texts: string[] = [];
  for (const message of request.body?.messages ?? []) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content) {
      if (block.type !== "tool_result") continue;
      texts.push(typeof block.content === "string" ? block.content : JSON.stringify(block.content));
    }
  }
  return texts;
}

function toolNames(request: RecordedRequest): string[] {
  return (request.body?.tools ?? []).map((tool: any) => String(tool.name));
}

/** Claude Code's main loop: Write once, then report what the tool said. Side requests get plain text. */
function claudeScript(file: string) {
  return (request: RecordedRequest): AnthropicReply => {
    const write = toolNames(request).find((name) => name === "Write" || name.endsWith("__Write"));
    if (!write) return { text: "Scripted side reply" };
    const results = toolResults(request);
    if (results.length === 0) return { toolCalls: [{ name: write, input: { file_path: file, content: "written by claude\n" } }] };
    return { text: `Claude is done. The Write tool said: ${results.at(-1)}` };
  };
}

/** A process's state letter from /proc (R, S, Z…), or undefined once it is gone. */
function processState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0];
  } catch {
    return undefined;
  }
}

function describeProcess(pid: number): string {
  try {
    return `${pid} ${readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").trim()}`;
  } catch {
    return `${pid} (gone)`;
  }
}

/** A child that exited may stay a zombie for a moment until Node reaps it: wait for real ones. */
async function assertNoChildren(parent: number): Promise<void> {
  const running = () => childPids(parent).filter((pid) => processState(pid) !== "Z");
  assert.ok(await waitUntil(() => running().length === 0, 5_000), `children left: ${running().map(describeProcess).join("; ")}`);
}

/** Live processes whose command line mentions the Claude install. */
function claudeProcesses(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (cmdline.includes(CLAUDE_DIR) && stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z") pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

async function runWithClaude(answer: "allow" | "reject", script?: (request: RecordedRequest) => AnthropicReply) {
  const project = await makeTempDir("hermes-claude-project-");
  const claudeHome = await makeTempDir("hermes-claude-home-");
  const file = path.join(project, "hello.txt");
  const anthropic = await startScriptedAnthropic({ fallback: { handler: script ?? claudeScript(file) } });
  const parentModel = await startRoutedModel((request) =>
    callNumber(request) === 1
      ? { toolCalls: [{ id: "delegate-1", name: "delegate_task", arguments: { tasks: [{ goal: "Create hello.txt saying hello", agent: "claude" }] } }] }
      : { text: "Parent: Claude reported back." },
  );
  const hermes = await startHermes({
    config: scriptedConfig(parentModel.url, {
      delegation: {
        idle_timeout: 120,
        acp_agents: {
          claude: {
            command: process.execPath,
            args: [CLAUDE_ACP],
            env: {
              ANTHROPIC_BASE_URL: anthropic.url.replace(/\/v1$/, ""),
              ANTHROPIC_API_KEY: "dummy",
              HOME: claudeHome,
              CLAUDE_CONFIG_DIR: path.join(claudeHome, ".claude"),
              DISABLE_AUTOUPDATER: "1",
              DISABLE_TELEMETRY: "1",
              CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
              // As root (CI containers) Claude Code refuses to start unless told it is sandboxed.
              IS_SANDBOX: "1",
            },
          },
        },
      },
    }),
    permission: answer,
  });
  return { project, file, anthropic, parentModel, hermes };
}

test("Claude Code child: progress in the parent's card, a forwarded Write approved by the user", { skip: !installed && "run test/e2e/setup-claude.sh first" }, async () => {
  const { project, file, anthropic, parentModel, hermes } = await runWithClaude("allow");
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    const response = await hermes.prompt(sessionId, "Have Claude create hello.txt");
    assert.equal(response.stopReason, "end_turn", hermes.stderr().slice(-2000));

    const card = delegateCard(hermes, sessionId);
    const [result] = card.rawOutput.results;
    assert.equal(result.agent, "claude");
    assert.equal(result.status, "completed", JSON.stringify(result));
    assert.ok(result.tool_calls >= 1);
    assert.match(result.summary, /Claude is done/);
    assert.ok(card.progressTexts.some((text) => /claude: .*hello\.txt.* ✓/.test(text)), card.progressTexts.join("\n---\n"));

    assert.equal(hermes.permissionRequests.length, 1, JSON.stringify(hermes.permissionRequests));
    const permission = hermes.permissionRequests[0];
    assert.match(permission.toolCall.title ?? "", /^claude: /);
    assert.equal(permission.toolCall.toolCallId, card.id);
    assert.equal(readFileSync(file, "utf8"), "written by claude\n");
    assert.ok(anthropic.requests.length >= 2);
    assert.deepEqual(hermes.invalidUpdates, []);
    assert.ok(await waitUntil(() => claudeProcesses().length === 0, 5_000), `left over: ${claudeProcesses()}`);
    await assertNoChildren(hermes.child.pid!);
  } finally {
    await hermes.close();
    await anthropic.close();
    await parentModel.close();
  }
});

test("Claude Code child: the user's denial reaches Claude Code", { skip: !installed && "run test/e2e/setup-claude.sh first" }, async () => {
  const { project, file, anthropic, parentModel, hermes } = await runWithClaude("reject");
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    assert.equal((await hermes.prompt(sessionId, "Have Claude create hello.txt")).stopReason, "end_turn");
    assert.equal(hermes.permissionRequests.length, 1);
    assert.ok(!existsSync(file), "nothing written");
    // Claude Code's next model call carries the refusal as the Write tool's result.
    const results = anthropic.requests.flatMap(toolResults);
    assert.ok(results.some((text) => /reject|denied|declined|not allowed|permission/i.test(text)), results.join("\n"));
    const [result] = delegateCard(hermes, sessionId).rawOutput.results;
    assert.equal(result.status, "completed");
    assert.match(result.summary, /reject|denied|declined|not allowed|permission/i);
    assert.ok(await waitUntil(() => claudeProcesses().length === 0, 5_000), `left over: ${claudeProcesses()}`);
  } finally {
    await hermes.close();
    await anthropic.close();
    await parentModel.close();
  }
});

test("Claude Code child: cancelling the parent stops Claude Code and leaves no process", { skip: !installed && "run test/e2e/setup-claude.sh first" }, async () => {
  // Claude Code's main request streams a little and then hangs.
  const { project, anthropic, parentModel, hermes } = await runWithClaude("allow", (request) =>
    toolNames(request).some((name) => name.endsWith("Write")) ? { text: "Thinking about it", hang: true } : { text: "Scripted side reply" },
  );
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    const prompt = hermes.prompt(sessionId, "Have Claude create hello.txt");
    assert.ok(await waitUntil(() => anthropic.requests.some((r) => toolNames(r).some((name) => name.endsWith("Write"))), 60_000), "Claude Code is working");
    assert.ok(claudeProcesses().length > 0);
    await hermes.agent.notify(acp.methods.agent.session.cancel, { sessionId });
    assert.equal((await prompt).stopReason, "cancelled");
    assert.ok(await waitUntil(() => claudeProcesses().length === 0, 6_000), `left over: ${claudeProcesses()}`);
    await assertNoChildren(hermes.child.pid!);
  } finally {
    await hermes.close();
    await anthropic.close();
    await parentModel.close();
  }
});
