// A saved "always" is as narrow in the next process as the card said: process 1 (the built
// `hermes acp`) answers "Always allow `rm -rf` on `build/`"; process 2, a new one on the same
// HERMES_HOME, runs `rm -rf build` without asking and still asks for `rm -rf src`. Before,
// the saved rule was the finding key ("rm-recursive") and deleted src too, unasked.
import type * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdir, readFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { makeTempDir, scriptedConfig, startHermes } from "../support/acp-harness";
import { useScriptedModel } from "../support/scripted-model";

const scripted = useScriptedModel();

const run = (id: string, command: string) => ({ toolCalls: [{ id, name: "terminal", arguments: { command } }] });
const pick = (optionId: string) => (request: acp.RequestPermissionRequest) => (request.options.some((o) => o.optionId === optionId) ? optionId : "cancelled");

test("always allow on `rm -rf build` in one process: the next process runs `rm -rf build` unasked and asks for `rm -rf src`", async () => {
  const model = scripted();
  const project = await makeTempDir();
  await mkdir(path.join(project, "build"));
  await mkdir(path.join(project, "src"));

  let alwaysName: string | undefined;
  const first = await startHermes({ config: scriptedConfig(model.url), permission: pick("allow_always") });
  try {
    await first.initialize();
    const { sessionId } = await first.newSession(project);
    model.enqueue(run("r1", "rm -rf build"), { text: "cleaned" });
    await first.prompt(sessionId, "clean the build folder");
    assert.equal(first.permissionRequests.length, 1);
    alwaysName = first.permissionRequests[0]?.options.find((o) => o.optionId === "allow_always")?.name;
    assert.equal(existsSync(path.join(project, "build")), false, "process 1 ran it");
  } finally {
    await first.close();
  }
  await mkdir(path.join(project, "build"));
  const second = await startHermes({ env: { HERMES_HOME: first.home }, permission: pick("reject_once") });
  try {
    await second.initialize();
    const { sessionId } = await second.newSession(project);
    model.enqueue(run("r2", "rm -rf build"), run("r3", "rm -rf src"), { text: "done" });
    await second.prompt(sessionId, "clean again, and src too");
    assert.deepEqual(
      second.permissionRequests.map((r) => r.toolCall.toolCallId),
      ["r3"],
      "the saved rule covers the command it named, not another path",
    );
    assert.equal(existsSync(path.join(project, "build")), false, "the saved rule ran rm -rf build");
    assert.ok(existsSync(path.join(project, "src")), "src was asked about and rejected");
  } finally {
    await second.close();
  }
  // What the card said, and what was saved: the same thing.
  assert.equal(alwaysName, "Always allow `rm -rf` on `build/` (saved to config.yaml)");
  const saved = (await readFile(path.join(first.home, "config.yaml"), "utf8")).replace(/\s+/g, " ");
  assert.ok(saved.includes(`commands: - rm -rf build folder: ${project} keys: - rm-recursive decision: allow`), saved);
});
