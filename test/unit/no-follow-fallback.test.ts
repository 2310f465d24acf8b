// util/no-follow-io.ts where /proc is not there (as on macOS): the walk falls back to checking
// each component with lstat, before and after the I/O. Run for real under bubblewrap with an
// empty /proc, so the fallback is the code under test, not a flag. It cannot close the race
// (docs/security.md says so); it must still refuse every link it meets and write nothing outside.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, test } from "node:test";
import { sandboxSkip } from "../support/sandbox";
import { makeTempDirSync } from "../support/temp-dirs";

const PROBE = String.raw`
const fs = require("node:fs");
const path = require("node:path");
const { writePinned, openPinnedForRead, PathMovedError } = require(process.argv[1]);
const root = process.argv[2];
const ws = path.join(root, "ws"), outside = path.join(root, "outside");
fs.mkdirSync(path.join(ws, "dir"), { recursive: true });
fs.mkdirSync(outside);
fs.writeFileSync(path.join(outside, "a.txt"), "secret\n");
const pin = (file) => ({ real: path.join(ws, file), linked: false });
const outcome = (run) => { try { const value = run(); return value === undefined ? "ok" : String(value); } catch (error) { return error instanceof PathMovedError ? "moved" : String(error.code); } };
const results = { proc: fs.existsSync("/proc/self/fd") };
results.plainWrite = outcome(() => writePinned(pin("dir/a.txt"), "inside\n"));
results.plainRead = outcome(() => openPinnedForRead(pin("dir/a.txt"), (fd) => fs.readFileSync(fd, "utf8").trim()));
results.newFolders = outcome(() => writePinned(pin("new/deeper/b.txt"), "x\n"));
fs.renameSync(path.join(ws, "dir"), path.join(ws, "dir.aside"));
fs.symlinkSync(outside, path.join(ws, "dir"));
results.writeThroughSwappedFolder = outcome(() => writePinned(pin("dir/a.txt"), "pwned\n"));
results.readThroughSwappedFolder = outcome(() => openPinnedForRead(pin("dir/a.txt"), (fd) => fs.readFileSync(fd, "utf8").trim()));
fs.symlinkSync(path.join(outside, "a.txt"), path.join(ws, "link.txt"));
results.writeOverLink = outcome(() => writePinned(pin("link.txt"), "pwned\n"));
results.readLink = outcome(() => openPinnedForRead(pin("link.txt"), (fd) => fs.readFileSync(fd, "utf8").trim()));
results.outside = fs.readdirSync(outside).map((name) => name + "=" + fs.readFileSync(path.join(outside, name), "utf8").trim());
process.stdout.write(JSON.stringify(results));
`;

describe("the no-follow walk without /proc", { skip: sandboxSkip() }, () => {
  test("refuses links in the path and on the name, and writes nothing outside", () => {
    const root = makeTempDirSync("hermes-noproc-", "/var/tmp");
    const helper = path.resolve("acp-server/util/no-follow-io.ts");
    const run = spawnSync("bwrap", ["--dev-bind", "/", "/", "--tmpfs", "/proc", process.execPath, "--import", "tsx", "-e", PROBE, helper, root], { encoding: "utf8" });
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), {
      proc: false,
      plainWrite: "ok",
      plainRead: "inside",
      newFolders: "ok",
      writeThroughSwappedFolder: "moved",
      readThroughSwappedFolder: "moved",
      writeOverLink: "moved",
      readLink: "moved",
      outside: ["a.txt=secret"],
    });
  });
});
