// Issue 32: kill -9 during /worktree apply (patch and merge) leaves the main checkout as it was
// or with the whole change, never a mix. A child process applies a worktree's change (150 files rewritten, deleted,
// added, one binary, one made executable) and is killed with SIGKILL: at each step of the
// crash-safe apply (apply-plan.ts: staged, after 0, 1, half and all files moved, plan removed),
// and at spread-out moments of an uninterrupted run. The next use of the worktree finishes what
// was committed to; the checkout is then byte for byte the "before" or the "after" picture, and
// git fsck and git status are sane (no lock left, nothing staged).
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { chmodSync, existsSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { finishInterruptedApply } from "../../acp-server/worktrees/apply-plan";
import { applyWorktree } from "../../acp-server/worktrees/worktree-apply";
import type { SessionWorktree } from "../../acp-server/worktrees/session-worktree";
import { pictureOf, writeTree } from "../support/checkpoint-fixtures";
import { makeTempDirSync } from "../support/temp-dirs";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CHILD = fileURLToPath(new URL("../support/worktree-apply-child.ts", import.meta.url));
const FILES = 150;

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" } });
}

/** A repository and a worktree whose branch changed many files, some committed, some not. */
function setUp(): { repo: string; worktree: SessionWorktree } {
  const repo = makeTempDirSync("hermes-apply-crash-");
  const home = makeTempDirSync("hermes-apply-crash-home-");
  git(repo, "init", "-q", "-b", "main");
  writeTree(repo, Object.fromEntries(Array.from({ length: FILES }, (_, i) => [`src/m${i}.txt`, `module ${i}\n`.repeat(50)])));
  writeTree(repo, { "bin/run.sh": "#!/bin/sh\necho run\n", "old/only.txt": "goes away with its folder\n" });
  git(repo, "add", ".");
  git(repo, "commit", "-q", "-m", "start");
  const base = git(repo, "rev-parse", "HEAD").trim();
  const folder = path.join(home, "wt");
  git(repo, "worktree", "add", "-q", "-b", "hermes/crash-test", folder, base);
  for (let i = 0; i < FILES; i++) {
    if (i % 15 === 0) rmSync(path.join(folder, `src/m${i}.txt`));
    else writeFileSync(path.join(folder, `src/m${i}.txt`), `module ${i}, rewritten\n`.repeat(60));
  }
  git(folder, "add", "-A");
  git(folder, "commit", "-q", "-m", "committed half of the work");
  writeTree(folder, Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`gen/deep/new${i}.txt`, `new ${i}\n`])));
  writeTree(folder, { "gen/blob.bin": Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7) % 256)) });
  chmodSync(path.join(folder, "bin/run.sh"), 0o755);
  rmSync(path.join(folder, "old"), { recursive: true });
  return { repo, worktree: { path: folder, cwd: folder, branch: "hermes/crash-test", base, repo: execFileSync("realpath", [repo], { encoding: "utf8" }).trim() } };
}

/** Runs the child; `stopAt` a step: resolves once it paused there. "none": resolves with its run. */
function startChild(worktree: SessionWorktree, mode: Mode, stopAt: string) {
  const child = spawn(process.execPath, ["--import", "tsx", CHILD, JSON.stringify(worktree), mode, stopAt], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"], detached: true });
  // The kill takes the whole process group: the git the child runs dies with it, as when a terminal closes.
  const kill = () => {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error; // expected: ESRCH, the run ended before the kill
    }
  };
  let stdout = "";
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const said = (word: string) =>
    new Promise<string>((resolve, reject) => {
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        stdout += chunk;
        const line = stdout.split("\n").find((entry) => entry.startsWith(word));
        if (line) resolve(line);
      });
      void exited.then((code) => reject(new Error(`child exited (${code}) before "${word}": ${stdout}\n${stderr}`)));
    });
  return { kill, exited, said };
}

type Mode = "patch" | "merge";

async function killAt(worktree: SessionWorktree, mode: Mode, stopAt: string): Promise<void> {
  const run = startChild(worktree, mode, stopAt);
  await run.said("paused");
  run.kill();
  await run.exited;
}

function reset(repo: string, head: string): void {
  git(repo, "reset", "-q", "--hard", head);
  git(repo, "clean", "-fdq");
}

/** After a kill: the next use of the worktree finishes the apply; the repository is then sane. Its files, and HEAD's tree. */
async function recoverAndCheck(repo: string, worktree: SessionWorktree): Promise<Record<string, string>> {
  await finishInterruptedApply(worktree);
  assert.ok(!existsSync(path.join(path.dirname(worktree.path), ".apply-wt")), "nothing of the apply is left behind");
  assert.ok(!existsSync(path.join(repo, ".git/index.lock")) && !existsSync(path.join(repo, ".git/refs/heads/main.lock")), "no lock left");
  git(repo, "fsck", "--no-progress", "--no-dangling");
  assert.equal(git(repo, "diff", "--cached", "--name-only"), "", "nothing staged: a patch comes in uncommitted, a merge is committed");
  return { ...pictureOf(repo, [".git"]), "HEAD tree": git(repo, "rev-parse", "HEAD^{tree}").trim() };
}

