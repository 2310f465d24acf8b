// When the editor serves fs/* and terminal/*, tools go through it: reads see unsaved
// buffers, writes land through the editor, commands run in the editor's terminal.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { useScriptedModel } from "../support/scripted-model";
import { makeTempDir, scriptedConfig, sessionUpdates, startAgent } from "../support/in-process-agent";

const scripted = useScriptedModel();

test("file tools use fs/read_text_file and fs/write_text_file, so unsaved buffers are read", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const file = path.join(project, "notes.txt");
  await writeFile(file, "on disk\n");
  const first = model.requests.length;
  model.enqueue(
    { toolCalls: [{ id: "r", name: "read_file", arguments: { path: "notes.txt" } }] },
    { toolCalls: [{ id: "w", name: "write_file", arguments: { path: "out/new.txt", content: "hello\n" } }] },
    { toolCalls: [{ id: "p", name: "patch", arguments: { path: "notes.txt", old_string: "unsaved", new_string: "saved" } }] },
    { text: "ok" },
  );
  const hermes = await startAgent({ config: scriptedConfig(model.url), serveFs: true, buffers: { [file]: "unsaved edit\n" }, permission: "allow" });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    assert.equal((await hermes.prompt(sessionId, "edit things")).stopReason, "end_turn");

    const readResult = model.requests[first + 1].body.messages.find((m: any) => m.role === "tool" && m.tool_call_id === "r");
    assert.match(readResult.content, /unsaved edit/, "the editor's buffer, not the disk");
    assert.ok(hermes.fsCalls.some((c) => c.method === "read" && c.path === file));
    assert.ok(hermes.fsCalls.some((c) => c.method === "write" && c.path === path.join(project, "out", "new.txt")));
    assert.equal(await readFile(path.join(project, "out", "new.txt"), "utf8"), "hello\n");
    assert.equal(await readFile(file, "utf8"), "saved edit\n", "the patch applied to the buffer's text, written through the editor");

    const writeDone = sessionUpdates(hermes, sessionId).find((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "w" && u.status === "completed");
    assert.ok(writeDone && writeDone.sessionUpdate === "tool_call_update");
    const diff = writeDone.content?.find((c) => c.type === "diff");
    assert.ok(diff && diff.type === "diff");
    assert.equal(diff.oldText ?? null, null, "a new file has no old text");
  } finally {
    await hermes.close();
  }
});

test("an edit the user only partly accepted in review tells the model to re-read the file", async () => {
  const model = scripted();
  const project = await makeTempDir();
  await writeFile(path.join(project, "a.txt"), "one\n");
  const first = model.requests.length;
  model.enqueue({ toolCalls: [{ id: "w", name: "write_file", arguments: { path: "a.txt", content: "uno\n" } }] }, { text: "ok" });
  const hermes = await startAgent({
    config: scriptedConfig(model.url),
    serveFs: true,
    permission: "allow",
    // Like the panel after a review: only part of the change reaches the file.
    writeAnswer: (params) => {
      writeFileSync(params.path, "uno (partly)\n");
      return { _meta: { "hermes/review": { accepted: 1, rejected: 1 } } };
    },
  });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    await hermes.prompt(sessionId, "translate");
    const result = model.requests[first + 1].body.messages.find((m: any) => m.role === "tool" && m.tool_call_id === "w");
    assert.match(result.content, /accepted 1 of 2 hunks/);
    assert.match(result.content, /Read the file again/);
    // The card shows what landed, read back after the review, not what the model proposed.
    const done = sessionUpdates(hermes, sessionId).find((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "w" && u.status === "completed");
    const diff = done && done.sessionUpdate === "tool_call_update" ? done.content?.find((c) => c.type === "diff") : undefined;
    assert.ok(diff && diff.type === "diff" && diff.newText === "uno (partly)\n");
  } finally {
    await hermes.close();
  }
});

test("terminal runs through terminal/create and embeds the terminal in the tool call", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const first = model.requests.length;
  model.enqueue({ toolCalls: [{ id: "t", name: "terminal", arguments: { command: "echo from-editor-terminal; exit 3" } }] }, { text: "ran it" });
  // The editor's own (unsandboxed) terminals, by the user's choice: where the sandbox works they are not used otherwise.
  const hermes = await startAgent({ config: scriptedConfig(model.url, { terminal: { editor_terminals: "always" } }), serveTerminal: true });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    assert.equal((await hermes.prompt(sessionId, "run it")).stopReason, "end_turn");

    assert.equal(hermes.terminals.created.length, 1);
    assert.equal(hermes.terminals.created[0].cwd, project);
    assert.deepEqual(hermes.terminals.released, ["term-1"]);
    const embedded = sessionUpdates(hermes, sessionId).some(
      (u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "t" && (u.content ?? []).some((c) => c.type === "terminal" && c.terminalId === "term-1"),
    );
    assert.ok(embedded, "the tool call shows the editor's terminal");
    const result = model.requests[first + 1].body.messages.find((m: any) => m.role === "tool");
    assert.match(result.content, /from-editor-terminal/);
    assert.match(result.content, /"exit_code":3/);
  } finally {
    await hermes.close();
  }
});

test("a rejected edit leaves the file alone and tells the model", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const file = path.join(project, "keep.txt");
  await writeFile(file, "original\n");
  const first = model.requests.length;
  model.enqueue({ toolCalls: [{ id: "w", name: "write_file", arguments: { path: "keep.txt", content: "clobbered\n" } }] }, { text: "fine" });
  const hermes = await startAgent({ config: scriptedConfig(model.url), permission: "reject" });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    assert.equal((await hermes.prompt(sessionId, "overwrite it")).stopReason, "end_turn");
    assert.equal(await readFile(file, "utf8"), "original\n");
    assert.equal(hermes.permissionRequests.length, 1);
    const result = model.requests[first + 1].body.messages.find((m: any) => m.role === "tool");
    assert.match(result.content, /denied/i);
  } finally {
    await hermes.close();
  }
});

test("prompt content: file links are inlined with a header, embedded text too, images become image parts", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const file = path.join(project, "spec.md");
  await writeFile(file, "# Spec\nThe answer is 42.\n");
  const first = model.requests.length;
  model.enqueue({ text: "read it" });
  const hermes = await startAgent({ config: scriptedConfig(model.url) });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    const png = Buffer.from("89504e470d0a1a0a", "hex").toString("base64");
    await hermes.prompt(sessionId, [
      { type: "text", text: "Look at these:" },
      { type: "resource_link", uri: `file://${file}`, name: "spec.md" },
      { type: "resource", resource: { uri: "file:///virtual/snippet.ts", text: "const x = 1;", mimeType: "text/plain" } },
      { type: "image", mimeType: "image/png", data: png },
    ]);
    const user = model.requests[first].body.messages.find((m: any) => m.role === "user");
    const parts = JSON.stringify(user.content);
    assert.match(parts, new RegExp(`<file path=\\\\"${file.replace(/[/.]/g, "\\$&")}\\\\">`));
    assert.match(parts, /The answer is 42/);
    assert.match(parts, /const x = 1;/);
    assert.match(parts, /data:image\/png;base64,/);
  } finally {
    await hermes.close();
  }
});
