// Issue 32: sessions in two worktrees of one repository run their turns at the same time and edit
// the same file — in ONE Hermes process, then in TWO (spawned from dist/, on one HERMES_HOME).
// The scripted model holds each session's first reply until both sessions have asked (an event,
// not a delay), so the turns truly overlap. Each worktree sees only its own change, the main
// checkout is untouched until /worktree apply, which brings the first in and refuses the second,
// naming the file.
import * as acp from "@agentclientprotocol/sdk/unstable";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { agentText, scriptedConfig, startHermes, type Harness } from "../support/acp-harness";
import type { RecordedRequest } from "../support/scripted-http";
import { startScriptedModel, type ScriptedReply } from "../support/scripted-model";
import { committedRepository, git } from "../support/checkpoint-fixtures";

const repository = async (): Promise<string> => committedRepository("hermes-par-repo-");

/** A model that answers "edit shared.txt" to each session, but only once both sessions have asked. */
function heldEdits() {
  const arrived = new Set<string>();
  let bothArrived!: () => void;
  const together = new Promise<void>((resolve) => (bothArrived = resolve));
  const handler = async (request: RecordedRequest): Promise<ScriptedReply> => {
    const messages = request.body.messages as { role: string; content: unknown }[];
    const which = /as the (first|second)/.exec(JSON.stringify(messages.filter((message) => message.role === "user").at(-1)?.content))?.[1] ?? "none";
    if (messages.at(-1)?.role === "tool") return { text: `The ${which} is done.` };
    arrived.add(which);
    if (arrived.has("first") && arrived.has("second")) bothArrived();
    await together;
    return { toolCalls: [{ id: `w-${which}`, name: "write_file", arguments: { path: "shared.txt", content: `from the ${which}\n` } }] };
  };
  return { handler, arrived };
}

async function say(hermes: Harness, sessionId: string, prompt: string): Promise<string> {
  const before = agentText(hermes, sessionId).length;
  await hermes.prompt(sessionId, prompt);
  return agentText(hermes, sessionId).slice(before);
}

async function worktreeSession(hermes: Harness, cwd: string): Promise<{ sessionId: string; folder: string }> {
  const { sessionId } = await hermes.agent.request(acp.methods.agent.session.new, { cwd, mcpServers: [], _meta: { "hermes/worktree": true } });
  const listed = (await hermes.agent.request(acp.methods.agent.session.list, {})).sessions.find((row) => row.sessionId === sessionId);
  const folder = (listed?._meta?.["hermes/worktree"] as { path?: string } | undefined)?.path;
  assert.ok(folder, JSON.stringify(listed));
  return { sessionId, folder };
}

/** Both turns run at once (the model holds them until both asked); then both applies. */
async function editAtOnceThenApply(repo: string, first: [Harness, string, string], second: [Harness, string, string]): Promise<void> {
  await Promise.all([first[0].prompt(first[1], "edit it as the first"), second[0].prompt(second[1], "edit it as the second")]);
  assert.equal(readFileSync(path.join(first[2], "shared.txt"), "utf8"), "from the first\n");
  assert.equal(readFileSync(path.join(second[2], "shared.txt"), "utf8"), "from the second\n");
  assert.equal(readFileSync(path.join(repo, "shared.txt"), "utf8"), "original\n", "the main checkout is untouched before apply");
  assert.equal(git(repo, "status", "--porcelain"), "");

  assert.match(await say(first[0], first[1], "/worktree apply"), /Done: applied as uncommitted changes/);
  assert.match(await say(second[0], second[1], "/worktree apply"), /Not applied:[\s\S]*`shared\.txt`/);
  assert.equal(readFileSync(path.join(repo, "shared.txt"), "utf8"), "from the first\n", "the second is not half applied");
  assert.equal(readFileSync(path.join(second[2], "shared.txt"), "utf8"), "from the second\n", "and keeps its work");
}

test("one Hermes process: two worktree sessions edit the same file at the same time", async () => {
  const held = heldEdits();
  const model = await startScriptedModel({ fallback: { handler: held.handler } });
  const repo = await repository();
  const hermes = await startHermes({ config: scriptedConfig(model.url), permission: "allow" });
  try {
    await hermes.initialize();
    const one = await worktreeSession(hermes, repo);
    const two = await worktreeSession(hermes, repo);
    await editAtOnceThenApply(repo, [hermes, one.sessionId, one.folder], [hermes, two.sessionId, two.folder]);
    assert.deepEqual([...held.arrived].sort(), ["first", "second"]);
  } finally {
    await hermes.close();
    await model.close();
  }
});

test("two Hermes processes on one home: a worktree session each, editing the same file at the same time", async () => {
  const held = heldEdits();
  const model = await startScriptedModel({ fallback: { handler: held.handler } });
  const repo = await repository();
  const a = await startHermes({ config: scriptedConfig(model.url), permission: "allow" });
  const b = await startHermes({ env: { HERMES_HOME: a.home }, permission: "allow" });
  try {
    await Promise.all([a.initialize(), b.initialize()]);
    const one = await worktreeSession(a, repo);
    const two = await worktreeSession(b, repo);
    assert.notEqual(one.folder, two.folder);
    await editAtOnceThenApply(repo, [a, one.sessionId, one.folder], [b, two.sessionId, two.folder]);
  } finally {
    await Promise.all([a.close(), b.close()]);
    await model.close();
  }
});