const now = (repo: string): Record<string, string> => ({ ...pictureOf(repo, [".git"]), "HEAD tree": git(repo, "rev-parse", "HEAD^{tree}").trim() });

for (const mode of ["patch", "merge"] as const) {
  test(`kill -9 during /worktree apply (${mode}): the checkout is before or after, never a mix`, { timeout: 240_000 }, async (t) => {
    const { repo, worktree } = setUp();
    const head = git(repo, "rev-parse", "HEAD").trim();
    const before = now(repo);

    const whole = startChild(worktree, mode, "none");
    await whole.said("ready");
    const took = Number((await whole.said("done")).split(" ")[1]);
    assert.equal(await whole.exited, 0);
    const after = now(repo);
    assert.notDeepEqual(after, before);
    for (const file of ["src/m1.txt", "gen/deep/new3.txt", "gen/blob.bin"]) assert.deepEqual(readFileSync(path.join(repo, file)), readFileSync(path.join(worktree.path, file)), file);
    assert.ok(!existsSync(path.join(repo, "src/m15.txt")) && !existsSync(path.join(repo, "old")), "deleted files (and a folder left empty) are gone");
    assert.equal(after["bin/run.sh"]?.split(" ")[1], "755");
    if (mode === "merge") {
      assert.equal(git(repo, "status", "--porcelain"), "", "a merge leaves nothing uncommitted");
      assert.equal(git(repo, "rev-parse", "HEAD^1").trim(), head);
      assert.equal(git(repo, "rev-parse", "HEAD^2").trim(), git(repo, "rev-parse", worktree.branch).trim());
    }
    reset(repo, head);
    assert.deepEqual(now(repo), before);

    const moves = Object.keys(after).filter((file) => after[file] !== before[file] && file !== "HEAD tree" && !after[file]!.startsWith("dir")).length + 11; // writes, then removals
    const steps: [string, Record<string, string>][] = [["staged", before], ["moved 0", after], ["moved 1", after], [`moved ${Math.floor(moves / 2)}`, after], ["plan removed", after]];
    if (mode === "merge") steps.push(["index updated", after], ["moving ref", after], ["ref moved", after]);
    const refLock = path.join(repo, ".git/refs/heads/main.lock");
    for (const [stopAt, expected] of steps) {
      await killAt(worktree, mode, stopAt);
      if (stopAt === "moving ref") {
        // Killed inside `git update-ref`: its lock stays. Older than the move, it is another git's and kept.
        writeFileSync(refLock, `${head}\n`);
        utimesSync(refLock, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
        await assert.rejects(finishInterruptedApply(worktree), /another git command holds \S*refs\/heads\/main\.lock/);
        assert.ok(existsSync(refLock), "another git's lock is kept");
        // Made after the killed run began moving the ref: its own git's, removed, and the merge finishes.
        writeFileSync(refLock, `${head}\n`);
      }
      assert.deepEqual(await recoverAndCheck(repo, worktree), expected, `killed at "${stopAt}"`);
      if (mode === "merge" && expected === after) assert.equal(git(repo, "status", "--porcelain"), "", `killed at "${stopAt}": the merge is whole`);
      reset(repo, head);
    }

    // And at moments of a real run, spread over its length.
    const seen = { before: 0, after: 0 };
    for (let i = 0; i < 6; i++) {
      const run = startChild(worktree, mode, "none");
      await run.said("ready");
      await new Promise<void>((resolve) => setTimeout(resolve, (took * i) / 5)); // the fault injected: a kill this far into the apply
      run.kill();
      await run.exited;
      const picture = await recoverAndCheck(repo, worktree);
      const which = JSON.stringify(picture) === JSON.stringify(before) ? "before" : JSON.stringify(picture) === JSON.stringify(after) ? "after" : "a mix";
      assert.notEqual(which, "a mix", `killed ${Math.round((took * i) / 5)} ms into the apply`);
      seen[which as "before" | "after"]++;
      reset(repo, head);
    }
    t.diagnostic(`timed kills: ${seen.before} before, ${seen.after} after (a whole apply took ${took} ms)`);
  });
}

test("two processes applying into one checkout: the second waits for the first's lock, takes it over when the first is killed, and applies", { skip: process.platform === "win32" }, async () => {
  const first = setUp();
  const second = { ...first.worktree };
  // The same checkout and worktree folder: the second apply is the first one again, from another process.
  const held = startChild(first.worktree, "patch", "staged");
  await held.said("paused");
  const steps: string[] = [];
  let killedAt = 0;
  const applying = applyWorktree(second, "patch", "second process", undefined, {
    onStep: async (point) => {
      steps.push(point);
      if (point === "waiting for another apply") {
        killedAt = steps.length;
        held.kill();
        await held.exited;
      }
    },
  });
  const outcome = await applying.finally(() => held.kill());
  assert.equal(outcome.status, "applied", JSON.stringify(outcome));
  assert.equal(steps[0], "waiting for another apply", `the second apply waited for the first: ${steps.join(", ")}`);
  assert.ok(steps.length > killedAt, "its own steps ran after the holder was gone");
  assert.equal(execFileSync("git", ["-C", first.repo, "status", "--porcelain"], { encoding: "utf8" }).trim().length > 0, true, "the change is in the checkout");
});
