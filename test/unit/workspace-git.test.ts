// Hermes's own `git status` (for the system prompt) runs outside the sandbox: a repository
// planted by a sandboxed command must not get its fsmonitor or filter commands run by it.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { commandSettings, mayBeRepository, workspaceGitSummary } from "../../acp-server/security/workspace-git";

function repo(t: { after: (fn: () => void) => void }): { dir: string; git: (...args: string[]) => void; marker: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), "hermes-wsgit-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, stdio: "ignore" });
  git("init", "-q");
  writeFileSync(path.join(dir, "a.txt"), "one\n");
  git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "start");
  return { dir, git, marker: path.join(dir, "PWNED") };
}

test("a plain repository reports its branch and changed files", async (t) => {
  const { dir } = repo(t);
  const summary = await workspaceGitSummary(dir);
  assert.ok(summary);
  assert.equal(summary.changedFiles, 1);
});

test("a planted core.fsmonitor never runs: status is skipped, the branch is still shown", async (t) => {
  const { dir, git, marker } = repo(t);
  git("config", "core.fsmonitor", `touch ${marker}; false #`);
  const summary = await workspaceGitSummary(dir);
  assert.ok(summary && typeof summary.branch === "string");
  assert.equal(summary.changedFiles, undefined);
  assert.equal(existsSync(marker), false, "the fsmonitor command ran");
});

test("a planted clean filter never runs", async (t) => {
  const { dir, git, marker } = repo(t);
  git("config", "filter.x.clean", `sh -c "touch ${marker}; cat"`);
  writeFileSync(path.join(dir, ".gitattributes"), "* filter=x\n");
  const summary = await workspaceGitSummary(dir);
  assert.equal(summary?.changedFiles, undefined);
  assert.equal(existsSync(marker), false, "the filter ran");
});

test("settings from the user's own config do not count, the repository's do", () => {
  const list = ["global", "filter.lfs.clean\ngit-lfs clean -- %f", "local", "core.bare\nfalse", "local", "core.fsmonitor\nevil", "worktree", "alias.x\n!evil", ""].join("\0");
  assert.deepEqual(commandSettings(list), ["core.fsmonitor", "alias.x"]);
});

test("git is not run where it could find no repository; a .git file, a bare repository or GIT_DIR count", (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "hermes-wsgit-none-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const nested = path.join(dir, "a", "b");
  mkdirSync(nested, { recursive: true });
  assert.equal(mayBeRepository(nested, {}), false);
  assert.equal(mayBeRepository(nested, { GIT_DIR: "/somewhere/.git" }), true);
  writeFileSync(path.join(dir, "a", ".git"), "gitdir: /elsewhere/.git/worktrees/a\n"); // a worktree's .git is a file
  assert.equal(mayBeRepository(nested, {}), true);
  rmSync(path.join(dir, "a", ".git"));
  writeFileSync(path.join(dir, "HEAD"), "ref: refs/heads/main\n");
  mkdirSync(path.join(dir, "objects"));
  assert.equal(mayBeRepository(nested, {}), true);
});

test("outside any repository the summary is undefined, as when git fails", async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "hermes-wsgit-none-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  assert.equal(await workspaceGitSummary(dir), undefined);
});
