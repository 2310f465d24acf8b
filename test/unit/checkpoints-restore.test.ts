import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { Git } from "../../acp-server/checkpoints/git";
import { checkpointOptions } from "../../acp-server/checkpoints/options";
import { guardedPath, unsafePathReason } from "../../acp-server/checkpoints/path-guard";
import { openCheckpointStore } from "../../acp-server/checkpoints/store";
import { makePair, openStore, pictureOf, writeTree } from "../support/checkpoint-fixtures";
import { makeTempDirSync } from "../support/temp-dirs";

const DAY = 24 * 60 * 60 * 1000;

describe("checkpoints: restores, sessions, pruning, guard", () => {
  test("files the user changed after the turn are named as conflicts and kept unless overwriting is asked", async () => {
    const pair = makePair();
    writeTree(pair.workspace, { "agent.ts": "v1\n", "shared.ts": "v1\n" });
    const store = await openStore(pair);
    await store.checkpoint({ sessionId: "s", turn: 1, prompt: "edit both" });
    writeTree(pair.workspace, { "agent.ts": "agent v2\n", "shared.ts": "agent v2\n" });
    await store.checkpoint({ sessionId: "s", turn: 1, phase: "post" });
    // The user edits one of them after the turn, and adds a file of their own.
    writeTree(pair.workspace, { "shared.ts": "user v3\n", "mine.ts": "user's new file\n" });

    const plan = await store.planUndo("s");
    assert.deepEqual(plan.conflicts.map((conflict) => [conflict.path, conflict.reason]).sort(), [["mine.ts", "changed-after-turn"], ["shared.ts", "changed-after-turn"]]);
    const kept = await store.restore(plan);
    assert.deepEqual(kept.applied, ["agent.ts"]);
    assert.deepEqual(kept.skipped.map((entry) => entry.path).sort(), ["mine.ts", "shared.ts"]);
    assert.equal(readFileSync(path.join(pair.workspace, "agent.ts"), "utf8"), "v1\n");
    assert.equal(readFileSync(path.join(pair.workspace, "shared.ts"), "utf8"), "user v3\n");
    assert.equal(existsSync(path.join(pair.workspace, "mine.ts")), true);

    const forced = await store.restore(await store.planUndo("s"), { overwriteConflicts: true });
    assert.deepEqual(forced.applied, ["mine.ts", "shared.ts"]);
    assert.equal(readFileSync(path.join(pair.workspace, "shared.ts"), "utf8"), "v1\n");
    assert.equal(existsSync(path.join(pair.workspace, "mine.ts")), false);
  });

  test("a turn without a post-turn snapshot (it never finished): everything it changed is a conflict", async () => {
    const pair = makePair();
    writeTree(pair.workspace, { "a.ts": "1\n" });
    const store = await openStore(pair);
    const pre = await store.checkpoint({ sessionId: "s", turn: 1 });
    assert.ok(pre.ok);
    writeTree(pair.workspace, { "a.ts": "2\n" });
    const preview = await store.diff(pre.checkpoint.commit, "worktree");
    assert.deepEqual(preview.changes, [{ path: "a.ts", status: "modified", oldMode: "100644", newMode: "100644", binary: false }]);
    const plan = await store.planUndo("s");
    assert.deepEqual(plan.conflicts, [{ path: "a.ts", reason: "changed-after-turn" }]);
    assert.deepEqual((await store.restore(plan)).applied, []);
    assert.deepEqual((await store.restore(await store.planUndo("s"), { overwriteConflicts: true })).applied, ["a.ts"]);
    assert.equal(readFileSync(path.join(pair.workspace, "a.ts"), "utf8"), "1\n");
  });

  test("a file changed between the preview and the restore is never overwritten", async () => {
    const pair = makePair();
    writeTree(pair.workspace, { "a.ts": "1\n", "b.ts": "1\n" });
    const store = await openStore(pair);
    await store.checkpoint({ sessionId: "s", turn: 1 });
    writeTree(pair.workspace, { "a.ts": "2\n", "b.ts": "2\n" });
    await store.checkpoint({ sessionId: "s", turn: 1, phase: "post" });
    const plan = await store.planUndo("s");
    writeTree(pair.workspace, { "b.ts": "typed while the preview was shown\n" });
    const result = await store.restore(plan, { overwriteConflicts: true });
    assert.deepEqual(result.applied, ["a.ts"]);
    assert.deepEqual(result.skipped, [{ path: "b.ts", reason: "changed after the preview" }]);
    assert.equal(readFileSync(path.join(pair.workspace, "b.ts"), "utf8"), "typed while the preview was shown\n");
  });

  test("rollback to before turn N undoes turns N and later; list shows turn, time, prompt and files changed", async () => {
    const pair = makePair();
    let now = Date.UTC(2026, 0, 1);
    const store = await openStore(pair, { now: () => now });
    writeTree(pair.workspace, { "x.txt": "0\n" });
    const pictures: Record<number, Record<string, string>> = {};
    for (let turn = 1; turn <= 3; turn++) {
      pictures[turn] = pictureOf(pair.workspace);
      await store.checkpoint({ sessionId: "s", turn, prompt: `  turn ${turn}\n  please   ${"long ".repeat(100)}` });
      writeTree(pair.workspace, { "x.txt": `${turn}\n`, [`t${turn}.txt`]: "new\n" });
      now += 60_000;
      await store.checkpoint({ sessionId: "s", turn, phase: "post" });
    }
    const list = await store.list("s");
    assert.deepEqual(list.map((checkpoint) => `${checkpoint.turn}${checkpoint.phase}`), ["1pre", "1post", "2pre", "2post", "3pre", "3post"]);
    const post2 = list[3];
    assert.deepEqual(post2.changed, ["t2.txt", "x.txt"]);
    assert.equal(post2.changedCount, 2);
    assert.equal(list[2].time, Date.UTC(2026, 0, 1) + 60_000);
    assert.ok(list[2].prompt.startsWith("turn 2 please long"));
    assert.ok(list[2].prompt.length <= 200);

    const turns = await store.turns("s");
    assert.deepEqual(turns.map((turn) => [turn.turn, turn.changedCount, turn.changed]), [[1, 2, ["t1.txt", "x.txt"]], [2, 2, ["t2.txt", "x.txt"]], [3, 2, ["t3.txt", "x.txt"]]]);
    assert.equal(turns[1].commit, list[2].commit);

    const plan = await store.planRestore("s", 2);
    assert.deepEqual(plan.ops.map((op) => op.path), ["t2.txt", "t3.txt", "x.txt"]);
    assert.deepEqual(plan.conflicts, []);
    await store.restore(plan);
    assert.deepEqual(pictureOf(pair.workspace), pictures[2]);
    await assert.rejects(store.planRestore("s", 9), /no checkpoint before turn 9/);
    await store.checkpoint({ sessionId: "s", turn: 4, prompt: "use the key sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG please" });
    const withSecret = (await store.list("s")).find((checkpoint) => checkpoint.turn === 4);
    assert.ok(withSecret && !withSecret.prompt.includes("abcdefghijklmnop"), withSecret?.prompt);
  });

  test("a journaled restore blocks another one; a journal of a live process is not recovered by others", async () => {
    const pair = makePair();
    writeTree(pair.workspace, { "a.txt": "1\n" });
    const store = await openStore(pair);
    await store.checkpoint({ sessionId: "s", turn: 1 });
    writeTree(pair.workspace, { "a.txt": "2\n" });
    await store.checkpoint({ sessionId: "s", turn: 1, phase: "post" });
    const plan = await store.planUndo("s");
    // A restore of another, still running process (this test's parent: surely alive).
    const journal = path.join(store.repositoryDir, "hermes-restore.json");
    writeFileSync(journal, JSON.stringify({ version: 1, id: "other", pid: process.ppid, startedAt: 0, sessionId: "x", backupCommit: plan.currentCommit, targetCommit: plan.targetCommit, ops: [] }));
    await assert.rejects(store.restore(plan), /unfinished restore/);
    assert.equal(await store.recover(), undefined);
    const reopened = await openCheckpointStore(pair.workspace, { hermesHome: pair.home });
    assert.ok(reopened.ok && reopened.recovery === undefined);
    assert.equal(readFileSync(path.join(pair.workspace, "a.txt"), "utf8"), "2\n");
    rmSync(journal);
    await store.restore(plan);
    assert.equal(readFileSync(path.join(pair.workspace, "a.txt"), "utf8"), "1\n");
  });

  test("a git that hangs is killed after its timeout and the call fails", async () => {
    const dir = makeTempDirSync("hermes-cp-hang-");
    const fakeGit = path.join(dir, "git");
    writeFileSync(fakeGit, "#!/bin/sh\nexec sleep 60\n", { mode: 0o755 });
    const hanging = new Git(fakeGit, dir, dir);
    await assert.rejects(hanging.run(["status"], { timeoutMs: 200 }), /git status did not finish within 0.2 s/);
  });

  test("checkpoints.enabled: false turns them off with a reason; config maps to limits", async () => {
    const pair = makePair();
    const off = await openCheckpointStore(pair.workspace, checkpointOptions({ enabled: false, keep_days: 3, max_files: 10, max_file_mb: 1 }, pair.home));
    assert.deepEqual(off, { ok: false, reason: "checkpoints are turned off (checkpoints.enabled: false in config.yaml)" });
    const on = await openCheckpointStore(pair.workspace, checkpointOptions({ enabled: true, keep_days: 3, max_files: 10, max_file_mb: 1.5 }, pair.home));
    assert.ok(on.ok);
    assert.deepEqual(on.store.limits, { maxFiles: 10, maxFileBytes: 1572864 });
  });

  test("a rollback over several turns names files the user changed between them", async () => {
    const pair = makePair();
    writeTree(pair.workspace, { "agent.ts": "0\n", "notes.md": "mine 0\n" });
    const store = await openStore(pair);
    await store.checkpoint({ sessionId: "s", turn: 1 });
    writeTree(pair.workspace, { "agent.ts": "1\n" });
    await store.checkpoint({ sessionId: "s", turn: 1, phase: "post" });
    writeTree(pair.workspace, { "notes.md": "mine 1, written between the turns\n" });
    await store.checkpoint({ sessionId: "s", turn: 2 });
    writeTree(pair.workspace, { "agent.ts": "2\n" });
    await store.checkpoint({ sessionId: "s", turn: 2, phase: "post" });
    const plan = await store.planRestore("s", 1);
    assert.deepEqual(plan.conflicts, [{ path: "notes.md", reason: "changed-between-turns" }]);
    const result = await store.restore(plan);
    assert.deepEqual(result.applied, ["agent.ts"]);
    assert.equal(readFileSync(path.join(pair.workspace, "notes.md"), "utf8"), "mine 1, written between the turns\n");
  });

  test("two sessions checkpoint the same workspace at the same time", async () => {
    const pair = makePair();
    writeTree(pair.workspace, Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`dir${i % 10}/f${i}.txt`, `${i}\n`])));
    // Through a symlinked home as well, so the two creations really race (as two processes would).
    const homeLink = path.join(makeTempDirSync("hermes-cp-link-"), "home");
    symlinkSync(pair.home, homeLink);
    const [first, second, third] = await Promise.all([openStore(pair), openStore(pair), openStore({ ...pair, home: homeLink })]);
    assert.equal(await third.list("a").then((list) => list.length), 0);
    const rounds = await Promise.all(
      Array.from({ length: 6 }, (_, i) => (i % 2 ? second : first).checkpoint({ sessionId: i % 2 ? "b" : "a", turn: Math.floor(i / 2) + 1 })),
    );
    assert.ok(rounds.every((round) => round.ok));
    assert.equal((await first.list("a")).length, 3);
    assert.equal((await first.list("b")).length, 3);
    // Every snapshot holds the whole workspace.
    for (const round of rounds) {
      if (!round.ok) continue;
      const files = await first.diff("4b825dc642cb6eb9a060e54bf8d69288fbee4904", round.checkpoint.commit);
      assert.equal(files.changes.length, 200);
    }
    // Session b's undo is about session b's turn.
    writeTree(pair.workspace, { "dir0/f0.txt": "b's edit\n" });
    await second.checkpoint({ sessionId: "b", turn: 3, phase: "post" });
    const plan = await second.planUndo("b");
    assert.deepEqual(plan.ops.map((op) => op.path), ["dir0/f0.txt"]);
  });

  test("prune drops checkpoints older than keep_days, by the injected clock", async () => {
    const pair = makePair();
    let now = Date.UTC(2026, 0, 1);
    const store = await openStore(pair, { now: () => now, keepDays: 14 });
    writeTree(pair.workspace, { "a.txt": "a\n" });
    await store.checkpoint({ sessionId: "old", turn: 1 });
    now += 10 * DAY;
    await store.checkpoint({ sessionId: "recent", turn: 1 });
    now += 5 * DAY; // "old" is 15 days old, "recent" 5
    const result = await store.prune();
    assert.equal(result.removed, 1);
    assert.equal(result.kept, 1);
    assert.equal(result.collected, true);
    assert.deepEqual(await store.list("old"), []);
    assert.equal((await store.list("recent")).length, 1);
    const again = await store.prune();
    assert.deepEqual(again, { removed: 0, kept: 1, collected: false });
  });

  test("restore flags sensitive files and refuses paths through a symlink leading outside", async () => {
    const pair = makePair();
    const outside = makeTempDirSync("hermes-cp-outside-");
    writeTree(pair.workspace, { ".env": "TOKEN=1\n", "conf/settings.json": "{}\n" });
    const store = await openStore(pair);
    await store.checkpoint({ sessionId: "s", turn: 1 });
    writeFileSync(path.join(pair.workspace, ".env"), "TOKEN=2\n");
    // The folder is replaced by a symlink to somewhere outside.
    rmSync(path.join(pair.workspace, "conf"), { recursive: true });
    writeTree(outside, { "settings.json": "outside\n" });
    symlinkSync(outside, path.join(pair.workspace, "conf"));
    await store.checkpoint({ sessionId: "s", turn: 1, phase: "post" });
    const plan = await store.planUndo("s");
    assert.deepEqual(plan.sensitive.map((entry) => entry.path), [".env"]);
    const result = await store.restore(plan);
    // The symlink is removed first (it is part of the turn), then conf/ is a real folder again.
    assert.deepEqual(result.failed, []);
    assert.equal(readFileSync(path.join(outside, "settings.json"), "utf8"), "outside\n", "nothing written outside");
    assert.equal(readFileSync(path.join(pair.workspace, "conf/settings.json"), "utf8"), "{}\n");
    assert.equal(readFileSync(path.join(pair.workspace, ".env"), "utf8"), "TOKEN=1\n");

    // Where the symlink is not the restore's to remove, the file is refused.
    const root = makeTempDirSync("hermes-cp-guard-");
    mkdirSync(path.join(root, "real"));
    symlinkSync(outside, path.join(root, "escape"));
    symlinkSync(path.join(root, "real"), path.join(root, "inner"));
    assert.match(JSON.stringify(guardedPath(root, "escape/settings.json", [])), /symlink/);
    assert.match(JSON.stringify(guardedPath(root, "inner/x", [])), /symlink/);
    assert.match(JSON.stringify(guardedPath(root, "vendor/lib/x.c", ["vendor/lib"])), /nested repository/);
    assert.deepEqual(guardedPath(root, "real/x", []), { path: path.join(root, "real/x") });
    for (const bad of ["../x", "/etc/passwd", "a/../../x", "a/./b", ".git/config", "sub/.GIT/hooks/x", "", "a//b"]) {
      assert.ok(unsafePathReason(bad), `${JSON.stringify(bad)} must be refused`);
    }
  });
});
