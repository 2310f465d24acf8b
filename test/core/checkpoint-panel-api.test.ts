// What a panel needs to offer "Restore checkpoint" and "Edit and resend" on past messages:
// `_hermes/checkpoints/list` (which turns have a checkpoint, the same after session/load),
// each turn's number (`hermes/turn` on the prompt's answer and on replayed prompts), and what
// became of a restore (`hermes/restore` on a checkpoint command's answer).
import type * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { makeTempDir, scriptedConfig, startAgent } from "../support/in-process-agent";
import { useScriptedModel } from "../support/scripted-model";

const scripted = useScriptedModel();

interface Listing {
  enabled: boolean;
  reason?: string;
  turns: { turn: number; time: number; prompt: string; changedCount?: number; changed?: string[] }[];
}

test("the checkpoint list names the changing turns, before and after a reload; answers carry the turn and the restore's outcome", async () => {
  const model = scripted();
  const project = await makeTempDir();
  await writeFile(path.join(project, "a.txt"), "one\n");
  let restoreAnswer = "cancel";
  const hermes = await startAgent({
    config: scriptedConfig(model.url),
    permission: (request) => (request.toolCall.toolCallId.startsWith("restore-") ? restoreAnswer : "allow_once"),
  });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    const list = () => hermes.agent.request<Listing>("_hermes/checkpoints/list", { sessionId });

    model.enqueue({ text: "just words" });
    const first = await hermes.prompt(sessionId, "talk only");
    assert.equal(first._meta?.["hermes/turn"], 1);
    model.enqueue({ toolCalls: [{ id: "w1", name: "write_file", arguments: { path: "a.txt", content: "two\n" } }] }, { text: "edited" });
    const second = await hermes.prompt(sessionId, "change a.txt");
    assert.equal(second._meta?.["hermes/turn"], 2);
    const listed = await list();
    assert.equal(listed.enabled, true);
    assert.deepEqual(
      listed.turns.map((t) => [t.turn, t.prompt, t.changedCount, t.changed]),
      [[2, "change a.txt", 1, ["a.txt"]]],
      "only the changing turn, with what it changed",
    );

    // A command is no turn: no number on its answer; a restore says what became of it.
    const cancelled = await hermes.prompt(sessionId, "/rollback 2");
    assert.equal(cancelled._meta?.["hermes/turn"], undefined);
    assert.equal(cancelled._meta?.["hermes/restore"], "cancelled");
    const none = await hermes.prompt(sessionId, "/rollback 1");
    assert.equal(none._meta?.["hermes/restore"], "unavailable", "turn 1 has no checkpoint");
    restoreAnswer = "restore";
    const restored = await hermes.prompt(sessionId, "/undo");
    assert.equal(restored._meta?.["hermes/restore"], "restored");
    const again = await hermes.prompt(sessionId, "/undo");
    assert.equal(again._meta?.["hermes/restore"], "nothing");

    // After a reload (a new process would do the same: the list comes from the checkpoint store).
    hermes.updates.length = 0;
    await hermes.agent.request("session/load", { sessionId, cwd: project, mcpServers: [] });
    const prompts = hermes.updates
      .filter((n) => n.sessionId === sessionId && n.update.sessionUpdate === "user_message_chunk")
      .map((n) => [(n.update as acp.SessionUpdate & { _meta?: Record<string, unknown> })._meta?.["hermes/turn"], (n.update as { content: acp.ContentBlock }).content]);
    assert.deepEqual(prompts, [
      [1, { type: "text", text: "talk only" }],
      [2, { type: "text", text: "change a.txt" }],
    ]);
    assert.deepEqual((await list()).turns.map((t) => t.turn), [2]);

    await assert.rejects(hermes.agent.request("_hermes/checkpoints/list", { sessionId: 42 }), /invalid _hermes\/checkpoints\/list params/);
    await assert.rejects(hermes.agent.request("_hermes/checkpoints/list", { sessionId: "no-such-session" }), /Resource not found/);
  } finally {
    await hermes.close();
  }
});
