// Issue 32: "Isolation: workspace | worktree" as a session config option, over the real protocol
// (in process, real pipes; the test client checks every frame against the ACP 1.21 schema) with
// real git. A new session offers it; choosing worktree moves the session into a worktree of its
// own, choosing workspace moves it back and removes that worktree and branch, the mode picked
// before stays; the first prompt ends the option (a config_option_update without it) and then
// runs in the worktree; outside a repository it is not offered.
import * as acp from "@agentclientprotocol/sdk/unstable";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { makeTempDir, scriptedConfig, sessionUpdates, startAgent, type InProcessAgent } from "../support/in-process-agent";
import { useScriptedModel } from "../support/scripted-model";
import { committedRepository, git } from "../support/checkpoint-fixtures";

const scripted = useScriptedModel();

const repository = async (): Promise<string> => committedRepository("hermes-iso-repo-");

type Options = acp.SessionConfigOption[] | null | undefined;
const isolation = (options: Options) => options?.find((option) => option.id === "isolation");

function choose(hermes: InProcessAgent, sessionId: string, value: string) {
  return hermes.agent.request(acp.methods.agent.session.setConfigOption, { sessionId, configId: "isolation", value });
}

/** The worktrees git knows of, other than the main checkout. */
function worktrees(repo: string): string[] {
  return git(repo, "worktree", "list", "--porcelain")
    .split("\n")
    .filter((line) => line.startsWith("worktree "))
    .map((line) => line.slice("worktree ".length))
    .slice(1);
}

test("isolation option: worktree moves a new session into its own worktree, workspace moves it back and removes it; the first prompt ends the option", async () => {
  const model = scripted();
  const repo = await repository();
  const hermes = await startAgent({ config: scriptedConfig(model.url), permission: "allow" });
  try {
    await hermes.initialize();
    const { sessionId, configOptions } = await hermes.newSession(repo);
    const offered = isolation(configOptions);
    assert.ok(offered && offered.type === "select", JSON.stringify(configOptions));
    assert.equal(offered.currentValue, "workspace");
    assert.deepEqual(offered.type === "select" && offered.options.map((option) => ("value" in option ? option.value : undefined)), ["workspace", "worktree"]);
    await hermes.agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: "plan" });

    const moved = await choose(hermes, sessionId, "worktree");
    assert.equal(isolation(moved.configOptions)?.currentValue, "worktree");
    assert.equal(moved.configOptions.find((option) => option.id === "mode")?.currentValue, "plan", "the mode picked before stays");
    const [folder] = worktrees(repo);
    assert.ok(folder && folder.startsWith(path.join(hermes.home, "worktrees")), folder);
    const branch = `hermes/${sessionId.slice(0, 8)}-session`;
    assert.notEqual(git(repo, "branch", "--list", branch), "");

    const back = await choose(hermes, sessionId, "workspace");
    assert.equal(isolation(back.configOptions)?.currentValue, "workspace");
    assert.deepEqual(worktrees(repo), [], "the empty worktree is removed");
    assert.equal(git(repo, "branch", "--list", branch), "", "and its branch");
    await assert.rejects(choose(hermes, sessionId, "elsewhere"), (error: { code?: number }) => error.code === -32602);

    await choose(hermes, sessionId, "worktree");
    await hermes.agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: "default" });
    model.enqueue({ toolCalls: [{ id: "w1", name: "write_file", arguments: { path: "shared.txt", content: "changed\n" } }] }, { text: "done" });
    await hermes.prompt(sessionId, "edit it");
    const [worktree] = worktrees(repo);
    assert.ok(worktree);
    assert.equal(readFileSync(path.join(worktree, "shared.txt"), "utf8"), "changed\n", "the turn ran in the worktree");
    assert.equal(readFileSync(path.join(repo, "shared.txt"), "utf8"), "original\n", "the main checkout is untouched");

    const updates = sessionUpdates(hermes, sessionId).filter((update) => update.sessionUpdate === "config_option_update");
    const last = updates.at(-1);
    assert.ok(last && last.sessionUpdate === "config_option_update" && !isolation(last.configOptions), "the first prompt's update drops the option");
    await assert.rejects(choose(hermes, sessionId, "workspace"), (error: { code?: number; message?: string }) => error.code === -32602 && /prompted/.test(String(error.message)));
    assert.ok(existsSync(worktree), "a refused switch changes nothing");

    const loaded = await hermes.agent.request(acp.methods.agent.session.load, { sessionId, cwd: repo, mcpServers: [] });
    assert.equal(isolation(loaded.configOptions), undefined, "not offered on a prompted session");
  } finally {
    await hermes.close();
  }
});

test("isolation option: not offered outside a git repository", async () => {
  const model = scripted();
  const folder = await makeTempDir("hermes-iso-plain-");
  const hermes = await startAgent({ config: scriptedConfig(model.url) });
  try {
    await hermes.initialize();
    const { sessionId, configOptions } = await hermes.newSession(folder);
    assert.equal(isolation(configOptions), undefined, JSON.stringify(configOptions));
    await assert.rejects(choose(hermes, sessionId, "worktree"), (error: { code?: number }) => error.code === -32602);
  } finally {
    await hermes.close();
  }
});
