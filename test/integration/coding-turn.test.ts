// A whole coding turn over real stdio: the scripted model searches, reads, patches and
// runs a command; the editor sees each step, in order, with the right kinds and content.
import assert from "node:assert/strict";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { useScriptedModel } from "../support/scripted-model";
import { makeTempDir, scriptedConfig, sessionUpdates, startHermes } from "../support/acp-harness";

const scripted = useScriptedModel();

async function buggyProject(): Promise<string> {
  const dir = await makeTempDir("hermes-project-");
  await mkdir(path.join(dir, "src"));
  await writeFile(path.join(dir, "src", "math.js"), "export function add(a, b) {\n  return a - b;\n}\n");
  await writeFile(path.join(dir, "check.mjs"), 'import { add } from "./src/math.js";\nconsole.log("sum=" + add(2, 3));\n');
  return dir;
}

test("search, read, patch and run: the file changes and every step reaches the editor in order", async () => {
  const model = scripted();
  const project = await buggyProject();
  model.enqueue(
    { text: "Let me look.", toolCalls: [{ id: "c1", name: "search_files", arguments: { pattern: "function add", target: "content" } }] },
    { toolCalls: [{ id: "c2", name: "read_file", arguments: { path: "src/math.js" } }] },
    { reasoning: "The operator is wrong.", toolCalls: [{ id: "c3", name: "patch", arguments: { path: "src/math.js", old_string: "a - b", new_string: "a + b" } }] },
    { toolCalls: [{ id: "c4", name: "terminal", arguments: { command: "node check.mjs" } }] },
    { text: "Fixed: add() now adds." },
  );
  const hermes = await startHermes({ config: scriptedConfig(model.url) });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    const response = await hermes.prompt(sessionId, "Fix the add function");
    assert.equal(response.stopReason, "end_turn");

    assert.equal(await readFile(path.join(project, "src", "math.js"), "utf8"), "export function add(a, b) {\n  return a + b;\n}\n");

    const updates = sessionUpdates(hermes, sessionId);
    const toolStarts = updates.filter((u) => u.sessionUpdate === "tool_call");
    assert.deepEqual(
      toolStarts.map((u) => u.sessionUpdate === "tool_call" && [u.kind, u.title]),
      [
        ["search", toolStarts[0].sessionUpdate === "tool_call" ? toolStarts[0].title : ""],
        ["read", "read src/math.js"],
        ["edit", toolStarts[2].sessionUpdate === "tool_call" ? toolStarts[2].title : ""],
        ["execute", "$ node check.mjs"],
      ],
    );
    // Each call goes pending -> in_progress -> completed before the next one starts.
    const lifecycle = updates
      .filter((u) => u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update")
      .filter((u) => u.sessionUpdate === "tool_call" || u.status !== undefined)
      .map((u) => `${u.toolCallId}:${u.sessionUpdate === "tool_call" ? "start" : u.status}`);
    assert.deepEqual(lifecycle, ["c1:start", "c1:in_progress", "c1:completed", "c2:start", "c2:in_progress", "c2:completed", "c3:start", "c3:in_progress", "c3:completed", "c4:start", "c4:in_progress", "c4:completed"]);

    const patchDone = updates.find((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "c3" && u.status === "completed");
    assert.ok(patchDone && patchDone.sessionUpdate === "tool_call_update");
    const diff = patchDone.content?.find((c) => c.type === "diff");
    assert.ok(diff && diff.type === "diff", "the patch result carries a diff");
    assert.equal(diff.path, path.join(project, "src", "math.js"));
    assert.match(diff.oldText ?? "", /a - b/);
    assert.match(diff.newText, /a \+ b/);

    const thought = updates.filter((u) => u.sessionUpdate === "agent_thought_chunk").map((u) => (u.sessionUpdate === "agent_thought_chunk" && u.content.type === "text" ? u.content.text : "")).join("");
    assert.equal(thought, "The operator is wrong.");
    const chunks = updates.filter((u) => u.sessionUpdate === "agent_message_chunk");
    const text = chunks.map((u) => (u.sessionUpdate === "agent_message_chunk" && u.content.type === "text" ? u.content.text : "")).join("");
    assert.equal(text, "Let me look.Fixed: add() now adds.");
    assert.ok(chunks.length > 2, "text streams as several chunks, not one buffered message");

    // The edit asked for permission (default mode), showing the diff.
    assert.equal(hermes.permissionRequests.length, 1);
    assert.equal(hermes.permissionRequests[0].toolCall.toolCallId, "c3");
    assert.ok(hermes.permissionRequests[0].toolCall.content?.some((c) => c.type === "diff"));

    // The command's real output went back to the model.
    const last = model.requests.at(-1)!.body;
    const commandResult = last.messages.find((m: any) => m.role === "tool" && m.tool_call_id === "c4");
    assert.match(commandResult.content, /sum=5/);
    assert.match(commandResult.content, /"exit_code":0/);

    assert.deepEqual(hermes.invalidUpdates, [], "every session/update matches the ACP schema");
    assert.deepEqual(hermes.strayStdout, [], "stdout carries only JSON-RPC");
  } finally {
    await hermes.close();
  }
});
