// security/worktree-objects.ts with real git, no sandbox: what a chat worktree's private object
// folder holds is brought into the main repository by content, and what git would follow out
// of the folder when Hermes reads it (an alternates file, a link) is not followed.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { importWorktreeObjects } from "../../acp-server/security/worktree-objects";
import { makeTempDirSync } from "../support/temp-dirs";

const ID = ["-c", "user.email=t@t", "-c", "user.name=t"];

function git(cwd: string, args: string[], env: Record<string, string> = {}, input?: string): string {
  return execFileSync("git", [...ID, ...args], { cwd, encoding: "utf8", env: { ...process.env, ...env }, ...(input !== undefined ? { input } : {}) }).trim();
}

function has(repo: string, name: string): boolean {
  try {
    execFileSync("git", ["cat-file", "-e", name], { cwd: repo, stdio: "ignore" });
    return true;
  } catch {
    // expected: missing
    return false;
  }
}

/** A main repository and a hermes/… worktree whose git writes into its private folder, as the sandbox sets it up. */
function chatWorktree(): { main: string; worktree: string; privateDir: string; env: Record<string, string> } {
  const base = makeTempDirSync("hermes-wobj-unit-");
  const main = path.join(base, "main");
  mkdirSync(main);
  git(main, ["init", "-q", "-b", "main"]);
  git(main, ["commit", "-q", "--allow-empty", "-m", "start"]);
  const worktree = path.join(base, "chat");
  git(main, ["worktree", "add", "-q", "-b", "hermes/t-session", worktree]);
  const privateDir = path.join(main, ".git", "worktrees", "chat", "objects");
  mkdirSync(privateDir);
  return { main, worktree, privateDir, env: { GIT_OBJECT_DIRECTORY: privateDir, GIT_ALTERNATE_OBJECT_DIRECTORIES: path.join(main, ".git", "objects") } };
}

describe("importing a chat worktree's private git objects", () => {
  it("brings loose objects and packs in by content and empties the folder", async () => {
    const { main, worktree, privateDir, env } = chatWorktree();
    writeFileSync(path.join(worktree, "a.txt"), "a\n");
    git(worktree, ["add", "a.txt"], env);
    git(worktree, ["commit", "-q", "-m", "a"], env);
    // A second commit, its objects then packed inside the private folder (as a `git gc` there would).
    writeFileSync(path.join(worktree, "b.txt"), "b\n");
    git(worktree, ["add", "b.txt"], env);
    git(worktree, ["commit", "-q", "-m", "b"], env);
    const second = git(worktree, ["rev-list", "--objects", "HEAD~1..HEAD"], env).split("\n").map((line) => line.split(" ")[0]).join("\n");
    git(worktree, ["pack-objects", "-q", path.join(privateDir, "pack", "pack")], env, `${second}\n`);
    git(worktree, ["prune-packed"], env);
    assert.equal(readdirSync(path.join(privateDir, "pack")).filter((name) => name.endsWith(".pack")).length, 1);
    const head = git(worktree, ["rev-parse", "HEAD"], env);
    assert.equal(has(main, head), false, "not in the main repository before");
    const result = await importWorktreeObjects(worktree);
    assert.deepEqual(result.dropped, []);
    assert.ok(result.found >= 6, `${result.found} objects`);
    assert.equal(git(main, ["log", "--format=%s", "hermes/t-session"]), "b\na\nstart");
    assert.equal(git(main, ["fsck", "--no-dangling"]), "");
    assert.deepEqual(readdirSync(privateDir).filter((name) => name !== "pack" && name !== "info"), []);
    assert.deepEqual(readdirSync(path.join(privateDir, "pack")), []);
    assert.deepEqual(await importWorktreeObjects(worktree), { found: 0, dropped: [] }, "nothing left to do");
  });

  it("keeps many objects as one pack (index-pack), each under its content's hash", async () => {
    const { main, worktree, env } = chatWorktree();
    const names = Array.from({ length: 120 }, (_, i) => git(worktree, ["hash-object", "-w", "--stdin"], env, `object ${i}\n`));
    const result = await importWorktreeObjects(worktree);
    assert.deepEqual(result, { found: 120, dropped: [] });
    for (const name of names) assert.ok(has(main, name), name);
    assert.equal(readdirSync(path.join(main, ".git", "objects", "pack")).filter((name) => name.endsWith(".pack")).length, 1);
  });

  it("does not follow an alternates file or a link out of the private folder", async () => {
    const { main, worktree, privateDir } = chatWorktree();
    // Another repository with an object the chat should not be able to pull into the main one.
    const other = makeTempDirSync("hermes-wobj-other-");
    git(other, ["init", "-q"]);
    const secret = git(other, ["hash-object", "-w", "--stdin"], {}, "someone else's secret\n");
    mkdirSync(path.join(privateDir, "info"), { recursive: true });
    writeFileSync(path.join(privateDir, "info", "alternates"), `${path.join(other, ".git", "objects")}\n`);
    symlinkSync(path.join(other, ".git", "objects", secret.slice(0, 2)), path.join(privateDir, secret.slice(0, 2)));
    // And one object of the chat's own, which does come in.
    const own = git(worktree, ["hash-object", "-w", "--stdin"], { GIT_OBJECT_DIRECTORY: privateDir }, "the chat's own\n");
    const result = await importWorktreeObjects(worktree);
    assert.deepEqual(result, { found: 1, dropped: [] }, "git read a copy of the object files, never the folder with its alternates");
    assert.equal(has(main, own), true);
    assert.equal(has(main, secret), false);
    assert.ok(existsSync(path.join(privateDir, secret.slice(0, 2))), "the link is left alone, not followed");
    assert.ok(has(other, secret), "the other repository keeps its object");
  });

  it("refuses a private folder that is a link", async () => {
    const { main, worktree, privateDir } = chatWorktree();
    execFileSync("rm", ["-r", privateDir]);
    symlinkSync(path.join(main, ".git", "objects"), privateDir);
    await assert.rejects(importWorktreeObjects(worktree), /is not a folder/);
  });

  it("does nothing for a folder that is not a chat worktree", async () => {
    const plain = makeTempDirSync("hermes-wobj-plain-");
    git(plain, ["init", "-q"]);
    assert.deepEqual(await importWorktreeObjects(plain), { found: 0, dropped: [] });
  });
});
