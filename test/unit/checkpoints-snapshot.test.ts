import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { openCheckpointStore } from "../../acp-server/checkpoints/store";
import { git, makePair, openStore, pictureOf, writeTree } from "../support/checkpoint-fixtures";

describe("checkpoints: snapshot and restore", () => {
  test("edit, new, delete, rename, binary, exec bit, symlink and new folders are all undone", async () => {
    const pair = makePair();
    const ws = pair.workspace;
    writeTree(ws, {
      "src/edit.ts": "export const a = 1;\n",
      "src/gone.ts": "delete me\n",
      "src/old-name.ts": "renamed content\n",
      "bin/tool.sh": "#!/bin/sh\necho hi\n",
      "assets/logo.bin": Buffer.from([0, 255, 1, 254, 0, 0, 7]),
      "docs/readme.md": "# hi\n",
      "docs/naïve name with spaces.md": "ünïcödé\n",
    });
    chmodSync(path.join(ws, "bin/tool.sh"), 0o755);
    symlinkSync("docs/readme.md", path.join(ws, "readme-link"));
    mkdirSync(path.join(ws, "empty-before")); // an empty folder the turn does not touch
    const before = pictureOf(ws);

    const store = await openStore(pair);
    const pre = await store.checkpoint({ sessionId: "s1", turn: 1, prompt: "refactor everything" });
    assert.ok(pre.ok);

    // The turn:
    writeFileSync(path.join(ws, "src/edit.ts"), "export const a = 2;\n");
    writeFileSync(path.join(ws, "docs/naïve name with spaces.md"), "changed\n");
    rmSync(path.join(ws, "src/gone.ts"));
    renameSync(path.join(ws, "src/old-name.ts"), path.join(ws, "src/new-name.ts"));
    writeFileSync(path.join(ws, "assets/logo.bin"), Buffer.from([9, 0, 9, 0, 255]));
    chmodSync(path.join(ws, "bin/tool.sh"), 0o644);
    chmodSync(path.join(ws, "docs/readme.md"), 0o755);
    rmSync(path.join(ws, "readme-link"));
    symlinkSync("src/edit.ts", path.join(ws, "readme-link"));
    writeTree(ws, { "generated/deep/new.ts": "new\n", "assets/new.bin": Buffer.from([0, 0, 0]) });
    const post = await store.checkpoint({ sessionId: "s1", turn: 1, phase: "post" });
    assert.ok(post.ok);
    const changed = new Map(post.changes.map((change) => [change.path, change]));
    assert.equal(changed.get("src/new-name.ts")?.status, "renamed");
    assert.equal(changed.get("src/new-name.ts")?.oldPath, "src/old-name.ts");
    assert.equal(changed.get("bin/tool.sh")?.status, "mode-changed");
    assert.equal(changed.get("src/gone.ts")?.status, "deleted");
    assert.equal(changed.get("generated/deep/new.ts")?.status, "added");
    assert.equal(post.checkpoint.changedCount, post.changes.length);

    const plan = await store.planUndo("s1");
    assert.equal(plan.targetTurn, 1);
    assert.deepEqual(plan.conflicts, []);
    const preview = new Map(plan.diff.changes.map((change) => [change.path, change]));
    assert.equal(preview.get("assets/logo.bin")?.binary, true);
    assert.equal(preview.get("src/edit.ts")?.binary, false);
    assert.match(plan.diff.patch, /-export const a = 2;\n\+export const a = 1;/);
    assert.match(plan.diff.patch, /Binary files/);

    const result = await store.restore(plan);
    assert.deepEqual(result.failed, []);
    assert.deepEqual(result.skipped, []);
    assert.deepEqual(pictureOf(ws), before);

    // The restore itself was backed up: its backup commit holds the turn's result.
    const diffToBackup = await store.diff(post.checkpoint.commit, result.backupCommit);
    assert.deepEqual(diffToBackup.changes, []);
  });

  test("a file that became a folder and a folder that became a file are restored", async () => {
    const pair = makePair();
    const ws = pair.workspace;
    writeTree(ws, { "a": "file a\n", "b/x": "bx\n", "b/deeper/y": "by\n" });
    const before = pictureOf(ws);
    const store = await openStore(pair);
    await store.checkpoint({ sessionId: "s", turn: 1 });
    rmSync(path.join(ws, "a"));
    writeTree(ws, { "a/inside.txt": "now a folder\n" });
    rmSync(path.join(ws, "b"), { recursive: true });
    writeFileSync(path.join(ws, "b"), "now a file\n");
    const post = await store.checkpoint({ sessionId: "s", turn: 1, phase: "post" });
    assert.ok(post.ok);
    assert.deepEqual(post.changes.map((change) => `${change.status} ${change.path}`), ["deleted a", "added a/inside.txt", "added b", "deleted b/deeper/y", "deleted b/x"]);
    const result = await store.restore(await store.planUndo("s"));
    assert.deepEqual(result.skipped, []);
    assert.deepEqual(result.failed, []);
    assert.deepEqual(pictureOf(ws), before);
  });

  test("a workspace that is not a git repository works, and restore leaves a folder the turn emptied", async () => {
    const pair = makePair();
    writeTree(pair.workspace, { "a.txt": "a\n" });
    const store = await openStore(pair);
    assert.ok((await store.checkpoint({ sessionId: "s", turn: 1 })).ok);
    writeTree(pair.workspace, { "made/by/turn.txt": "x\n" });
    mkdirSync(path.join(pair.workspace, "empty-made-by-turn"));
    assert.ok((await store.checkpoint({ sessionId: "s", turn: 1, phase: "post" })).ok);
    const before = pictureOf(pair.workspace);
    const plan = await store.planUndo("s");
    assert.deepEqual(plan.ops.map((op) => op.path), ["made/by/turn.txt"]);
    assert.deepEqual(plan.conflicts, []);
    await store.restore(plan);
    // Folders emptied by the restore go; an empty folder holds nothing git can snapshot, so it stays.
    assert.equal(existsSync(path.join(pair.workspace, "made")), false);
    assert.equal(existsSync(path.join(pair.workspace, "empty-made-by-turn")), true);
    assert.notDeepEqual(pictureOf(pair.workspace), before);
    assert.equal(existsSync(path.join(pair.workspace, ".git")), false, "no .git is created in the workspace");
  });

  test("in a git repository the user's .git and git status are untouched; .gitignore and info/exclude are honoured", async () => {
    const pair = makePair();
    const ws = pair.workspace;
    git(ws, "init", "-q");
    writeTree(ws, { ".gitignore": "build/\n*.log\n", "src/main.ts": "main\n", "staged.txt": "staged\n" });
    git(ws, "add", ".gitignore", "src/main.ts");
    git(ws, "commit", "-q", "-m", "init");
    git(ws, "add", "staged.txt");
    writeFileSync(path.join(ws, ".git/info/exclude"), "secret-notes/\n");
    writeTree(ws, { "build/out.js": "built\n", "debug.log": "log\n", "secret-notes/n.txt": "mine\n", "untracked.txt": "u\n" });
    const gitPicture = pictureOf(path.join(ws, ".git"));
    const status = git(ws, "status", "--porcelain=v1", "--ignored");
    const indexMtime = statSync(path.join(ws, ".git/index")).mtimeMs;

    const store = await openStore(pair);
    const pre = await store.checkpoint({ sessionId: "s", turn: 1 });
    assert.ok(pre.ok);
    const covered = (await store.diff("4b825dc642cb6eb9a060e54bf8d69288fbee4904", pre.checkpoint.commit)).changes.map((change) => change.path).sort();
    assert.deepEqual(covered, [".gitignore", "src/main.ts", "staged.txt", "untracked.txt"]);

    writeFileSync(path.join(ws, "src/main.ts"), "changed\n");
    writeTree(ws, { "build/more.js": "more build output\n", "src/added.ts": "added\n" });
    await store.checkpoint({ sessionId: "s", turn: 1, phase: "post" });
    await store.restore(await store.planUndo("s"));

    assert.equal(readFileSync(path.join(ws, "src/main.ts"), "utf8"), "main\n");
    assert.equal(existsSync(path.join(ws, "src/added.ts")), false);
    // Ignored output is neither snapshotted nor deleted by the restore.
    assert.equal(readFileSync(path.join(ws, "build/more.js"), "utf8"), "more build output\n");
    assert.equal(existsSync(path.join(ws, "secret-notes/n.txt")), true);
    assert.deepEqual(pictureOf(path.join(ws, ".git")), gitPicture);
    assert.equal(statSync(path.join(ws, ".git/index")).mtimeMs, indexMtime);
    assert.equal(git(ws, "status", "--porcelain=v1", "--ignored"), status);
  });

  test("Hermes' home inside the workspace is never snapshotted (it holds the shadow repository)", async () => {
    const pair = makePair();
    const home = path.join(pair.workspace, ".hermes-home");
    writeTree(pair.workspace, { "a.txt": "a\n", ".hermes-home/config.yaml": "model: {}\n" });
    const store = await openStore({ workspace: pair.workspace, home });
    const result = await store.checkpoint({ sessionId: "s", turn: 1 });
    assert.ok(result.ok);
    const files = (await store.diff("4b825dc642cb6eb9a060e54bf8d69288fbee4904", result.checkpoint.commit)).changes.map((change) => change.path);
    assert.deepEqual(files, ["a.txt"]);
  });

  test("nested repositories are left out and named", async () => {
    const pair = makePair();
    writeTree(pair.workspace, { "top.txt": "t\n", "vendor/lib/file.c": "int x;\n" });
    git(path.join(pair.workspace, "vendor/lib"), "init", "-q");
    const store = await openStore(pair);
    const result = await store.checkpoint({ sessionId: "s", turn: 1 });
    assert.ok(result.ok);
    assert.deepEqual(result.notCovered, [{ path: "vendor/lib", reason: "nested-repository" }]);
    const files = (await store.diff("4b825dc642cb6eb9a060e54bf8d69288fbee4904", result.checkpoint.commit)).changes.map((change) => change.path);
    assert.deepEqual(files, ["top.txt"]);

    // A folder snapshotted earlier that becomes a repository stays covered as plain files; its .git never is.
    writeTree(pair.workspace, { "tools/gen/run.sh": "echo\n" });
    assert.ok((await store.checkpoint({ sessionId: "s", turn: 2 })).ok);
    git(path.join(pair.workspace, "tools/gen"), "init", "-q");
    writeTree(pair.workspace, { "tools/gen/run.sh": "echo changed\n" });
    const later = await store.checkpoint({ sessionId: "s", turn: 3 });
    assert.ok(later.ok);
    assert.deepEqual(later.changes.map((change) => `${change.status} ${change.path}`), ["modified tools/gen/run.sh"]);
  });

  test("over the file cap: no checkpoint and a clear reason; big files are skipped and named", async () => {
    const pair = makePair();
    writeTree(pair.workspace, Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`f${i}.txt`, `${i}\n`])));
    const capped = await openStore(pair, { limits: { maxFiles: 10 } });
    const refused = await capped.checkpoint({ sessionId: "s", turn: 1 });
    assert.deepEqual(refused, { ok: false, reason: "workspace has 12 files, over checkpoints.max_files=10" });
    assert.deepEqual(await capped.list("s"), []);

    writeTree(pair.workspace, { "big.bin": Buffer.alloc(2048, 1), "grows.txt": "small\n" });
    const store = await openStore(pair, { limits: { maxFileBytes: 1024 } });
    const taken = await store.checkpoint({ sessionId: "s", turn: 1 });
    assert.ok(taken.ok);
    assert.deepEqual(taken.notCovered, [{ path: "big.bin", reason: "too-big", bytes: 2048 }]);
    assert.deepEqual(taken.checkpoint.notCovered, taken.notCovered);
    // The turn makes grows.txt too big to snapshot: undoing it would overwrite a file no
    // checkpoint holds, so it is named as a conflict and never overwritten.
    writeFileSync(path.join(pair.workspace, "grows.txt"), Buffer.alloc(4096, 2));
    const post = await store.checkpoint({ sessionId: "s", turn: 1, phase: "post" });
    assert.ok(post.ok);
    assert.deepEqual(post.changes.map((change) => [change.path, change.status]), [["grows.txt", "deleted"]]);
    const plan = await store.planUndo("s");
    assert.deepEqual(plan.conflicts, [{ path: "grows.txt", reason: "not-covered" }]);
    const kept = await store.restore(plan);
    assert.deepEqual(kept.skipped, [{ path: "grows.txt", reason: "too big to back up, so never overwritten" }]);
    const forced = await store.restore(await store.planUndo("s"), { overwriteConflicts: true });
    assert.deepEqual(forced.applied, []);
    assert.equal(statSync(path.join(pair.workspace, "grows.txt")).size, 4096);
    assert.equal(statSync(path.join(pair.workspace, "big.bin")).size, 2048, "a file never covered is never touched");
  });

  test("the shadow repository lives under $HERMES_HOME/checkpoints and names its workspace", async () => {
    const pair = makePair();
    const store = await openStore(pair);
    assert.equal(path.dirname(store.repositoryDir), path.join(pair.home, "checkpoints"));
    const identity = JSON.parse(readFileSync(path.join(store.repositoryDir, "hermes-workspace.json"), "utf8")) as { workspace: string };
    assert.equal(identity.workspace, store.workspace);
    // A different workspace whose hash slot is taken (simulated by rewriting the identity) gets its own slot.
    writeFileSync(path.join(store.repositoryDir, "hermes-workspace.json"), JSON.stringify({ workspace: "/somewhere/else" }));
    const again = await openStore(pair);
    assert.notEqual(again.repositoryDir, store.repositoryDir);
    assert.equal(readdirSync(path.join(pair.home, "checkpoints")).length, 2);
  });

  test("without git, checkpoints are off and say why", async () => {
    const pair = makePair();
    const result = await openCheckpointStore(pair.workspace, { hermesHome: pair.home, env: { PATH: pair.home } });
    assert.equal(result.ok, false);
    assert.match(!result.ok ? result.reason : "", /git was not found/);
  });
});
