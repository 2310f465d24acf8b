import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { openCheckpointStore } from "../../acp-server/checkpoints/store";
import { makePair, openStore, pictureOf, writeTree, type Pair } from "../support/checkpoint-fixtures";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CHILD = fileURLToPath(new URL("../support/checkpoint-restore-child.ts", import.meta.url));
const FILES = 120;

/** A session whose turn 1 changed, deleted and added many files; returns the pre-turn picture. */
async function turnWithManyChanges(pair: Pair): Promise<{ before: Record<string, string>; after: Record<string, string> }> {
  writeTree(pair.workspace, Object.fromEntries(Array.from({ length: FILES }, (_, i) => [`src/m${i}.ts`, `export const v${i} = ${i};\n`])));
  const before = pictureOf(pair.workspace);
  const store = await openStore(pair);
  await store.checkpoint({ sessionId: "s", turn: 1, prompt: "rewrite every module" });
  for (let i = 0; i < FILES; i++) {
    if (i % 10 === 0) continue;
    writeFileSync(path.join(pair.workspace, `src/m${i}.ts`), `export const v${i} = ${i * 100}; // rewritten\n`);
  }
  writeTree(pair.workspace, Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`gen/new${i}.ts`, `new ${i}\n`])));
  await store.checkpoint({ sessionId: "s", turn: 1, phase: "post" });
  return { before, after: pictureOf(pair.workspace) };
}

/** Starts the restore in a child, kills it with SIGKILL after `pauseAfter` files, and waits for it to be reaped. */
async function killMidRestore(pair: Pair, pauseAfter: number): Promise<void> {
  const child = spawn(process.execPath, ["--import", "tsx", CHILD, pair.workspace, pair.home, "s", String(pauseAfter)], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      if (stdout.includes("paused\n")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`child exited (${code}) before pausing: ${stdout}\n${stderr}`)));
  });
  child.kill("SIGKILL");
  await exited;
}

describe("checkpoints: a restore killed midway", () => {
  test("kill -9 after part of the files: the next open completes the restore, never a mix", async () => {
    const pair = makePair();
    const { before, after } = await turnWithManyChanges(pair);
    await killMidRestore(pair, 50);

    const midway = pictureOf(pair.workspace);
    assert.notDeepEqual(midway, before, "the kill came before the restore finished");
    assert.notDeepEqual(midway, after, "the kill came after the restore started");
    assert.ok(existsSync(path.join(pair.home, "checkpoints")));

    // What a kill between writing a temporary sibling and renaming it leaves behind.
    writeFileSync(path.join(pair.workspace, "src/.m3.ts.hermes-restore-0123abcd"), "half written");

    const reopened = await openCheckpointStore(pair.workspace, { hermesHome: pair.home });
    assert.ok(reopened.ok);
    assert.ok(reopened.recovery, "the interrupted restore is reported");
    assert.equal(reopened.recovery.completed, true);
    assert.ok(reopened.recovery.applied > 0);
    assert.deepEqual(reopened.recovery.leftAlone, []);
    assert.deepEqual(reopened.recovery.failed, []);
    assert.deepEqual(pictureOf(pair.workspace), before);

    // Nothing is left to recover, and the restore can itself be undone from its backup.
    const again = await openCheckpointStore(pair.workspace, { hermesHome: pair.home });
    assert.ok(again.ok && again.recovery === undefined);
  });

  test("a file someone changed between the crash and the recovery is left alone and named", async () => {
    const pair = makePair();
    const { before } = await turnWithManyChanges(pair);
    await killMidRestore(pair, 5);
    // The order is deletions first (gen/*), then writes: src/m99.ts is not restored yet.
    writeFileSync(path.join(pair.workspace, "src/m99.ts"), "the user's edit after the crash\n");

    const reopened = await openCheckpointStore(pair.workspace, { hermesHome: pair.home });
    assert.ok(reopened.ok && reopened.recovery);
    assert.deepEqual(reopened.recovery.leftAlone, ["src/m99.ts"]);
    const expected = { ...before, "src/m99.ts": pictureOf(pair.workspace)["src/m99.ts"] };
    assert.deepEqual(pictureOf(pair.workspace), expected);
  });
});
