// Zed, JetBrains and every other ACP client get the undo commands in their slash menu: the built
// agent, over stdio, offers /checkpoints, /undo, /rollback (with its input hint) and /rewind in
// the available_commands_update of a new session and of a loaded one, to a client that serves
// fs and terminal like an editor. Typed there, they answer like any command.
import type * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { test } from "node:test";
import { makeTempDir, scriptedConfig, startHermes } from "../support/acp-harness";
import { useScriptedModel } from "../support/scripted-model";

const scripted = useScriptedModel();
const UNDO_COMMANDS = ["checkpoints", "undo", "rollback", "rewind"];

function offered(updates: acp.SessionNotification[], sessionId: string): acp.AvailableCommand[] {
  const latest = [...updates].reverse().find((n) => n.sessionId === sessionId && n.update.sessionUpdate === "available_commands_update");
  return latest?.update.sessionUpdate === "available_commands_update" ? latest.update.availableCommands : [];
}

test("the undo commands are in available_commands_update for an editor client, on new and loaded sessions", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const hermes = await startHermes({ config: scriptedConfig(model.url), serveFs: true, serveTerminal: true });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    await hermes.waitForUpdate((u) => u.sessionUpdate === "available_commands_update");
    const commands = offered(hermes.updates, sessionId);
    for (const name of UNDO_COMMANDS) assert.ok(commands.some((c) => c.name === name && c.description.length > 0), `/${name} is offered`);
    assert.match(commands.find((c) => c.name === "rollback")?.input?.hint ?? "", /turn number/);
    assert.match(commands.find((c) => c.name === "rewind")?.input?.hint ?? "", /turn number/);

    const answer = await hermes.prompt(sessionId, "/checkpoints");
    assert.equal(answer.stopReason, "end_turn");
    assert.equal(model.requests.length, 0, "answered without the model");

    hermes.updates.length = 0;
    await hermes.agent.request("session/load", { sessionId, cwd: project, mcpServers: [] });
    await hermes.waitForUpdate((u) => u.sessionUpdate === "available_commands_update");
    const reloaded = offered(hermes.updates, sessionId).map((c) => c.name);
    for (const name of UNDO_COMMANDS) assert.ok(reloaded.includes(name), `/${name} is offered after session/load`);
  } finally {
    await hermes.close();
  }
});
