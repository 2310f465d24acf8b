// Slash commands over ACP: advertised after the session answer, answered without the
// model, and an unknown /word goes to the model.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { test } from "node:test";
import { agentText, makeTempDir, scriptedConfig, startAgent } from "../support/in-process-agent";
import { useScriptedModel } from "../support/scripted-model";

const scripted = useScriptedModel();

test("commands: /help, /version, /usage, /context, /model, /memory, /reset, and unknown ones go to the model", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const hermes = await startAgent({ config: scriptedConfig(model.url, { models: ["other-model"] }) });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    const advertised = await hermes.waitForUpdate((u) => u.sessionUpdate === "available_commands_update");
    assert.ok(advertised.sessionUpdate === "available_commands_update");
    const names = advertised.availableCommands.map((c) => c.name);
    for (const name of ["help", "context", "memory", "reset", "model", "usage", "title", "version"]) assert.ok(names.includes(name), name);
    const responseAt = hermes.frames.findIndex((f) => f.result?.sessionId === sessionId);
    const advertisedAt = hermes.frames.findIndex((f) => f.params?.update?.sessionUpdate === "available_commands_update");
    assert.ok(advertisedAt > responseAt, "advertised after the session/new response, never before");

    const ask = async (text: string) => {
      const before = agentText(hermes, sessionId).length;
      const calls = model.requests.length;
      await hermes.prompt(sessionId, text);
      return { text: agentText(hermes, sessionId).slice(before), modelCalled: model.requests.length > calls };
    };
    model.enqueue({ text: "hello there", usage: { prompt_tokens: 900, completion_tokens: 100 } });
    await ask("hi");

    let answer = await ask("/help");
    assert.match(answer.text, /\/reset/);
    assert.equal(answer.modelCalled, false);
    assert.match((await ask("/version")).text, /^Hermes \d+\.\d+\.\d+/);
    assert.match((await ask("/usage")).text, /900 input and 100 output tokens over 1 model calls/);
    assert.match((await ask("/context")).text, /1,000 of 128,000 tokens/);
    assert.match((await ask("/model")).text, /custom\/fake-model` \(current\)[\s\S]*other-model/);
    assert.match((await ask("/model other-model")).text, /Switched to `custom\/other-model`/);
    assert.match((await ask("/memory")).text, /\*\*Memory: the agent's notes[\s\S]*\*\*User profile/);
    assert.match((await ask("/reset")).text, /fresh context: 2 earlier messages/);

    model.enqueue({ text: "models see unknown commands" });
    const before = model.requests.length;
    answer = await ask("/frobnicate now");
    assert.equal(answer.modelCalled, true);
    const sent = model.requests[before].body;
    assert.equal(sent.model, "other-model", "the /model switch holds");
    assert.deepEqual(sent.messages.filter((m: any) => m.role !== "system").map((m: any) => m.content), ["/frobnicate now"], "after /reset only the new prompt is sent");

    // A reloaded session starts after the reset too.
    const other = await startAgent({ config: scriptedConfig(model.url), env: { HERMES_HOME: hermes.home } });
    try {
      await other.initialize();
      // The first process still has it open: this one takes it over to write (one writer per session).
      await other.agent.request(acp.methods.agent.session.load, { sessionId, cwd: project, mcpServers: [], _meta: { "hermes/takeOver": true } });
      model.enqueue({ text: "ok" });
      const at = model.requests.length;
      await other.prompt(sessionId, "and now?");
      const users = model.requests[at].body.messages.filter((m: any) => m.role === "user").map((m: any) => m.content);
      assert.deepEqual(users, ["/frobnicate now", "and now?"]);
    } finally {
      await other.close();
    }
  } finally {
    await hermes.close();
  }
});
