// execute_code over ACP: a program's tool calls go through the session's own tool path
// (permissions, modes, journal), show as nested steps, and only the program's output reaches
// the model. Real processes, real pipes, a scripted model server.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { makeTempDir, scriptedConfig, sessionUpdates, startAgent, type PermissionPolicy } from "../support/in-process-agent";
import { useScriptedModel } from "../support/scripted-model";
import { sandboxSkip } from "../support/sandbox";
import { waitForChangeIn } from "../support/wait";

const scripted = useScriptedModel();
const allowOnce: PermissionPolicy = () => "allow_once";
const program = (id: string, code: string, language?: "python" | "javascript") => ({ toolCalls: [{ id, name: "execute_code", arguments: { code, ...(language ? { language } : {}) } }] });

function toolResult(body: any, id: string): string {
  return body.messages.find((m: any) => m.role === "tool" && m.tool_call_id === id)?.content ?? "";
}
function resultOf(model: { requests: { body: any }[] }, id: string): any {
  const text = model.requests.map((r) => toolResult(r.body, id)).find(Boolean);
  assert.ok(text, `a result for ${id}`);
  return JSON.parse(text);
}

async function project(): Promise<string> {
  const dir = await makeTempDir();
  await writeFile(path.join(dir, "a.txt"), "alpha TODO one\n");
  await writeFile(path.join(dir, "b.txt"), "beta\n");
  await writeFile(path.join(dir, "c.txt"), "gamma TODO two\n");
  return dir;
}

const PYTHON = `
from hermes_tools import read_file, search_files, patch, ToolError
found = search_files("TODO", target="content")
files = sorted({m["path"] for m in found["matches"]})
print("files:", files)
print("a:", read_file("a.txt")["content"].strip())
patch(path="c.txt", old_string="gamma", new_string="GAMMA")
try:
    read_file("missing.txt")
except ToolError as error:
    print("error:", "not found" in str(error).lower())
`;

const JAVASCRIPT = `
const { read_file, search_files, patch } = require("hermes_tools");
const found = await search_files({ pattern: "TODO" });
console.log("count:", new Set(found.matches.map((m) => m.path)).size);
console.log("b:", (await read_file("b.txt")).content.trim());
await patch({ path: "b.txt", old_string: "beta", new_string: "BETA" });
await read_file("missing.txt").catch((error) => console.log("rejected:", error.name));
`;

test("a Python and a JavaScript program read, search and patch through hermes_tools; steps nest in the card", async () => {
  const model = scripted();
  const dir = await project();
  const hermes = await startAgent({ config: scriptedConfig(model.url), permission: allowOnce });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(dir);
    model.enqueue(program("py", PYTHON, "python"), program("js", JAVASCRIPT, "javascript"), { text: "done" });
    await hermes.prompt(sessionId, "survey");
    const py = resultOf(model, "py");
    assert.equal(py.exit_code, 0, py.output);
    assert.match(py.output, /files: \['a\.txt', 'c\.txt'\]/);
    assert.match(py.output, /a: 1\|alpha TODO one/);
    assert.match(py.output, /error: True/);
    assert.equal(py.tool_calls, 4);
    assert.equal(await readFile(path.join(dir, "c.txt"), "utf8"), "GAMMA TODO two\n");
    const js = resultOf(model, "js");
    assert.equal(js.exit_code, 0, js.output);
    assert.match(js.output, /count: 2/);
    assert.match(js.output, /b: 1\|beta/);
    assert.match(js.output, /rejected: ToolError/);
    assert.equal(await readFile(path.join(dir, "b.txt"), "utf8"), "BETA\n");
    // The nested steps are tool calls of their own, linked to their parent; their results never reach the model.
    const nested = sessionUpdates(hermes, sessionId).filter((u: any) => u.sessionUpdate === "tool_call" && u._meta?.["hermes/parentToolCallId"]);
    assert.equal(nested.filter((u: any) => u._meta["hermes/parentToolCallId"] === "py").length, 4);
    const last = model.requests.at(-1)!.body.messages;
    assert.ok(!last.some((m: any) => m.role === "tool" && String(m.tool_call_id).startsWith("py.")), "nested results stay out of the context");
    // Journaled: a reload shows the same steps, each right after its program's card.
    const before = sessionUpdates(hermes, sessionId).length;
    await hermes.agent.request("session/load", { sessionId, cwd: dir, mcpServers: [] });
    const replayed = sessionUpdates(hermes, sessionId).slice(before).filter((u: any) => u.sessionUpdate === "tool_call");
    assert.deepEqual(
      replayed.map((u: any) => [u.toolCallId, u._meta?.["hermes/parentToolCallId"]]),
      [["py", undefined], ["py.1", "py"], ["py.2", "py"], ["py.3", "py"], ["py.4", "py"], ["js", undefined], ["js.1", "js"], ["js.2", "js"], ["js.3", "js"], ["js.4", "js"]],
    );
  } finally {
    await hermes.close();
  }
});

