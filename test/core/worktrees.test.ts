// Issue 32: sessions in their own git worktrees, over the real protocol with real git. Two
// sessions of one repository edit the same file in their worktrees: each sees only its own
// change and the main checkout is untouched until /worktree apply, which brings the first in as
// uncommitted changes and refuses the second (the main checkout now has its own change there),
// naming the file. Apply --merge commits and merges; discard asks and removes worktree and
// branch; outside a repository the session says so and works in the folder; a worktree session
// loaded by another agent works in its worktree again, and session/list names its worktree.
import * as acp from "@agentclientprotocol/sdk/unstable";
import assert from "node:assert/strict";
import { existsSync, readFileSync, realpathSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { makeTempDir, replyTo, scriptedConfig, startAgent, type InProcessAgent } from "../support/in-process-agent";
import type { RecordedRequest } from "../support/scripted-http";
import { startScriptedModel, useScriptedModel, type ScriptedReply } from "../support/scripted-model";
import { committedRepository, git } from "../support/checkpoint-fixtures";

const scripted = useScriptedModel();

const repository = async (): Promise<string> => committedRepository("hermes-wt-repo-");

async function worktreeSession(hermes: InProcessAgent, cwd: string, request: unknown = true): Promise<acp.NewSessionResponse> {
  return hermes.agent.request(acp.methods.agent.session.new, { cwd, mcpServers: [], _meta: { "hermes/worktree": request } });
}

/** The worktree folder /worktree names. */
async function worktreeOf(hermes: InProcessAgent, sessionId: string): Promise<string> {
  const text = await replyTo(hermes, sessionId, "/worktree");
  const folder = /in `([^`]+)`, started from/.exec(text)?.[1];
  assert.ok(folder, text);
  return folder;
}

/** Both sessions' turns run at once, so the model's reply depends on which session asks (its prompt says). */
function editFor(request: RecordedRequest): ScriptedReply {
  const messages = request.body.messages as { role: string; content: unknown }[];
  const which = /as the (first|second)/.exec(JSON.stringify(messages.filter((message) => message.role === "user").at(-1)?.content))?.[1] ?? "none";
  if (messages.at(-1)?.role === "tool") return { text: `The ${which} is done.` };
  return { toolCalls: [{ id: `w-${which}`, name: "write_file", arguments: { path: "shared.txt", content: `from the ${which}\n` } }] };
}

test("two sessions in two worktrees edit the same file at once: each sees its own, the checkout is untouched; apply brings the first in and refuses the second, naming the file; discard asks and removes", async () => {
  const model = await startScriptedModel({ fallback: { handler: editFor } });
  const repo = await repository();
  const hermes = await startAgent({ config: scriptedConfig(model.url), permission: "allow" });
  try {
    await hermes.initialize();
    const first = await worktreeSession(hermes, repo);
    const second = await worktreeSession(hermes, repo, { branch: "feature/second" });
    const [one, two] = [await worktreeOf(hermes, first.sessionId), await worktreeOf(hermes, second.sessionId)];
    assert.notEqual(one, two);
    assert.ok(one.startsWith(path.join(hermes.home, "worktrees")), one);
    assert.ok(!one.startsWith(repo), "outside the user's tree");

    await Promise.all([hermes.prompt(first.sessionId, "edit it as the first"), hermes.prompt(second.sessionId, "edit it as the second")]);
    assert.equal(readFileSync(path.join(one, "shared.txt"), "utf8"), "from the first\n");
    assert.equal(readFileSync(path.join(two, "shared.txt"), "utf8"), "from the second\n");
    assert.equal(readFileSync(path.join(repo, "shared.txt"), "utf8"), "original\n", "the main checkout is untouched before apply");
    assert.match(await replyTo(hermes, second.sessionId, "/worktree"), /branch `feature\/second`[\s\S]*shared\.txt \| 2 \+-/);
    assert.match(await replyTo(hermes, second.sessionId, "/context"), /Worktree: branch `feature\/second` in .*hermes-wt-repo-|Worktree: branch `feature\/second` in /);

    assert.match(await replyTo(hermes, first.sessionId, "/worktree apply"), /Done: applied as uncommitted changes to .* \(1 file\)/);
    assert.equal(readFileSync(path.join(repo, "shared.txt"), "utf8"), "from the first\n");
    assert.match(git(repo, "status", "--porcelain"), /^ M shared\.txt$/m, "uncommitted, for the user to review");
    const refused = await replyTo(hermes, second.sessionId, "/worktree apply");
    assert.match(refused, /Not applied: the main checkout has its own uncommitted changes to these files[\s\S]*`shared\.txt`/);
    assert.equal(readFileSync(path.join(repo, "shared.txt"), "utf8"), "from the first\n", "nothing half applied");
    assert.equal(readFileSync(path.join(two, "shared.txt"), "utf8"), "from the second\n");

    // Committed, the checkout has moved on: the second's patch no longer applies, and says so.
    git(repo, "commit", "-q", "-am", "take the first");
    assert.match(await replyTo(hermes, second.sessionId, "/worktree apply"), /Not applied: it does not apply to the main checkout[\s\S]*`shared\.txt`/);
    assert.match(await replyTo(hermes, second.sessionId, "/worktree apply --merge"), /Not applied: merging it would conflict[\s\S]*`shared\.txt`/);
    assert.equal(git(repo, "status", "--porcelain"), "", "the refused merge left the checkout clean");

    assert.match(await replyTo(hermes, second.sessionId, "/worktree discard"), /Removed the worktree .* and the branch `feature\/second`/);
    assert.ok(!existsSync(two));
    assert.equal(git(repo, "branch", "--list", "feature/second"), "");
    assert.equal(hermes.permissionRequests.filter((request) => request.toolCall.title?.startsWith("Discard this chat's worktree")).length, 1, "discard asked first");
  } finally {
    await hermes.close();
    await model.close();
  }
});

test("apply --merge commits the session's work on its branch and merges it; outside a repository the session says so and works in the folder", async () => {
  const model = scripted();
  const repo = await repository();
  const plain = await makeTempDir("hermes-wt-plain-");
  const hermes = await startAgent({ config: scriptedConfig(model.url), permission: "allow" });
  try {
    await hermes.initialize();
    const { sessionId } = await worktreeSession(hermes, repo);
    model.enqueue({ toolCalls: [{ name: "write_file", arguments: { path: "feature.txt", content: "new feature\n" } }] }, { text: "Added." });
    await hermes.prompt(sessionId, "add a feature");
    assert.ok(!existsSync(path.join(repo, "feature.txt")));
    assert.match(await replyTo(hermes, sessionId, "/worktree apply --merge"), /Done: merged branch `hermes\/[0-9a-f]{8}-session` into/);
    assert.equal(readFileSync(path.join(repo, "feature.txt"), "utf8"), "new feature\n");
    assert.match(git(repo, "log", "--oneline", "-1"), /Merge hermes\//);
    assert.equal(git(repo, "status", "--porcelain"), "");

    const outside = await worktreeSession(hermes, plain);
    const notice = await hermes.waitForUpdate((update) => JSON.stringify(update).includes("No worktree for this session"));
    assert.match(JSON.stringify(notice), /is not in a git repository, so the session works in the folder itself/);
    model.enqueue({ toolCalls: [{ name: "write_file", arguments: { path: "here.txt", content: "in the folder\n" } }] }, { text: "Written." });
    await hermes.prompt(outside.sessionId, "write here");
    assert.equal(readFileSync(path.join(plain, "here.txt"), "utf8"), "in the folder\n");
  } finally {
    await hermes.close();
  }
});

test("a worktree session loaded by another agent (a restart) works in its worktree again", async () => {
  const model = scripted();
  const repo = await repository();
  const first = await startAgent({ config: scriptedConfig(model.url), permission: "allow" });
  let sessionId: string;
  let folder: string;
  try {
    await first.initialize();
    sessionId = (await worktreeSession(first, repo)).sessionId;
    folder = await worktreeOf(first, sessionId);
  } finally {
    await first.close();
  }
  const second = await startAgent({ env: { HERMES_HOME: first.home }, permission: "allow" });
  try {
    await second.initialize();
    // session/list names the worktree (branch and folder) of each worktree session.
    const listed = (await second.agent.request(acp.methods.agent.session.list, {})).sessions.find((row) => row.sessionId === sessionId);
    assert.deepEqual(listed?._meta?.["hermes/worktree"], { branch: `hermes/${sessionId.slice(0, 8)}-session`, path: folder, cwd: folder, repo: realpathSync(repo) });
    await second.agent.request(acp.methods.agent.session.load, { sessionId, cwd: repo, mcpServers: [] });
    model.enqueue({ toolCalls: [{ name: "write_file", arguments: { path: "after-restart.txt", content: "still in the worktree\n" } }] }, { text: "Written." });
    await second.prompt(sessionId, "write after the restart");
    assert.equal(readFileSync(path.join(folder, "after-restart.txt"), "utf8"), "still in the worktree\n");
    assert.ok(!existsSync(path.join(repo, "after-restart.txt")));
  } finally {
    await second.close();
  }
});

test("deleting a session removes its worktree and branch, unless it holds work never applied: that one is kept", async () => {
  const model = scripted();
  const repo = await repository();
  const hermes = await startAgent({ config: scriptedConfig(model.url), permission: "allow" });
  try {
    await hermes.initialize();
    const clean = await worktreeSession(hermes, repo);
    const busy = await worktreeSession(hermes, repo);
    const [cleanFolder, busyFolder] = [await worktreeOf(hermes, clean.sessionId), await worktreeOf(hermes, busy.sessionId)];
    model.enqueue({ toolCalls: [{ name: "write_file", arguments: { path: "draft.txt", content: "not applied yet\n" } }] }, { text: "Drafted." });
    await hermes.prompt(busy.sessionId, "draft something");

    await hermes.agent.request(acp.methods.agent.session.delete, { sessionId: clean.sessionId });
    assert.ok(!existsSync(cleanFolder), "the clean worktree went with its session");
    assert.equal(git(repo, "branch", "--list", "hermes/*").trim().split("\n").filter(Boolean).length, 1, "its branch too");
    await hermes.agent.request(acp.methods.agent.session.delete, { sessionId: busy.sessionId });
    assert.equal(readFileSync(path.join(busyFolder, "draft.txt"), "utf8"), "not applied yet\n", "work never applied is never deleted silently");
  } finally {
    await hermes.close();
  }
});

test("apply --squash brings the session's whole change in as one commit on the checkout's branch", async () => {
  const model = scripted();
  const repo = await repository();
  const hermes = await startAgent({ config: scriptedConfig(model.url), permission: "allow" });
  try {
    await hermes.initialize();
    const { sessionId } = await worktreeSession(hermes, repo);
    model.enqueue(
      { toolCalls: [{ name: "write_file", arguments: { path: "feature.txt", content: "new feature\n" } }] },
      { toolCalls: [{ name: "write_file", arguments: { path: "shared.txt", content: "changed too\n" } }] },
      { text: "Done." },
    );
    await hermes.prompt(sessionId, "add a feature");
    const head = git(repo, "rev-parse", "HEAD").trim();
    assert.match(await replyTo(hermes, sessionId, "/worktree apply --squash"), /Done: committed as one commit \(squashed\) in .* \(2 files\)/);
    assert.equal(readFileSync(path.join(repo, "feature.txt"), "utf8"), "new feature\n");
    assert.equal(readFileSync(path.join(repo, "shared.txt"), "utf8"), "changed too\n");
    assert.equal(git(repo, "status", "--porcelain"), "", "committed, nothing left over");
    assert.equal(git(repo, "rev-list", "--parents", "-n", "1", "HEAD").trim(), `${git(repo, "rev-parse", "HEAD").trim()} ${head}`, "one commit, one parent");
    assert.equal(git(repo, "symbolic-ref", "HEAD").trim(), "refs/heads/main", "on the checkout's branch");
  } finally {
    await hermes.close();
  }
});

test("two sessions applying at the same moment: one applies, the other is refused naming the file, never both", async () => {
  const model = await startScriptedModel({ fallback: { handler: editFor } });
  const repo = await repository();
  const hermes = await startAgent({ config: scriptedConfig(model.url), permission: "allow" });
  try {
    await hermes.initialize();
    const first = await worktreeSession(hermes, repo);
    const second = await worktreeSession(hermes, repo);
    await Promise.all([hermes.prompt(first.sessionId, "edit it as the first"), hermes.prompt(second.sessionId, "edit it as the second")]);
    const answers = await Promise.all([replyTo(hermes, first.sessionId, "/worktree apply"), replyTo(hermes, second.sessionId, "/worktree apply")]);
    assert.equal(answers.filter((text) => /Done: applied/.test(text)).length, 1, answers.join("\n---\n"));
    assert.match(answers.find((text) => !/Done: applied/.test(text)) ?? "", /Not applied:[\s\S]*`shared\.txt`/);
    const winner = /Done: applied/.test(answers[0]!) ? "first" : "second";
    assert.equal(readFileSync(path.join(repo, "shared.txt"), "utf8"), `from the ${winner}\n`);
  } finally {
    await hermes.close();
    await model.close();
  }
});
