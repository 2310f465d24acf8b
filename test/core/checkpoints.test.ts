// Checkpoints over ACP: the loop snapshots before a turn's first change, and /undo, /rollback
// and /checkpoints restore and list through a permission request that carries the diff.
import type * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { agentText, makeTempDir, scriptedConfig, startAgent, type PermissionPolicy } from "../support/in-process-agent";
import { useScriptedModel } from "../support/scripted-model";

const scripted = useScriptedModel();

const write = (id: string, file: string, content: string) => ({ toolCalls: [{ id, name: "write_file", arguments: { path: file, content } }] });
const run = (id: string, command: string) => ({ toolCalls: [{ id, name: "terminal", arguments: { command } }] });

/** Allows every tool call; answers a restore request with `restoreChoice`, and records it. */
function policy(restoreChoice: string, seen: acp.RequestPermissionRequest[]): PermissionPolicy {
  return (request) => {
    if (request.toolCall.toolCallId.startsWith("restore-")) {
      seen.push(request);
      return restoreChoice;
    }
    return request.options.find((option) => option.kind === "allow_once")?.optionId ?? "cancelled";
  };
}

async function files(root: string, names: string[]): Promise<Record<string, string | null>> {
  const out: Record<string, string | null> = {};
  for (const name of names) out[name] = existsSync(path.join(root, name)) ? await readFile(path.join(root, name), "utf8") : null;
  return out;
}

test("an edit, a created, a deleted and a renamed file are undone by /undo after a diff and a yes", async () => {
  const model = scripted();
  const project = await makeTempDir();
  await writeFile(path.join(project, "a.txt"), "one\n");
  await writeFile(path.join(project, "gone.txt"), "delete me\n");
  await writeFile(path.join(project, "old.txt"), "rename me\n");
  const names = ["a.txt", "gone.txt", "old.txt", "new.txt", "made.txt"];
  const before = await files(project, names);
  const restores: acp.RequestPermissionRequest[] = [];
  const hermes = await startAgent({ config: scriptedConfig(model.url), permission: policy("restore", restores) });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    model.enqueue(write("w1", "a.txt", "two\n"), run("t1", "echo made > made.txt && rm gone.txt && mv old.txt new.txt"), { text: "done" });
    await hermes.prompt(sessionId, "change things");
    assert.notDeepEqual(await files(project, names), before, "the turn changed the workspace");

    await hermes.prompt(sessionId, "/checkpoints");
    assert.match(agentText(hermes, sessionId), /Turn 1 · .*"change things" · 4 files changed \(a.txt, gone.txt, made.txt, new.txt\)/);

    await hermes.prompt(sessionId, "/undo");
    assert.equal(restores.length, 1, "the restore asked first");
    const request = restores[0];
    assert.deepEqual(request.options.map((o) => o.optionId), ["restore", "cancel"]);
    const diffs = (request.toolCall.content ?? []).filter((c) => c.type === "diff");
    assert.ok(diffs.some((d) => d.type === "diff" && d.path === path.join(project, "a.txt") && d.oldText === "two\n" && d.newText === "one\n"), "a.txt's diff");
    assert.ok(diffs.some((d) => d.type === "diff" && d.path.endsWith("gone.txt") && d.newText === "delete me\n"), "gone.txt comes back");
    assert.deepEqual(await files(project, names), before, "the disk equals the pre-turn snapshot");
    assert.match(agentText(hermes, sessionId), /Restored 5 files to before turn 1/);
  } finally {
    await hermes.close();
  }
});

test("a read-only turn takes no checkpoint; /rollback keeps files the user changed after the turn unless told otherwise", async () => {
  const model = scripted();
  const project = await makeTempDir();
  await writeFile(path.join(project, "a.txt"), "original\n");
  const restores: acp.RequestPermissionRequest[] = [];
  const hermes = await startAgent({ config: scriptedConfig(model.url), permission: policy("restore_keep_changed", restores) });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    model.enqueue(run("r0", "ls"), { text: "looked" });
    await hermes.prompt(sessionId, "look around"); // turn 1: read-only
    model.enqueue(write("w1", "a.txt", "agent 1\n"), { text: "ok" });
    await hermes.prompt(sessionId, "first change"); // turn 2
    model.enqueue(write("w2", "b.txt", "agent 2\n"), { text: "ok" });
    await hermes.prompt(sessionId, "second change"); // turn 3
    await writeFile(path.join(project, "a.txt"), "the user's edit\n");

    await hermes.prompt(sessionId, "/checkpoints");
    const listed = agentText(hermes, sessionId);
    assert.doesNotMatch(listed, /Turn 1 /, "the read-only turn has no checkpoint");
    assert.match(listed, /Turn 2 .*first change/);
    assert.match(listed, /Turn 3 .*second change/);

    await hermes.prompt(sessionId, "/rollback 2");
    const request = restores[0];
    assert.deepEqual(request.options.map((o) => o.optionId), ["restore_keep_changed", "restore_overwrite", "cancel"]);
    const summary = request.toolCall.content?.find((c) => c.type === "content");
    assert.match(JSON.stringify(summary), /Changed after the agent's turn.*a\.txt/);
    assert.equal(existsSync(path.join(project, "b.txt")), false, "turn 3's file is gone");
    assert.equal(await readFile(path.join(project, "a.txt"), "utf8"), "the user's edit\n", "the user's change is kept");

    await hermes.prompt(sessionId, "/rollback 1");
    assert.match(agentText(hermes, sessionId), /Turn 1 has no checkpoint/);
  } finally {
    await hermes.close();
  }
});