test("a write outside the workspace from a program asks exactly as a direct write does; dont_ask's refusals apply", async () => {
  const model = scripted();
  const dir = await project();
  const outside = await makeTempDir("hermes-outside-");
  const target = path.join(outside, "x.txt");
  const hermes = await startAgent({ config: scriptedConfig(model.url), permission: allowOnce });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(dir);
    const code = `from hermes_tools import write_file\nprint(write_file(path=${JSON.stringify(target)}, content="from program\\n").get("path", "written"))`;
    model.enqueue({ toolCalls: [{ id: "direct", name: "write_file", arguments: { path: target, content: "direct\n" } }] }, program("prog", code, "python"), { text: "ok" });
    await hermes.prompt(sessionId, "write outside twice");
    const direct = hermes.permissionRequests.find((r) => r.toolCall.toolCallId === "direct");
    const nested = hermes.permissionRequests.find((r) => r.toolCall.toolCallId === "prog.1");
    assert.ok(direct && nested, "both writes asked");
    assert.deepEqual(nested.options, direct.options, "the same choices");
    assert.equal(nested.toolCall.title, direct.toolCall.title);
    assert.equal(await readFile(target, "utf8"), "from program\n");
  } finally {
    await hermes.close();
  }

  const refusing = await startAgent({ config: scriptedConfig(model.url, { agent: { default_mode: "dont_ask" } }) });
  try {
    await refusing.initialize();
    const { sessionId } = await refusing.newSession(dir);
    const code = `from hermes_tools import write_file, ToolError\ntry:\n    write_file(path=${JSON.stringify(target)}, content="sneaky\\n")\nexcept ToolError as e:\n    print("refused:", e)`;
    model.enqueue(program("dont", code, "python"), { text: "ok" });
    await refusing.prompt(sessionId, "try again");
    assert.equal(refusing.permissionRequests.length, 0, "dont_ask never asks");
    assert.equal(await readFile(target, "utf8"), "from program\n", "the refused write did not happen");
    const result = resultOf(model, "dont");
    // The program ran (sandboxed commands run in dont_ask); its write was refused as a direct one is.
    assert.match(result.output, /^refused: Refused in Don't ask mode: a file tool changes nothing outside the workspace/);
  } finally {
    await refusing.close();
  }
});

test("limits: tool calls, output, memory and wall time", async () => {
  const model = scripted();
  const dir = await project();
  const hermes = await startAgent({
    config: scriptedConfig(model.url, { code_exec: { max_tool_calls: 2, max_output_chars: 2000, timeout_seconds: 2, memory_mb: 256 } }),
    permission: allowOnce,
  });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(dir);
    const calls = `from hermes_tools import read_file, ToolError\nfor name in ["a.txt", "b.txt", "c.txt"]:\n    try:\n        read_file(name)\n        print("read", name)\n    except ToolError as e:\n        print("stopped:", e)`;
    const loud = `print("x" * 10000)`;
    const slow = `import time\ntime.sleep(60)`;
    const hungry = `try:\n    block = bytearray(600 * 1024 * 1024)\n    print("allocated")\nexcept MemoryError:\n    print("memory capped")`;
    model.enqueue(program("calls", calls, "python"), program("loud", loud, "python"), program("hungry", hungry, "python"), program("slow", slow, "python"), { text: "ok" });
    const started = Date.now();
    await hermes.prompt(sessionId, "limits");
    const counted = resultOf(model, "calls");
    assert.match(counted.output, /read a\.txt\nread b\.txt\nstopped: tool call limit reached \(2 per program\)/);
    assert.equal(counted.tool_calls, 2);
    const truncated = resultOf(model, "loud");
    assert.ok(truncated.output.length <= 2100, `output capped (${truncated.output.length})`);
    assert.match(truncated.note, /dropped/);
    assert.equal(resultOf(model, "hungry").output, "memory capped\n");
    const killed = resultOf(model, "slow");
    assert.match(killed.error, /Killed after 2 s/);
    assert.ok(Date.now() - started < 30_000, "the sleeping program did not run its 60 s");
  } finally {
    await hermes.close();
  }
});

