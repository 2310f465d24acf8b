// A local command's 1 MB output: the model gets its head and tail, the card less, and the whole
// of it (redacted) is spilled to a file in the session's temp folder, named in the card's
// `_meta["hermes/fullOutput"]` (and its footer, for any client). session/load in the same
// process offers it again; a short output leaves no file.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { sandboxStateDir } from "../../acp-server/security/sandbox/temp-dir";
import { useScriptedModel } from "../support/scripted-model";
import { makeTempDir, scriptedConfig, sessionUpdates, startAgent } from "../support/in-process-agent";

const scripted = useScriptedModel();
const SECRET = "ghp_" + "Q1w2E3r4T5y6U7i8O9p0A1s2D3f4G5h6J7k8";

type Meta = { _meta?: Record<string, unknown> };

test("1 MB of output: nothing lost in the spill file (redacted), its path in _meta, offered again on session/load", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const hermes = await startAgent({ config: scriptedConfig(model.url, { terminal: { sandbox: "off" } }) });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    const command = `seq 1 100000; echo "export GITHUB_TOKEN=${SECRET}"; seq 100001 200000`;
    model.enqueue({ toolCalls: [{ id: "big", name: "terminal", arguments: { command } }] }, { text: "Counted." });
    model.enqueue({ toolCalls: [{ id: "small", name: "terminal", arguments: { command: "echo short" } }] }, { text: "Short." });
    assert.equal((await hermes.prompt(sessionId, "count")).stopReason, "end_turn");
    assert.equal((await hermes.prompt(sessionId, "say short")).stopReason, "end_turn");

    const finished = (id: string) =>
      sessionUpdates(hermes, sessionId).find((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === id && (u.status === "completed" || u.status === "failed")) as
        | (acp.SessionUpdate & Meta & { content?: unknown })
        | undefined;
    const full = finished("big")?._meta?.["hermes/fullOutput"] as { path: string; bytes: number } | undefined;
    assert.ok(full, "the card names the spilled file");
    assert.ok(full.path.startsWith(sandboxStateDir() + path.sep), `in the session's temp folder: ${full.path}`);
    const text = readFileSync(full.path, "utf8");
    const lines = text.trimEnd().split("\n");
    assert.equal(lines.length, 200_001, "every line is there");
    assert.equal(lines[0], "1");
    assert.equal(lines.at(-1), "200000");
    assert.equal(lines[99_999], "100000");
    assert.equal(Buffer.byteLength(text), full.bytes);
    assert.ok(!text.includes(SECRET), "the secret is redacted in the file");
    assert.match(lines[100_000]!, /^export GITHUB_TOKEN=\S+/);
    assert.match(JSON.stringify(finished("big")?.content), new RegExp(`whole output \\(1\\.\\d MB\\): ${full.path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
    // The model got far less than the whole.
    const toolMessage = model.requests.flatMap((r) => r.body.messages).find((m: any) => m.role === "tool" && m.tool_call_id === "big");
    assert.ok(toolMessage && toolMessage.content.length < 60_000);

    const small = finished("small");
    assert.equal(small?._meta?.["hermes/fullOutput"], undefined, "a short output is all in the card");
    assert.deepEqual(readdirSync(path.dirname(full.path)).filter((name) => name.startsWith("small")), [], "and leaves no file");

    const before = hermes.updates.length;
    await hermes.agent.request(acp.methods.agent.session.load, { sessionId, cwd: project, mcpServers: [] });
    const replayed = hermes.updates.slice(before).map((n) => n.update as acp.SessionUpdate & Meta & { toolCallId?: string });
    const card = replayed.find((u) => u.sessionUpdate === "tool_call" && u.toolCallId === "big");
    assert.deepEqual(card?._meta?.["hermes/fullOutput"], full);
    assert.ok(existsSync(full.path));
    assert.deepEqual(hermes.invalidUpdates, []);
  } finally {
    await hermes.close();
  }
});

test("an editor terminal that keeps the whole output names it: the card and the journal pass the path on", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const hermes = await startAgent({ config: scriptedConfig(model.url, { terminal: { sandbox: "off" } }), serveTerminal: true });
  try {
    await hermes.initialize();
    const spilled = { path: path.join(project, "editor-spill.log"), bytes: 108_894 };
    writeFileSync(spilled.path, "the editor's copy\n");
    hermes.terminals.fullOutput = spilled;
    const { sessionId } = await hermes.newSession(project);
    model.enqueue({ toolCalls: [{ id: "long", name: "terminal", arguments: { command: "seq 1 20000" } }] }, { text: "Counted." });
    assert.equal((await hermes.prompt(sessionId, "count")).stopReason, "end_turn");
    const finished = sessionUpdates(hermes, sessionId).find((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "long" && u.status === "completed") as (acp.SessionUpdate & Meta) | undefined;
    assert.deepEqual(finished?._meta?.["hermes/fullOutput"], spilled);

    const before = hermes.updates.length;
    await hermes.agent.request(acp.methods.agent.session.load, { sessionId, cwd: project, mcpServers: [] });
    const card = hermes.updates.slice(before).map((n) => n.update as acp.SessionUpdate & Meta & { toolCallId?: string }).find((u) => u.sessionUpdate === "tool_call" && u.toolCallId === "long");
    assert.deepEqual(card?._meta?.["hermes/fullOutput"], spilled, "offered after a reload while the editor's file is there");
  } finally {
    await hermes.close();
  }
});
