// A learning ledger or a skills folder that exists but cannot be read says so, with the reason,
// instead of passing for "nothing learned" / "no skills". A missing one is still simply empty.
import assert from "node:assert/strict";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { LearningLedger } from "../../acp-server/learning/ledger";
import { loadSkillCatalog } from "../../acp-server/skills/library";
import { userSkillsDir } from "../../acp-server/skills/sources";
import { makeTempDirSync } from "../support/temp-dirs";

const tempDir = () => makeTempDirSync("hermes-unreadable-");

test("learning ledger: no folder yet lists nothing", () => {
  assert.deepEqual(new LearningLedger(tempDir()).list(), []);
});

test("learning ledger: a folder that cannot be read is an error naming the reason, not an empty list", () => {
  const home = tempDir();
  const ledger = new LearningLedger(home);
  mkdirSync(path.dirname(ledger.dir), { recursive: true });
  writeFileSync(ledger.dir, "not a folder"); // readdir fails with ENOTDIR
  assert.throws(() => ledger.list(), (error: Error) => {
    assert.match(error.message, /Cannot read the learning ledger/);
    assert.match(error.message, /ENOTDIR/);
    return true;
  });
});

test("skills: a missing user skills folder is no warning", () => {
  const home = tempDir();
  const catalog = loadSkillCatalog({ cwd: tempDir(), home, bundled: false });
  assert.deepEqual(catalog, { skills: [], warnings: [] });
});

test("skills: a user skills folder that cannot be read is a catalog warning with the reason", () => {
  const home = tempDir();
  const dir = userSkillsDir(home);
  mkdirSync(path.dirname(dir), { recursive: true });
  symlinkSync(dir, dir); // a link to itself: readdir fails with ELOOP, even for root
  const catalog = loadSkillCatalog({ cwd: tempDir(), home, bundled: false });
  assert.deepEqual(catalog.skills, []);
  assert.equal(catalog.warnings.length, 1, catalog.warnings.join("\n"));
  assert.match(catalog.warnings[0], /cannot read skills folder/);
  assert.ok(catalog.warnings[0].includes(dir));
  assert.match(catalog.warnings[0], /ELOOP/);
});