test("hostile RPC input gets error replies, and the channel still works after it", async () => {
  const model = scripted();
  const dir = await project();
  const hermes = await startAgent({ config: scriptedConfig(model.url), permission: allowOnce });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(dir);
    const code = [
      "import os, json",
      "req = os.fdopen(3, 'w'); rep = os.fdopen(4, 'r')",
      "def raw(line):",
      "    req.write(line + '\\n'); req.flush()",
      "    return json.loads(rep.readline())",
      "print(raw('not json')['error'])",
      "print(raw(json.dumps({'id': 1, 'tool': 'read_file', 'args': ['a.txt']}))['error'].splitlines()[0])",
      "print(raw(json.dumps({'id': 2, 'tool': 'read_file', 'args': {}, 'extra': 1}))['ok'])",
      "print(raw('{\"id\": 3, \"tool\": \"' + 'x' * 1200000 + '\"}')['error'])",
      "print(raw(json.dumps({'id': 4, 'tool': 'memory', 'args': {}}))['error'])",
      "print(raw(json.dumps({'id': 5, 'tool': 'execute_code', 'args': {'code': 'print(1)'}}))['error'])",
      "print(raw(json.dumps({'id': 6, 'tool': 'no_such_tool', 'args': {}}))['error'][:40])",
      "print('still:', raw(json.dumps({'id': 7, 'tool': 'read_file', 'args': {'path': 'b.txt'}}))['result']['content'].strip())",
    ].join("\n");
    model.enqueue(program("hostile", code, "python"), { text: "ok" });
    await hermes.prompt(sessionId, "poke");
    const result = resultOf(model, "hostile");
    assert.equal(result.exit_code, 0, result.output);
    const lines = result.output.trim().split("\n");
    assert.equal(lines[0], "request is not valid JSON");
    assert.match(lines[1], /^malformed request/);
    assert.equal(lines[2], "False");
    assert.match(lines[3], /request too large/);
    assert.equal(lines[4], "memory cannot be called from inside execute_code.");
    assert.equal(lines[5], "execute_code cannot be called from inside execute_code.");
    assert.match(lines[6], /Unknown tool "no_such_tool"/);
    assert.equal(lines[7], "still: 1|beta");
  } finally {
    await hermes.close();
  }
});

/** Host pids of processes whose command line is exactly `argv`. */
function processesRunning(argv: string[]): number[] {
  const wanted = `${argv.join("\0")}\0`;
  return readdirSync("/proc").filter((entry) => {
    if (!/^\d+$/.test(entry)) return false;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, "latin1") !== wanted) return false;
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
    } catch {
      return false; // expected: gone while we looked
    }
  }).map(Number);
}

