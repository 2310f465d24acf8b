// Checkpoints over the wire, in the built agent: kill -9 while /undo is restoring, then a new
// process on the same home completes the journaled restore when the session is opened again.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, watch, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { makeTempDir, scriptedConfig, startHermes, type Harness, type PermissionPolicy } from "../support/acp-harness";
import { useScriptedModel } from "../support/scripted-model";

const scripted = useScriptedModel();
/** Enough files that applying them (a fsync each) outlasts the kill. */
const FILES = 1500;

const allowTools: PermissionPolicy = (request) => (request.toolCall.toolCallId.startsWith("restore-") ? "restore" : (request.options.find((o) => o.kind === "allow_once")?.optionId ?? "cancelled"));

function picture(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(path.join(root, "src")).sort()) out[name] = readFileSync(path.join(root, "src", name), "utf8");
  return out;
}

test("kill -9 in the middle of /undo's restore: the next process completes it from the journal", async () => {
  const model = scripted();
  const project = await makeTempDir();
  mkdirSync(path.join(project, "src"));
  for (let i = 0; i < FILES; i++) writeFileSync(path.join(project, "src", `m${i}.txt`), `module ${i}\n`);
  const before = picture(project);
  const config = scriptedConfig(model.url);
  let hermes: Harness | undefined = await startHermes({ config, permission: allowTools });
  let next: Harness | undefined;
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    model.enqueue({ toolCalls: [{ id: "t1", name: "terminal", arguments: { command: "for f in src/*.txt; do echo rewritten > \"$f\"; done" } }] }, { text: "done" });
    await hermes.prompt(sessionId, "rewrite every module");
    assert.equal(readFileSync(path.join(project, "src", "m7.txt"), "utf8"), "rewritten\n");

    // The shadow repository is the one folder under $HERMES_HOME/checkpoints; its journal appears when the restore starts.
    const checkpoints = path.join(hermes.home, "checkpoints");
    const [repo] = readdirSync(checkpoints).filter((name) => !name.startsWith("."));
    assert.ok(repo, "the turn was checkpointed");
    const journal = path.join(checkpoints, repo, "hermes-restore.json");
    const journalSeen = new Promise<void>((resolve) => {
      const watcher = watch(path.join(checkpoints, repo), (_event, name) => {
        if (name === "hermes-restore.json" && existsSync(journal)) {
          watcher.close();
          resolve();
        }
      });
    });
    const undo = hermes.prompt(sessionId, "/undo").catch(() => undefined);
    await journalSeen;
    const exited = new Promise((resolve) => hermes!.child.once("exit", resolve));
    hermes.child.kill("SIGKILL");
    await exited;
    await undo;
    hermes = undefined;
    assert.ok(existsSync(journal), "killed while the restore was under way");
    assert.notDeepEqual(picture(project), before, "the restore was cut short");

    next = await startHermes({ config, env: { HERMES_HOME: path.dirname(checkpoints) }, permission: allowTools });
    await next.initialize();
    await next.agent.request(acp.methods.agent.session.load, { sessionId, cwd: project, mcpServers: [] });
    // /checkpoints opens the store, which waits for the recovery the session's start began.
    await next.prompt(sessionId, "/checkpoints");
    assert.equal(existsSync(journal), false, "the journal is gone: the restore was completed");
    assert.deepEqual(picture(project), before, "the disk equals the pre-turn snapshot");
  } finally {
    await hermes?.close();
    await next?.close();
  }
});
