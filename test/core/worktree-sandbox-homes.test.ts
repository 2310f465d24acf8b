// Issue 32: a worktree session's commands run in the OS sandbox, which has its own /tmp. With
// HERMES_HOME under /tmp (the worktree shows through the session's /tmp) and elsewhere, and the
// repository under the host's /tmp: a command in the worktree writes there and commits on the
// session's hermes/… branch; the main checkout and its branch are untouched.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import * as acp from "@agentclientprotocol/sdk/unstable";
import { makeTempDir, scriptedConfig, startAgent } from "../support/in-process-agent";
import { sandboxSkip } from "../support/sandbox";
import { useScriptedModel } from "../support/scripted-model";
import { makeTempDirSync } from "../support/temp-dirs";

const scripted = useScriptedModel();

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" } });
}

for (const base of ["/tmp", "/var/tmp"]) {
  test(`a sandboxed command in a worktree session commits on its branch (HERMES_HOME under ${base}, repository under /tmp)`, { skip: sandboxSkip() }, async () => {
    const model = scripted();
    const repo = await makeTempDir("hermes-wsb-repo-");
    git(repo, "init", "-q", "-b", "main");
    writeFileSync(path.join(repo, "readme.md"), "start\n");
    git(repo, "add", ".");
    git(repo, "commit", "-q", "-m", "start");
    const mainHead = git(repo, "rev-parse", "main").trim();
    const home = makeTempDirSync("hermes-wsb-home-", base);
    // JSON is YAML: config.yaml as the harness would write it.
    writeFileSync(path.join(home, "config.yaml"), JSON.stringify(scriptedConfig(model.url, { terminal: { sandbox: "on" } })));
    const hermes = await startAgent({ env: { HERMES_HOME: home }, permission: "allow" });
    try {
      await hermes.initialize();
      const { sessionId } = await hermes.agent.request(acp.methods.agent.session.new, { cwd: repo, mcpServers: [], _meta: { "hermes/worktree": true } });
      const command = "echo sandboxed > inside.txt && git add inside.txt && git -c user.email=t@t -c user.name=t commit -q -m inside && echo committed";
      model.enqueue({ toolCalls: [{ id: "t1", name: "terminal", arguments: { command } }] }, { text: "Done." });
      await hermes.prompt(sessionId, "commit something");
      const branch = `hermes/${sessionId.slice(0, 8)}-session`;
      const shown = JSON.stringify(hermes.updates.filter((u) => u.sessionId === sessionId && u.update.sessionUpdate === "tool_call_update").map((u) => u.update));
      assert.equal(git(repo, "log", "-1", "--format=%s", branch).trim(), "inside", shown);
      assert.equal(git(repo, "rev-parse", "main").trim(), mainHead, "the main branch is untouched");
      assert.ok(!existsSync(path.join(repo, "inside.txt")), "and so is the main checkout");
      const listed = (await hermes.agent.request(acp.methods.agent.session.list, {})).sessions.find((row) => row.sessionId === sessionId);
      assert.ok(String((listed?._meta?.["hermes/worktree"] as { path?: string } | undefined)?.path).startsWith(path.join(home, "worktrees")));
    } finally {
      await hermes.close();
    }
  });
}