test("cancelling the turn mid-program kills the program and what it started; no orphan", async () => {
  const model = scripted();
  const dir = await project();
  const seconds = `${400 + Math.floor(Math.random() * 500)}.${process.pid}`;
  const code = `import subprocess, time\nfrom hermes_tools import write_file\nsubprocess.Popen(["sleep", "${seconds}"])\nwrite_file(path="started.txt", content="yes")\ntime.sleep(600)`;
  const hermes = await startAgent({ config: scriptedConfig(model.url), permission: allowOnce });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(dir);
    model.enqueue(program("long", code, "python"));
    const prompt = hermes.prompt(sessionId, "run long");
    await waitForChangeIn(dir, () => existsSync(path.join(dir, "started.txt")), 10_000, "the program's nested write");
    // Seen in /proc a moment after the program's next step, on a loaded machine: looked for until it shows.
    for (let i = 0; i < 100 && processesRunning(["sleep", seconds]).length === 0; i++) await sleep(100);
    assert.equal(processesRunning(["sleep", seconds]).length, 1, "the program's child runs");
    await hermes.agent.notify(acp.methods.agent.session.cancel, { sessionId });
    const response = await prompt;
    assert.equal(response.stopReason, "cancelled");
    const end = sessionUpdates(hermes, sessionId).find((u: any) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "long" && u.status === "failed");
    assert.ok(end, "the card ends");
    for (let i = 0; i < 50 && processesRunning(["sleep", seconds]).length > 0; i++) await sleep(100);
    assert.deepEqual(processesRunning(["sleep", seconds]), [], "nothing the program started survives");
  } finally {
    await hermes.close();
  }
});

test("the program runs in the session's OS sandbox, offline even where commands have the network; no write outside, no provider key", { skip: sandboxSkip() }, async () => {
  const model = scripted();
  const dir = await project();
  const outside = await makeTempDir("hermes-outside-");
  const port = new URL(model.url).port;
  const code = [
    "import os, socket",
    "try:",
    `    open(${JSON.stringify(path.join(outside, "direct.txt"))}, "w").write("x")`,
    "    print('wrote outside')",
    "except OSError as e:",
    "    print('write blocked')",
    "try:",
    `    socket.create_connection(("127.0.0.1", ${port}), timeout=3)`,
    "    print('network reached')",
    "except OSError:",
    "    print('network blocked')",
    "print('key:', os.environ.get('HERMES_TEST_SECRET_KEY', 'absent'))",
  ].join("\n");
  const hermes = await startAgent({ config: scriptedConfig(model.url, { terminal: { sandbox: "on", network: { allowed_domains: ["*"] } } }), permission: allowOnce, env: { HERMES_TEST_SECRET_KEY: "sk-should-not-pass" } });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(dir);
    model.enqueue(program("boxed", code, "python"), { text: "ok" });
    await hermes.prompt(sessionId, "escape");
    const result = resultOf(model, "boxed");
    assert.equal(result.output, "write blocked\nnetwork blocked\nkey: absent\n");
    assert.ok(!existsSync(path.join(outside, "direct.txt")));
  } finally {
    await hermes.close();
  }
});

test("hermes_tools is also an ES module, and a JavaScript program's throw gives its exit status and stderr", async () => {
  const model = scripted();
  const dir = await project();
  const hermes = await startAgent({ config: scriptedConfig(model.url), permission: allowOnce });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(dir);
    const esm = `import { read_file } from "hermes_tools";\nconst { content } = await read_file({ path: "a.txt" });\nconsole.log(content.trim());`;
    const throws = `throw new Error("boom from the program");`;
    model.enqueue(program("esm", esm, "javascript"), program("throws", throws, "javascript"), { text: "ok" });
    await hermes.prompt(sessionId, "esm");
    const imported = resultOf(model, "esm");
    assert.equal(imported.exit_code, 0, imported.output);
    assert.equal(imported.output, "1|alpha TODO one\n");
    const thrown = resultOf(model, "throws");
    assert.equal(thrown.exit_code, 1);
    assert.match(thrown.output, /boom from the program/);
  } finally {
    await hermes.close();
  }
});

test("where commands run in the editor's terminals, the program still runs as Hermes's own sandboxed process", async () => {
  const model = scripted();
  const dir = await project();
  const hermes = await startAgent({ config: scriptedConfig(model.url, { terminal: { editor_terminals: "always" } }), serveTerminal: true, permission: allowOnce });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(dir);
    model.enqueue(program("here", `from hermes_tools import read_file\nprint(read_file("b.txt")["content"].strip())`, "python"), { text: "ok" });
    await hermes.prompt(sessionId, "read");
    const result = resultOf(model, "here");
    assert.equal(result.exit_code, 0, JSON.stringify(result));
    assert.equal(result.output, "1|beta\n");
  } finally {
    await hermes.close();
  }
});
