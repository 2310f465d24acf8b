// A chat worktree's branch is merged only where the chat itself left it
// (security/worktree-branch-tip.ts). Every chat's `hermes/…` branch shares refs/heads/hermes,
// which each worktree chat's sandbox can write, so another chat's command can move this one's
// branch; `/worktree apply --merge` then refuses, names the move, and leaves everything as it was.
// The note lives in the worktree's own git folder, which this chat's commands can write: a link
// or a FIFO put there never redirects Hermes's write nor hangs it.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { lstatSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { worktreeCommitMounts } from "../../acp-server/security/sandbox/worktree-commit-mounts";
import { branchMovedElsewhere, recordBranchTip } from "../../acp-server/security/worktree-branch-tip";
import { createSessionWorktree, type SessionWorktree } from "../../acp-server/worktrees/session-worktree";
import { applyWorktree } from "../../acp-server/worktrees/worktree-apply";
import { committedRepository, git } from "../support/checkpoint-fixtures";
import { makeTempDirSync } from "../support/temp-dirs";

async function chatWorktree(): Promise<{ repo: string; worktree: SessionWorktree; gitDir: string }> {
  const repo = committedRepository("hermes-tip-repo-");
  const made = await createSessionWorktree({ cwd: repo, sessionId: "5e551011-0000-4000-8000-000000000000", root: makeTempDirSync("hermes-tip-home-"), request: true });
  assert.ok("worktree" in made, JSON.stringify(made));
  const gitDir = git(made.worktree.path, "rev-parse", "--absolute-git-dir").trim();
  return { repo, worktree: made.worktree, gitDir };
}

/** What another chat's sandboxed command can do: point this chat's branch at a commit of its making. */
function moveBranchElsewhere(repo: string, branch: string): string {
  const tree = git(repo, "rev-parse", "HEAD^{tree}").trim();
  const commit = git(repo, "commit-tree", tree, "-p", "HEAD", "-m", "not this chat's").trim();
  git(repo, "update-ref", `refs/heads/${branch}`, commit);
  return commit;
}

test("a branch another chat moved is not merged: the apply names the move and changes nothing; accepted, it merges", async () => {
  const { repo, worktree } = await chatWorktree();
  assert.equal(await branchMovedElsewhere(worktree.path, worktree.branch), undefined, "a new worktree's branch is where the chat left it");
  writeFileSync(path.join(worktree.path, "chat.txt"), "the chat's work\n");
  const head = git(repo, "rev-parse", "HEAD").trim();
  const elsewhere = moveBranchElsewhere(repo, worktree.branch);
  assert.deepEqual(await branchMovedElsewhere(worktree.path, worktree.branch), { noted: worktree.base, now: elsewhere });

  const refused = await applyWorktree(worktree, "merge", "merge it");
  assert.equal(refused.status, "refused", JSON.stringify(refused));
  assert.match(refused.status === "refused" ? refused.reason : "", new RegExp(`moved by something other than this chat \\(this chat left it at ${worktree.base.slice(0, 10)}; it is at ${elsewhere.slice(0, 10)} now\\)[\\s\\S]*--accept-branch`));
  assert.equal(git(repo, "rev-parse", "HEAD").trim(), head, "the checkout's branch did not move");
  assert.equal(git(repo, "rev-parse", worktree.branch).trim(), elsewhere, "nothing was committed on the chat's branch");
  assert.equal(git(repo, "status", "--porcelain"), "");

  const accepted = await applyWorktree(worktree, "merge", "merge it", undefined, {}, { acceptMovedBranch: true });
  assert.equal(accepted.status, "applied", JSON.stringify(accepted));
  assert.equal(readFileSync(path.join(repo, "chat.txt"), "utf8"), "the chat's work\n");
  assert.equal(await branchMovedElsewhere(worktree.path, worktree.branch), undefined, "Hermes's own commit on the branch is noted");
});

