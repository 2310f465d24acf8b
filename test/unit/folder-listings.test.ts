// The plant guard's remembered folder listings (security/folder-listings.ts) never hide a change:
// a new `.git`, a new folder or a rename is seen on the next walk even when the listing came from
// memory, and setting the folder's times back does not bring the old listing back. The clock is
// passed ten seconds ahead so that the fresh test folders count as old enough to remember.
import assert from "node:assert/strict";
import { mkdirSync, renameSync, statSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { listFolder } from "../../acp-server/security/folder-listings";
import { makeTempDirSync as makeTempDir } from "../support/temp-dirs";

const later = () => Date.now() + 10_000;

function fresh(): string {
  const dir = makeTempDir("hermes-listings-");
  mkdirSync(path.join(dir, "src"));
  writeFileSync(path.join(dir, "README.md"), "hello\n");
  return dir;
}

test("a remembered listing is reused while the folder is unchanged", () => {
  const dir = fresh();
  const first = listFolder(dir, later());
  assert.deepEqual(first?.folders, ["src"]);
  assert.equal(listFolder(dir, later()), first, "the same listing object comes back from memory");
});

test("a .git created after the listing was remembered is seen, also with the folder's times set back", () => {
  const dir = fresh();
  listFolder(dir, later());
  mkdirSync(path.join(dir, ".git"));
  assert.deepEqual(listFolder(dir, later())?.gitEntries, [".git"]);

  const other = fresh();
  listFolder(other, later());
  const old = statSync(other);
  writeFileSync(path.join(other, ".GIT"), "gitdir: /elsewhere\n");
  utimesSync(other, old.atime, old.mtime);
  assert.deepEqual(listFolder(other, later())?.gitEntries, [".GIT"], "a times-reset folder still shows its new gitfile");
});

test("a rename inside the folder, and a folder replaced under the same name, are seen", () => {
  const dir = fresh();
  listFolder(dir, later());
  renameSync(path.join(dir, "src"), path.join(dir, "lib"));
  assert.deepEqual(listFolder(dir, later())?.folders, ["lib"]);

  const parent = fresh();
  const child = path.join(parent, "src");
  listFolder(child, later());
  renameSync(child, path.join(parent, "moved"));
  mkdirSync(child);
  mkdirSync(path.join(child, ".git"));
  assert.deepEqual(listFolder(child, later())?.gitEntries, [".git"]);
});

test("a folder that just changed is listed again each time, never remembered", () => {
  const dir = fresh();
  const first = listFolder(dir);
  const second = listFolder(dir);
  assert.notEqual(first, second, "a listing taken within the racy window is not reused");
  assert.deepEqual(second, first);
});

test("a missing folder has no listing", () => {
  assert.equal(listFolder(path.join(fresh(), "gone")), undefined);
});
