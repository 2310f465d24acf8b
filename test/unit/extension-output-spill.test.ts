import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { OutputSpill, SPILL_MAX_AGE_MS, sweepSpills } from "../../extension/output-spill";
import { TerminalFeed } from "../../extension/terminal-feed";
import type { ChatAction } from "../../common/panel-state/actions";
import { makeTempDir } from "../support/acp-harness";

test("an editor terminal's whole output is spilled to a file while the panel gets only the tail", async () => {
  const root = await makeTempDir();
  const spill = new OutputSpill(() => "sess/1", root);
  const actions: ChatAction[] = [];
  const feed = new TerminalFeed((a) => actions.push(a), 5, spill);
  feed.started("term-1");
  const lines = Array.from({ length: 20_000 }, (_, i) => `line ${i + 1}\n`);
  for (const line of lines) feed.output("term-1", line);
  feed.exited("term-1", { exitCode: 0, signal: null });

  const shipped = actions.flatMap((a) => (a.type === "terminalOutput" ? [a] : []));
  assert.ok(shipped.some((a) => a.truncated), "the panel was told earlier output was dropped");
  const file = await spill.file("term-1");
  assert.ok(file, "the spill has a file");
  assert.equal(path.dirname(file), path.join(root, "sess_1"), "in the session's folder (a safe name)");
  assert.equal(readFileSync(file, "utf8"), lines.join(""), "nothing is lost");
  assert.equal(statSync(file).mode & 0o777, 0o600, "only the user can read it");
  assert.equal(await spill.file("term-404"), undefined);
  feed.dispose();
  spill.dispose();
});

test("a spill read while the command still runs has what was written so far", async () => {
  const root = await makeTempDir();
  const spill = new OutputSpill(() => null, root);
  spill.open("t");
  spill.append("t", "first\n");
  const file = await spill.file("t");
  assert.equal(readFileSync(file!, "utf8"), "first\n");
  spill.append("t", "second\n");
  spill.close("t");
  assert.equal(readFileSync((await spill.file("t"))!, "utf8"), "first\nsecond\n");
});

/** A spill with one finished command's file, in the session `session`. */
async function spilled(spill: OutputSpill, terminalId: string, text: string): Promise<string> {
  spill.open(terminalId);
  spill.append(terminalId, text);
  spill.close(terminalId);
  const file = await spill.file(terminalId);
  assert.ok(file && existsSync(file));
  return file;
}

test("deleting a session removes its spilled output; other sessions' stays", async () => {
  const root = await makeTempDir();
  let session = "kept";
  const spill = new OutputSpill(() => session, root);
  const kept = await spilled(spill, "t1", "keep me\n");
  session = "gone";
  const gone = await spilled(spill, "t2", "delete me\n");
  spill.removeSession("gone");
  assert.equal(existsSync(gone), false);
  assert.equal(existsSync(path.dirname(gone)), false, "the session's folder went too");
  assert.equal(readFileSync(kept, "utf8"), "keep me\n");
  assert.equal(await spill.file("t2"), undefined, "no longer offered");
});

test("closing the window removes the files it wrote, except the open chat's (a reload reopens it)", async () => {
  const root = await makeTempDir();
  let session = "earlier";
  const spill = new OutputSpill(() => session, root);
  const earlier = await spilled(spill, "t1", "a\n");
  session = "open";
  const open = await spilled(spill, "t2", "b\n");
  // Another window's file in the same session folder is not ours to remove.
  const theirs = path.join(path.dirname(earlier), "t9-1700000000000.log");
  writeFileSync(theirs, "other window\n");
  spill.dispose("open");
  assert.equal(existsSync(earlier), false);
  assert.equal(readFileSync(open, "utf8"), "b\n", "the open chat's \"Show all\" still works after a reload");
  assert.equal(readFileSync(theirs, "utf8"), "other window\n");
});

test("the activation sweep removes spill files untouched for a week and the folders left empty, and follows no link", async () => {
  const root = await makeTempDir();
  const now = Date.now();
  const old = new Date(now - SPILL_MAX_AGE_MS - 60_000);
  mkdirSync(path.join(root, "s-old"));
  mkdirSync(path.join(root, "s-mixed"));
  const stale = path.join(root, "s-old", "t1-1.log");
  const stale2 = path.join(root, "s-mixed", "t1-1.log");
  const fresh = path.join(root, "s-mixed", "t2-2.log");
  for (const file of [stale, stale2, fresh]) writeFileSync(file, "x");
  utimesSync(stale, old, old);
  utimesSync(stale2, old, old);
  // A link planted in the spill folder, pointing at an old file elsewhere: neither is touched.
  const outside = await makeTempDir();
  const target = path.join(outside, "precious.log");
  writeFileSync(target, "mine");
  utimesSync(target, old, old);
  symlinkSync(outside, path.join(root, "s-link"));
  symlinkSync(target, path.join(root, "s-mixed", "link.log"));

  assert.equal(sweepSpills(root, SPILL_MAX_AGE_MS, now), 2);
  assert.equal(existsSync(path.join(root, "s-old")), false, "an emptied folder goes");
  assert.equal(existsSync(stale2), false);
  assert.equal(readFileSync(fresh, "utf8"), "x", "a recent output stays");
  assert.equal(readFileSync(target, "utf8"), "mine", "nothing is followed through a link");
  assert.equal(sweepSpills(path.join(root, "missing")), 0, "no folder yet: nothing to do");
});
