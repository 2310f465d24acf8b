// Race corpus for /rollback (issue 29, item 1): while a restore puts back 2000 files a turn
// deleted from dir/, a separate process keeps swapping dir/ for a symlink to an outside folder.
// Each file is one try; none may be created outside, and no temp file may be left there.
import assert from "node:assert/strict";
import { readdirSync, rmSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { startFlipper } from "../support/path-flipper";
import { makePair, openStore, writeTree } from "../support/checkpoint-fixtures";
import { makeTempDirSync } from "../support/temp-dirs";

// More tries than the tools: most restore ops meet the symlink at the guard, the escape needs it just after.
const FILES = Number(process.env.HERMES_RACE_TRIES ?? 2000);

test(`a restore into a folder that flips with a symlink to outside writes nothing outside (${FILES} files)`, async () => {
  const pair = makePair();
  const outside = makeTempDirSync("hermes-outside-");
  const names = Array.from({ length: FILES }, (_, i) => `dir/r${i}.txt`);
  writeTree(pair.workspace, Object.fromEntries(names.map((name) => [name, `restored ${name}\n`])));
  const store = await openStore(pair);
  await store.checkpoint({ sessionId: "s", turn: 1, prompt: "delete them" });
  for (const name of names) rmSync(path.join(pair.workspace, name));
  await store.checkpoint({ sessionId: "s", turn: 1, phase: "post" });
  await mkdir(path.join(pair.workspace, "dir"), { recursive: true });

  const plan = await store.planUndo("s");
  const flipper = await startFlipper(path.join(pair.workspace, "dir"), outside, "folder");
  let result;
  try {
    result = await store.restore(plan);
  } finally {
    await flipper.stop();
  }
  const tally = { applied: result.applied.length, failed: result.failed.length, skipped: result.skipped.length };
  console.log(`# restore with dir/ flipping: ${JSON.stringify(tally)}`);
  assert.deepEqual(readdirSync(outside), [], `files restored outside (${JSON.stringify(tally)})`);
  assert.ok(tally.applied + tally.failed > 0, "the restore never ran");
});
