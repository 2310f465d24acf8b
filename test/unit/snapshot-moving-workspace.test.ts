// A snapshot of a workspace that changes under it: a path that turns from a symlink into a folder
// between git's listing and its staging makes update-index refuse it. The snapshot lists again
// and records the workspace as it is now; a workspace that never holds still gives a reason, not
// a crash. The change is made at a fixed point (just before staging), so nothing here is timed.
import assert from "node:assert/strict";
import { mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { findGit } from "../../acp-server/checkpoints/git";
import { openShadowRepo, type ShadowRepo } from "../../acp-server/checkpoints/shadow-repo";
import { snapshotTree } from "../../acp-server/checkpoints/snapshot";
import { DEFAULT_LIMITS } from "../../acp-server/checkpoints/types";
import { git, makePair } from "../support/checkpoint-fixtures";

/** A shadow repository whose `beforeStaging` runs each time git is about to stage what it listed. */
async function repositoryWithHook(beforeStaging: (stagings: number) => void): Promise<{ repo: ShadowRepo; workspace: string; home: string }> {
  const pair = makePair();
  const workspace = realpathSync(pair.workspace);
  const executable = findGit();
  assert.ok(executable, "git is needed");
  const repo = await openShadowRepo(executable, workspace, pair.home);
  const run = repo.git.run.bind(repo.git);
  let stagings = 0;
  repo.git.run = (args, options) => {
    if (args[0] === "update-index" && args.includes("--add")) beforeStaging(++stagings);
    return run(args, options);
  };
  return { repo, workspace, home: pair.home };
}

/** Makes `link` a symlink to a folder outside the workspace. */
function makeLink(workspace: string, outside: string): void {
  rmSync(path.join(workspace, "link"), { recursive: true, force: true });
  symlinkSync(outside, path.join(workspace, "link"));
}

/** Makes `link` a real folder holding inner.txt. */
function makeFolder(workspace: string): void {
  rmSync(path.join(workspace, "link"), { recursive: true, force: true });
  mkdirSync(path.join(workspace, "link"));
  writeFileSync(path.join(workspace, "link", "inner.txt"), "inside\n");
}

test("a symlink that becomes a folder between listing and staging: listed again, the folder's file is recorded", async () => {
  const outside = makePair().workspace;
  const { repo, workspace, home } = await repositoryWithHook((stagings) => {
    if (stagings === 1) makeFolder(workspace);
  });
  writeFileSync(path.join(workspace, "a.txt"), "a\n");
  makeLink(workspace, outside);
  const result = await snapshotTree(repo, { limits: DEFAULT_LIMITS, hermesHome: home });
  assert.ok(result.ok, JSON.stringify(result));
  const files = git(repo.dir, "ls-tree", "-r", "--name-only", result.tree).trim().split("\n");
  assert.deepEqual(files, ["a.txt", "link/inner.txt"]);
});

test("a workspace that changes kind under every listing: a reason naming it, no exception", async () => {
  const outside = makePair().workspace;
  const { repo, workspace, home } = await repositoryWithHook((stagings) => {
    if (stagings % 2 === 1) makeFolder(workspace);
    else makeLink(workspace, outside);
  });
  makeLink(workspace, outside);
  const result = await snapshotTree(repo, { limits: DEFAULT_LIMITS, hermesHome: home });
  assert.equal(result.ok, false);
  assert.match(!result.ok ? result.reason : "", /files kept changing while the workspace was snapshotted: git update-index failed/);
});
