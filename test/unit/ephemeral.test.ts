// The ephemeral layer: a memory nudge every N prompts and a note about files changed outside
// the agent, each said once, never stored in the history.
import assert from "node:assert/strict";
import { utimesSync, writeFileSync, rmSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { changedFilesNote, MEMORY_NUDGE, turnNotes } from "../../acp-server/agent/ephemeral";
import { SeenFiles } from "../../acp-server/agent/seen-files";
import { AgentSession } from "../../acp-server/agent/session";
import { makeTempDirSync } from "../support/temp-dirs";

test("the memory nudge comes every N prompts, only when the memory tool exists", () => {
  const session = new AgentSession("s", "/tmp", "default");
  const settings = { memoryEvery: 3, changedFiles: false };
  const seen: (string | undefined)[] = [];
  for (let turn = 1; turn <= 6; turn++) {
    session.startTurn();
    assert.equal(session.userTurns, turn);
    seen.push(turnNotes(session, settings, ["memory", "read_file"]));
  }
  assert.deepEqual(seen, [undefined, undefined, MEMORY_NUDGE, undefined, undefined, MEMORY_NUDGE]);
  const third = new AgentSession("s3", "/tmp", "default");
  for (let turn = 1; turn <= 3; turn++) third.startTurn();
  assert.equal(turnNotes(third, settings, ["read_file"]), undefined, "no memory tool, no nudge");
  assert.equal(turnNotes(session, { memoryEvery: 0, changedFiles: false }, ["memory"]), undefined, "0 turns it off");
});

test("files the agent read are noted once when they change outside it, and when they disappear", () => {
  const dir = makeTempDirSync();
  const a = path.join(dir, "a.ts");
  const b = path.join(dir, "b.ts");
  writeFileSync(a, "one");
  writeFileSync(b, "two");
  const files = new SeenFiles();
  files.remember([a, b]);
  assert.deepEqual(files.takeChanged(), []);

  writeFileSync(a, "one, edited by the user");
  utimesSync(a, new Date(), new Date(Date.now() + 5_000));
  rmSync(b);
  assert.deepEqual(files.takeChanged().sort(), [a, b].sort());
  assert.deepEqual(files.takeChanged(), [], "each change is told once");

  const session = new AgentSession("s", dir, "default");
  session.seenFiles.remember([a]);
  writeFileSync(a, "changed again, longer than before");
  const note = turnNotes(session, { memoryEvery: 0, changedFiles: true }, []);
  assert.equal(note, changedFilesNote([a], dir));
  assert.match(note ?? "", /changed since you last read or edited them[^]*a\.ts/);
  assert.doesNotMatch(note ?? "", new RegExp(dir), "paths inside the workspace are shown relative");
  assert.equal(session.history.length, 0, "notes are never stored");
});
