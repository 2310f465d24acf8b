import assert from "node:assert/strict";
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { OutputSpill } from "../../extension/output-spill";
import { TerminalFeed } from "../../extension/terminal-feed";
import type { ChatAction } from "../../webview-ui/state/actions";
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
  assert.equal(path.dirname(file), path.join(root, "hermes-sess_1"), "under the session's temp folder (a safe name)");
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
