import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmod, lstat, mkdir, open, readdir, readFile, stat, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { FileNotFoundError } from "../../acp-server/tools/context";
import { LocalFileAccess, SYNC_READ_BYTES } from "../../acp-server/tools/local-files";
import { tempDir } from "../support/tool-context";

const files = new LocalFileAccess();

test("writes create folders and leave no temp files behind", async () => {
  const dir = await tempDir();
  const file = path.join(dir, "a", "b", "c.txt");
  await files.writeText(file, "hello");
  assert.equal(await readFile(file, "utf8"), "hello");
  assert.deepEqual(await readdir(path.join(dir, "a", "b")), ["c.txt"]);
});

test("an edited executable stays executable", async () => {
  const dir = await tempDir();
  const script = path.join(dir, "run.sh");
  await writeFile(script, "#!/bin/sh\necho 1\n");
  await chmod(script, 0o755);
  await files.writeText(script, "#!/bin/sh\necho 2\n");
  assert.equal((await stat(script)).mode & 0o777, 0o755);
});

test("writing through a symlink edits the target and keeps the link", async () => {
  const dir = await tempDir();
  await mkdir(path.join(dir, "real"));
  const real = path.join(dir, "real", "config.json");
  await writeFile(real, "{}");
  const link = path.join(dir, "config.json");
  await symlink(real, link);
  await files.writeText(link, '{"a":1}');
  assert.ok((await lstat(link)).isSymbolicLink());
  assert.equal(await readFile(real, "utf8"), '{"a":1}');
});

test("reading a missing file is a FileNotFoundError", async () => {
  const dir = await tempDir();
  await assert.rejects(files.readText(path.join(dir, "nope.txt")), FileNotFoundError);
});

test("small files are read whole, files over the blocking-read size too, and a folder is refused as before", async () => {
  const dir = await tempDir();
  const small = path.join(dir, "small.txt");
  await writeFile(small, "héllo\n");
  assert.equal(await files.readText(small), "héllo\n");
  const big = path.join(dir, "big.txt");
  const content = `${"x".repeat(SYNC_READ_BYTES)}tail\n`;
  await writeFile(big, content);
  assert.equal(await files.readText(big), content);
  await assert.rejects(files.readText(dir), /EISDIR/);
});

test("a FIFO is read the asynchronous way: waiting for its writer never blocks the thread", { skip: process.platform === "win32" }, async (t) => {
  const dir = await tempDir();
  const fifo = path.join(dir, "pipe");
  const made = spawnSync("mkfifo", [fifo]);
  if (made.status !== 0) return t.skip("mkfifo is not available");
  const reading = files.readText(fifo);
  // A reader blocked in a synchronous open or read would never let this writer run.
  const writer = await open(fifo, "w");
  await writer.write("from the pipe\n");
  await writer.close();
  assert.equal(await reading, "from the pipe\n");
});
