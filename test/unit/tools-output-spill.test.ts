// The spill file of a command's whole output: redacted across chunk boundaries, capped with a
// note (a runaway command cannot fill the disk), never written through an existing file, and
// removed when not needed.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { test } from "node:test";
import { OutputSpill } from "../../acp-server/tools/output-spill";

const SECRET = "ghp_" + "M1n2B3v4C5x6Z7l8K9j0H1g2F3d4S5a6P7o8";

test("a secret split across two chunks is redacted in the file; the bytes are counted", () => {
  const spill = OutputSpill.open("spill-unit", "c1");
  assert.ok(spill);
  spill.write(`line one\ntoken=${SECRET.slice(0, 10)}`);
  spill.write(`${SECRET.slice(10)} done\n`);
  const full = spill.finish();
  const text = readFileSync(full.path, "utf8");
  assert.ok(!text.includes(SECRET) && !text.includes(SECRET.slice(10)), text);
  assert.match(text, /^line one\ntoken=\S+ done\n$/);
  assert.equal(full.bytes, Buffer.byteLength(text));
});

test("past the cap the file ends with a note; discard removes it", () => {
  const spill = OutputSpill.open("spill-unit", "c2", 1024);
  assert.ok(spill);
  for (let i = 0; i < 100; i++) spill.write(`${"x".repeat(99)}\n`);
  const full = spill.finish();
  const text = readFileSync(full.path, "utf8");
  assert.ok(text.startsWith("x".repeat(99)));
  assert.match(text, /\[\.\.\. output past 0 MB was not kept \.\.\.\]\n$/);
  assert.ok(full.bytes < 1200);

  const other = OutputSpill.open("spill-unit", "c3");
  assert.ok(other);
  other.write("short");
  other.discard();
  assert.equal(existsSync(other.path), false);
});
