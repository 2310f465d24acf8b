// Robust edits over ACP: `patch` with whitespace drift, and `apply_patch` across several files
// with one permission request carrying every file's diff, all or nothing, after a checkpoint.
import type * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { makeTempDir, scriptedConfig, startAgent, type PermissionPolicy } from "../support/in-process-agent";
import { useScriptedModel } from "../support/scripted-model";

const scripted = useScriptedModel();

const call = (id: string, name: string, args: Record<string, unknown>) => ({ toolCalls: [{ id, name, arguments: args }] });
/** Allows each tool call once; confirms a restore (/undo). */
const allowOnce: PermissionPolicy = (request) =>
  request.toolCall.toolCallId.startsWith("restore-") ? "restore" : (request.options.find((option) => option.kind === "allow_once")?.optionId ?? "cancelled");

function toolResult(requests: { body: any }[], id: string): string {
  for (const request of requests) {
    const message = request.body.messages.find((m: any) => m.role === "tool" && m.tool_call_id === id);
    if (message) return typeof message.content === "string" ? message.content : JSON.stringify(message.content);
  }
  return "";
}

test("patch with indentation drift and CRLF is applied once, re-indented, over ACP", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const file = path.join(project, "app.ts");
  await writeFile(file, "class App {\r\n\tstart() {\r\n\t\treturn 1;\r\n\t}\r\n}\r\n");
  const hermes = await startAgent({ config: scriptedConfig(model.url), permission: allowOnce });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    model.enqueue(
      call("p1", "patch", { path: "app.ts", old_string: "start() {\n    return 1;\n}", new_string: "start() {\n    const value = 2;\n    return value;\n}" }),
      { text: "done" },
    );
    await hermes.prompt(sessionId, "change start");
    assert.equal(await readFile(file, "utf8"), "class App {\r\n\tstart() {\r\n\t\tconst value = 2;\r\n\t\treturn value;\r\n\t}\r\n}\r\n");
    assert.match(JSON.parse(toolResult(model.requests, "p1")).matched, /indentation is ignored/);
    assert.equal(hermes.permissionRequests.length, 1);
  } finally {
    await hermes.close();
  }
});

test("apply_patch: one permission request shows every file's diff; /undo reverts the whole patch", async () => {
  const model = scripted();
  const project = await makeTempDir();
  await writeFile(path.join(project, "a.txt"), "alpha\nbeta\n");
  await writeFile(path.join(project, "b.txt"), "gamma\n");
  const hermes = await startAgent({ config: scriptedConfig(model.url), permission: allowOnce });
  const patch = "*** Begin Patch\n*** Update File: a.txt\n alpha\n-beta\n+BETA\n*** Update File: b.txt\n-gamma\n+GAMMA\n*** Add File: c.txt\n+new\n*** End Patch";
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    model.enqueue(call("ap1", "apply_patch", { patch }), { text: "done" });
    await hermes.prompt(sessionId, "patch three files");
    assert.equal(hermes.permissionRequests.length, 1, "one request for the whole patch");
    const request = hermes.permissionRequests[0] as acp.RequestPermissionRequest;
    const diffs = (request.toolCall.content ?? []).filter((content) => content.type === "diff");
    assert.deepEqual(
      diffs.map((diff) => diff.type === "diff" && [path.basename(diff.path), diff.oldText, diff.newText]),
      [
        ["a.txt", "alpha\nbeta\n", "alpha\nBETA\n"],
        ["b.txt", "gamma\n", "GAMMA\n"],
        ["c.txt", null, "new\n"],
      ],
    );
    assert.equal(await readFile(path.join(project, "a.txt"), "utf8"), "alpha\nBETA\n");
    assert.equal(await readFile(path.join(project, "c.txt"), "utf8"), "new\n");

    // The turn's checkpoint was taken before the patch: /undo brings every file back.
    await hermes.prompt(sessionId, "/undo");
    assert.equal(await readFile(path.join(project, "a.txt"), "utf8"), "alpha\nbeta\n");
    assert.equal(await readFile(path.join(project, "b.txt"), "utf8"), "gamma\n");
    assert.equal(existsSync(path.join(project, "c.txt")), false);
  } finally {
    await hermes.close();
  }
});

test("apply_patch: one file that does not apply → nothing written, nothing asked, the model reads why", async () => {
  const model = scripted();
  const project = await makeTempDir();
  await writeFile(path.join(project, "a.txt"), "alpha\n");
  await writeFile(path.join(project, "b.txt"), "gamma\n");
  const hermes = await startAgent({ config: scriptedConfig(model.url), permission: allowOnce });
  const patch = "*** Begin Patch\n*** Update File: a.txt\n-alpha\n+ALPHA\n*** Update File: b.txt\n-delta\n+DELTA\n*** End Patch";
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    model.enqueue(call("ap2", "apply_patch", { patch }), { text: "I will re-read b.txt" });
    const response = await hermes.prompt(sessionId, "patch");
    assert.equal(response.stopReason, "end_turn");
    assert.equal(hermes.permissionRequests.length, 0);
    assert.equal(await readFile(path.join(project, "a.txt"), "utf8"), "alpha\n");
    assert.equal(await readFile(path.join(project, "b.txt"), "utf8"), "gamma\n");
    assert.match(toolResult(model.requests, "ap2"), /b\.txt: its context and \\"-\\" lines were not found/);
  } finally {
    await hermes.close();
  }
});
