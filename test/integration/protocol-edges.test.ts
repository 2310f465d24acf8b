// Bad input over the wire: malformed lines, unknown methods, unknown sessions, bad
// params. Each gets the right JSON-RPC error and the server keeps serving.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { useScriptedModel } from "../support/scripted-model";
import { makeTempDir, scriptedConfig, startHermes } from "../support/acp-harness";

const scripted = useScriptedModel();

test("initialize advertises what works", async () => {
  const model = scripted();
  const hermes = await startHermes({ config: scriptedConfig(model.url) });
  try {
    const init = await hermes.initialize();
    assert.equal(init.protocolVersion, 1);
    assert.equal(init.agentInfo?.name, "hermes");
    assert.equal(init.agentInfo?.title, "Hermes");
    assert.match(init.agentInfo?.version ?? "", /^\d+\.\d+\.\d+/);
    assert.deepEqual(init.agentCapabilities?.promptCapabilities, { image: true, audio: false, embeddedContext: true });
    assert.equal(init.agentCapabilities?.loadSession, true);
    assert.deepEqual(init.agentCapabilities?.sessionCapabilities, { list: {}, resume: {}, close: {}, delete: {}, fork: {}, additionalDirectories: {} });
  } finally {
    await hermes.close();
  }
});

test("malformed lines, unknown methods, unknown sessions and bad params get errors; serving goes on", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const hermes = await startHermes({ config: scriptedConfig(model.url) });
  try {
    await hermes.initialize();

    hermes.writeRaw("this is not json\n");
    const parseError = await hermes.waitForFrame((f) => f.error?.code === -32700);
    assert.equal(parseError.id, null);

    hermes.writeRaw('{"jsonrpc":"2.0","id":"x1","method":"session/teleport","params":{}}\n');
    const notFound = await hermes.waitForFrame((f) => f.id === "x1");
    assert.equal(notFound.error.code, -32601);

    hermes.writeRaw('{"jsonrpc":"2.0","id":"x2","method":"session/new","params":{"cwd":42}}\n');
    assert.equal((await hermes.waitForFrame((f) => f.id === "x2")).error.code, -32602);

    await assert.rejects(hermes.newSession("relative/path"), (error: any) => error.code === -32602 && /absolute/.test(error.message));
    await assert.rejects(hermes.newSession("/definitely/not/here"), (error: any) => error.code === -32602 && /not an existing directory/.test(error.message));
    await assert.rejects(hermes.prompt("no-such-session", "hi"), (error: any) => error.code === -32002 || error.code === -32602);
    await assert.rejects(
      hermes.agent.request(acp.methods.agent.session.setMode, { sessionId: "no-such-session", modeId: "default" }),
      (error: any) => typeof error.code === "number",
    );

    // Still serving: a real turn works after all of that.
    model.enqueue({ text: "still here" });
    const { sessionId } = await hermes.newSession(project);
    assert.equal((await hermes.prompt(sessionId, "are you alive?")).stopReason, "end_turn");
    assert.equal(hermes.child.exitCode, null);
    assert.deepEqual(hermes.strayStdout, []);
  } finally {
    await hermes.close();
  }
});

test("set_mode switches and reports the mode; bad modes are refused", async () => {
  const model = scripted();
  const project = await makeTempDir();
  model.enqueue({ text: "fine" });
  const hermes = await startHermes({ config: scriptedConfig(model.url) });
  try {
    await hermes.initialize();
    const session = await hermes.newSession(project);
    assert.equal(session.modes?.currentModeId, "default");
    assert.deepEqual(session.modes?.availableModes.map((m) => m.id), ["default", "accept_edits", "plan", "dont_ask"]);

    assert.equal((await hermes.prompt(session.sessionId, "first")).stopReason, "end_turn");

    await hermes.agent.request(acp.methods.agent.session.setMode, { sessionId: session.sessionId, modeId: "accept_edits" });
    await hermes.waitForUpdate((u) => u.sessionUpdate === "current_mode_update" && u.currentModeId === "accept_edits");
    await assert.rejects(
      hermes.agent.request(acp.methods.agent.session.setMode, { sessionId: session.sessionId, modeId: "yolo" }),
      (error: any) => error.code === -32602,
    );
  } finally {
    await hermes.close();
  }
});

test("with no model configured the server still starts and session/new is auth-required, explaining how to configure one", async () => {
  const project = await makeTempDir();
  const hermes = await startHermes({});
  try {
    await hermes.initialize();
    const error: any = await hermes.newSession(project).then(() => assert.fail("session/new succeeded without a model"), (e) => e);
    assert.equal(error.code, -32000);
    const text = error.message;
    assert.match(text, /no usable model/i);
    assert.match(text, /config\.yaml/);
    assert.match(text, /HERMES_MODEL/);
  } finally {
    await hermes.close();
  }
});

test("an invalid config names the file, the key and the problem in the auth-required answer", async () => {
  const project = await makeTempDir();
  const hermes = await startHermes({ config: { model: { provider: "skynet", name: "x" }, agent: { max_turns: -1 } } });
  try {
    await hermes.initialize();
    const error: any = await hermes.newSession(project).then(() => assert.fail("session/new succeeded with a broken config"), (e) => e);
    assert.equal(error.code, -32000);
    const text = error.message;
    assert.match(text, /config\.yaml: model\.provider: /);
    assert.match(text, /config\.yaml: agent\.max_turns: /);
    assert.match(text, /Fix model\.provider, agent\.max_turns in .*config\.yaml as described above/);
    assert.doesNotMatch(text, /No model is configured/, "the cause, not the generic consequence");
    assert.match(hermes.stderr(), /model\.provider/, "the problem is logged to stderr too");
  } finally {
    await hermes.close();
  }
});

test("initialize and session/new sent in one write are each answered exactly once", async () => {
  const project = await makeTempDir();
  const hermes = await startHermes({});
  try {
    hermes.writeRaw(
      `${JSON.stringify({ jsonrpc: "2.0", id: "i", method: "initialize", params: { protocolVersion: 1 } })}\n` +
        `${JSON.stringify({ jsonrpc: "2.0", id: "n", method: "session/new", params: { cwd: project, mcpServers: [] } })}\n`,
    );
    const created = await hermes.waitForFrame((f) => f.id === "n");
    assert.ok(created.result?.sessionId || created.error, JSON.stringify(created));
    await hermes.initialize(); // a second initialize still works (answered by the SDK)
    assert.equal(hermes.frames.filter((f) => f.id === "i").length, 1, "no duplicate initialize answer");
    assert.equal(hermes.frames.filter((f) => f.id === "n").length, 1);
  } finally {
    await hermes.close();
  }
});

test("a client that closes our stderr does not stall or flood the agent", async () => {
  const project = await makeTempDir();
  const hermes = await startHermes({});
  try {
    hermes.child.stderr.destroy();
    await hermes.initialize();
    // No model: the warnings about it are logged while stderr is gone, and the answer still comes.
    await assert.rejects(hermes.newSession(project), (error: any) => error.code === -32000);
    await assert.rejects(hermes.newSession(project), (error: any) => error.code === -32000);
    const logs = await readdir(path.join(hermes.home, "logs"));
    const size = (await stat(path.join(hermes.home, "logs", logs[0]))).size;
    assert.ok(size < 100_000, `the log stays small (${size} bytes)`);
  } finally {
    await hermes.close();
  }
});
