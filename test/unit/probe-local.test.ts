import assert from "node:assert/strict";
import { test } from "node:test";
import { probeLocalServers } from "../../acp-server/config/probe-local";
import { startScriptedModel } from "../support/scripted-model";

test("a local server that lists models is found; silent ports are skipped", async () => {
  const server = await startScriptedModel({ model: "qwen3:8b" });
  const dead = await startScriptedModel();
  const deadUrl = dead.url;
  await dead.close();
  try {
    const found = await probeLocalServers(1000, [
      { provider: "ollama", baseUrl: deadUrl },
      { provider: "lmstudio", baseUrl: server.url },
    ]);
    assert.deepEqual(found, { provider: "lmstudio", baseUrl: server.url, models: ["qwen3:8b"] });
    assert.equal(await probeLocalServers(300, [{ provider: "ollama", baseUrl: deadUrl }]), undefined);
  } finally {
    await server.close();
  }
});