test("a worktree with no note (made before notes, or the note removed) does not merge; the patch apply still does", async () => {
  const { repo, worktree, gitDir } = await chatWorktree();
  writeFileSync(path.join(worktree.path, "chat.txt"), "the chat's work\n");
  rmSync(path.join(gitDir, "hermes-branch-tip"));
  const refused = await applyWorktree(worktree, "merge", "merge it");
  assert.match(refused.status === "refused" ? refused.reason : JSON.stringify(refused), /Hermes has no note of where this chat left it/);
  const patched = await applyWorktree(worktree, "patch", "apply it");
  assert.equal(patched.status, "applied", JSON.stringify(patched));
  assert.equal(readFileSync(path.join(repo, "chat.txt"), "utf8"), "the chat's work\n");
});

test("the chat's own command moving its branch is noted after the command, so the merge goes through", async () => {
  const { repo, worktree } = await chatWorktree();
  writeFileSync(path.join(worktree.path, "own.txt"), "committed by the chat\n");
  git(worktree.path, "add", "own.txt");
  git(worktree.path, "commit", "-q", "-m", "the chat's own commit");
  assert.ok(await branchMovedElsewhere(worktree.path, worktree.branch), "until noted, any move counts");
  await recordBranchTip(worktree.path); // what runs after each of the chat's commands
  const merged = await applyWorktree(worktree, "merge", "merge it");
  assert.equal(merged.status, "applied", JSON.stringify(merged));
  assert.equal(readFileSync(path.join(repo, "own.txt"), "utf8"), "committed by the chat\n");
});

test("a link or a FIFO the chat's commands put in place of the note or HEAD neither redirects a write nor hangs Hermes", async () => {
  const { worktree, gitDir } = await chatWorktree();
  const note = path.join(gitDir, "hermes-branch-tip");
  const victim = path.join(makeTempDirSync("hermes-tip-victim-"), ".bashrc");
  writeFileSync(victim, "the user's own\n");
  rmSync(note);
  symlinkSync(victim, note);
  assert.ok(await branchMovedElsewhere(worktree.path, worktree.branch), "a link is no note");
  await recordBranchTip(worktree.path);
  assert.equal(readFileSync(victim, "utf8"), "the user's own\n", "the write did not follow the link");
  assert.ok(lstatSync(note).isFile(), "the note is a file of its own again");
  assert.equal(await branchMovedElsewhere(worktree.path, worktree.branch), undefined);

  rmSync(note);
  execFileSync("mkfifo", [note]);
  assert.ok(await branchMovedElsewhere(worktree.path, worktree.branch), "a FIFO is no note, and reading it does not block");
  const head = path.join(gitDir, "HEAD");
  const headText = readFileSync(head, "utf8");
  rmSync(head);
  execFileSync("mkfifo", [head]);
  await recordBranchTip(worktree.path);
  assert.deepEqual(worktreeCommitMounts(gitDir), { pinned: [], readOnly: [] }, "no commit mounts from a HEAD that is not a file, and no hang");
  rmSync(head);
  writeFileSync(head, headText);
  await recordBranchTip(worktree.path);
  assert.ok(lstatSync(note).isFile(), "a FIFO in the note's place is replaced");
  assert.equal(await branchMovedElsewhere(worktree.path, worktree.branch), undefined);
});

test("a worktree whose HEAD its commands pointed at the checkout's own branch does not merge: Hermes never commits there", async () => {
  const { repo, worktree } = await chatWorktree();
  writeFileSync(path.join(worktree.path, "chat.txt"), "the chat's work\n");
  const main = git(repo, "rev-parse", "main").trim();
  git(worktree.path, "symbolic-ref", "HEAD", "refs/heads/main");
  const refused = await applyWorktree(worktree, "merge", "merge it", undefined, {}, { acceptMovedBranch: true });
  assert.match(refused.status === "refused" ? refused.reason : JSON.stringify(refused), /no longer on its branch `hermes\/5e551011-session` \(its HEAD names refs\/heads\/main\)/);
  assert.equal(git(repo, "rev-parse", "main").trim(), main, "no commit landed on the checkout's branch");
  assert.equal(git(repo, "status", "--porcelain"), "");
});