test("cancelling a restore changes nothing; --conversation forks the chat before the turn", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const restores: acp.RequestPermissionRequest[] = [];
  let answer = "cancel";
  const hermes = await startAgent({ config: scriptedConfig(model.url), permission: (request) => (request.toolCall.toolCallId.startsWith("restore-") ? (restores.push(request), answer) : "allow_once") });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    model.enqueue(write("w1", "x.txt", "x\n"), { text: "ok" });
    await hermes.prompt(sessionId, "make x");
    await hermes.prompt(sessionId, "/undo");
    assert.equal(restores.length, 1);
    assert.ok(existsSync(path.join(project, "x.txt")), "cancelled: nothing changed");
    assert.match(agentText(hermes, sessionId), /Restore cancelled/);

    answer = "restore";
    model.enqueue({ text: "second answer" });
    await hermes.prompt(sessionId, "just talk"); // turn 2
    const response = await hermes.prompt(sessionId, "/rollback 1 --conversation");
    assert.equal(existsSync(path.join(project, "x.txt")), false);
    const forked = /session `([^`]+)`/.exec(agentText(hermes, sessionId))?.[1];
    assert.ok(forked && forked !== sessionId, "a new session holds the rewound chat");
    assert.equal(response._meta?.["hermes/forkedSessionId"], forked, "a panel can switch to it");
    const listed = await hermes.agent.request("session/list", { cwd: project });
    assert.ok(listed.sessions.some((s) => s.sessionId === forked));

    // /rewind: the conversation only. The fork keeps turn 1 and its answer, not turn 2.
    const rewound = await hermes.prompt(sessionId, "/rewind 2");
    const fork2 = rewound._meta?.["hermes/forkedSessionId"];
    assert.equal(typeof fork2, "string");
    await hermes.agent.request("session/load", { sessionId: fork2 as string, cwd: project, mcpServers: [] });
    const replayed = JSON.stringify(hermes.updates.filter((n) => n.sessionId === fork2));
    assert.match(replayed, /make x/);
    assert.doesNotMatch(replayed, /just talk/);
    assert.match(JSON.stringify(await hermes.prompt(sessionId, "/rewind 9")), /end_turn/);
    assert.match(agentText(hermes, sessionId), /N is a turn of this session, 1 to 2/);
  } finally {
    await hermes.close();
  }
});

test("a workspace over checkpoints.max_files gets one note and no checkpoint; the tool still runs", async () => {
  const model = scripted();
  const project = await makeTempDir();
  for (const name of ["1", "2", "3", "4"]) await writeFile(path.join(project, `${name}.txt`), name);
  const hermes = await startAgent({ config: scriptedConfig(model.url, { checkpoints: { max_files: 2 } }), permission: "allow" });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    model.enqueue(write("w1", "a.txt", "a"), { text: "ok" }, write("w2", "b.txt", "b"), { text: "ok" });
    await hermes.prompt(sessionId, "one");
    await hermes.prompt(sessionId, "two");
    assert.ok(existsSync(path.join(project, "b.txt")), "the edits ran");
    const notes = hermes.updates.filter((n) => n.sessionId === sessionId && JSON.stringify(n.update).includes("No checkpoint was taken"));
    assert.equal(notes.length, 1, "said once");
    assert.match(JSON.stringify(notes[0]), /over checkpoints\.max_files=2/);
    await hermes.prompt(sessionId, "/undo");
    assert.match(agentText(hermes, sessionId), /no checkpoint yet/);
  } finally {
    await hermes.close();
  }
});

test("without git on PATH checkpoints are off: edits still run, /context and /undo say why", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const hermes = await startAgent({ config: scriptedConfig(model.url), permission: "allow", env: { PATH: path.join(project, "no-bin-here") } });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    model.enqueue(write("w1", "a.txt", "a"), { text: "ok" });
    await hermes.prompt(sessionId, "write");
    assert.ok(existsSync(path.join(project, "a.txt")), "the edit ran");
    await hermes.prompt(sessionId, "/context");
    assert.match(agentText(hermes, sessionId), /Checkpoints: off, git was not found on PATH/);
    await hermes.prompt(sessionId, "/undo");
    assert.match(agentText(hermes, sessionId), /Checkpoints are off: git was not found/);
  } finally {
    await hermes.close();
  }
});
