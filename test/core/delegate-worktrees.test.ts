// Issue 32: delegate_task with `isolation: "worktree"`, over real ACP (in process, real pipes)
// with real git and in-process subagents on a scripted model. Two tasks run at the same time
// (each subagent's first reply is held until both asked), each editing in its own worktree;
// each task's diff is applied to the parent's workspace as uncommitted changes and its worktree
// and branch removed. Two tasks that edit the same file: the first applies, the second reports
// the conflict naming the file, and its worktree is kept and named.
import { execFileSync } from "node:child_process";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { makeTempDir, scriptedConfig, startAgent } from "../support/in-process-agent";
import { callNumber, delegateCard, goalOf, isSubagent, startRoutedModel } from "../support/delegation";
import type { RecordedRequest } from "../support/scripted-http";
import type { ScriptedReply } from "../support/scripted-model";

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" } });
}

async function repository(): Promise<string> {
  const repo = await makeTempDir("hermes-dwt-repo-");
  git(repo, "init", "-q", "-b", "main");
  for (const name of ["a.txt", "b.txt", "shared.txt"]) writeFileSync(path.join(repo, name), "original\n");
  git(repo, "add", ".");
  git(repo, "commit", "-q", "-m", "start");
  return repo;
}

/** Parent delegates two worktree tasks; each subagent writes `file` with its letter once both have asked. */
function routes(files: { A: string; B: string }) {
  const arrived = new Set<string>();
  let release!: () => void;
  const both = new Promise<void>((resolve) => (release = resolve));
  return {
    arrived,
    route: async (request: RecordedRequest): Promise<ScriptedReply> => {
      if (!isSubagent(request)) {
        if (callNumber(request) > 1) return { text: "Delegated work is back." };
        const tasks = (["A", "B"] as const).map((letter) => ({ goal: `Task ${letter}: edit ${files[letter]}`, isolation: "worktree" }));
        return { toolCalls: [{ id: "delegate-1", name: "delegate_task", arguments: { tasks } }] };
      }
      const letter = (/Task (\w)/.exec(goalOf(request))?.[1] ?? "?") as "A" | "B";
      if (callNumber(request) > 1) return { text: `Task ${letter} edited ${files[letter]}.` };
      arrived.add(letter);
      if (arrived.size === 2) release();
      await both;
      return { toolCalls: [{ id: `w-${letter}`, name: "write_file", arguments: { path: files[letter], content: `from task ${letter}\n` } }] };
    },
  };
}

function taskWorktrees(repo: string): string[] {
  return git(repo, "worktree", "list", "--porcelain").split("\n").filter((line) => line.startsWith("worktree ")).slice(1);
}

test("delegate_task isolation worktree: two parallel edit tasks, each in its own worktree, both diffs applied to the workspace", async () => {
  const repo = await repository();
  const { route, arrived } = routes({ A: "a.txt", B: "b.txt" });
  const model = await startRoutedModel(route);
  const hermes = await startAgent({ config: scriptedConfig(model.url), permission: "allow" });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(repo);
    assert.equal((await hermes.prompt(sessionId, "split it up")).stopReason, "end_turn");
    assert.deepEqual([...arrived].sort(), ["A", "B"], "both ran at once");
    const results = delegateCard(hermes, sessionId).rawOutput.results;
    assert.deepEqual(
      results.map((result: any) => [result.status, result.worktree?.outcome, result.worktree?.files, result.worktree?.branch]),
      [
        ["completed", "applied", ["a.txt"], `hermes/${sessionId.slice(0, 8)}-task-1`],
        ["completed", "applied", ["b.txt"], `hermes/${sessionId.slice(0, 8)}-task-2`],
      ],
      JSON.stringify(results),
    );
    assert.equal(readFileSync(path.join(repo, "a.txt"), "utf8"), "from task A\n");
    assert.equal(readFileSync(path.join(repo, "b.txt"), "utf8"), "from task B\n");
    assert.equal(git(repo, "status", "--porcelain"), " M a.txt\n M b.txt\n", "uncommitted, for the parent to review");
    assert.deepEqual(taskWorktrees(repo), [], "the task worktrees are removed");
    assert.equal(git(repo, "branch", "--list", "hermes/*"), "", "and their branches");
  } finally {
    await hermes.close();
    await model.close();
  }
});

test("delegate_task isolation worktree: two tasks editing the same file, the second reports the conflict naming it and keeps its worktree", async () => {
  const repo = await repository();
  const { route } = routes({ A: "shared.txt", B: "shared.txt" });
  const model = await startRoutedModel(route);
  const hermes = await startAgent({ config: scriptedConfig(model.url), permission: "allow" });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(repo);
    await hermes.prompt(sessionId, "split it up");
    const results = delegateCard(hermes, sessionId).rawOutput.results;
    const outcomes = results.map((result: any) => result.worktree?.outcome).sort();
    assert.deepEqual(outcomes, ["applied", "conflict"], JSON.stringify(results));
    const applied = results.find((result: any) => result.worktree.outcome === "applied");
    const conflict = results.find((result: any) => result.worktree.outcome === "conflict");
    assert.match(conflict.worktree.reason, /shared\.txt/);
    assert.ok(existsSync(conflict.worktree.path), "the conflicting task's worktree is kept");
    assert.deepEqual(taskWorktrees(repo).map((line) => line.slice("worktree ".length)), [conflict.worktree.path]);
    const letter = applied.task_index === 0 ? "A" : "B";
    assert.equal(readFileSync(path.join(repo, "shared.txt"), "utf8"), `from task ${letter}\n`, "the first applied whole, the second not at all");
    assert.notEqual(readFileSync(path.join(conflict.worktree.path, "shared.txt"), "utf8"), `from task ${letter}\n`);
  } finally {
    await hermes.close();
    await model.close();
  }
});
