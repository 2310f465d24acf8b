// A reopened session's usage meter: session/load and session/resume send usage_update (the
// context the last model call used, the model's window), after the answer, so a client shows
// it at once, here and in another process that reads the journal.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { test } from "node:test";
import { useScriptedModel } from "../support/scripted-model";
import { makeTempDir, scriptedConfig, startAgent } from "../support/in-process-agent";

const scripted = useScriptedModel();

/** The usage_updates written after frame `from`, once one has arrived; each comes after the request's answer. */
async function usageSince(peer: Awaited<ReturnType<typeof startAgent>>, from: number): Promise<{ used: number; size: number }[]> {
  const isUsage = (f: any) => f.method === "session/update" && f.params.update.sessionUpdate === "usage_update";
  await peer.waitForFrame((f) => peer.frames.indexOf(f) >= from && isUsage(f));
  const frames = peer.frames.slice(from);
  const answered = frames.findIndex((f) => "result" in f && f.result?.configOptions);
  assert.ok(answered >= 0 && answered < frames.findIndex(isUsage), "after the answer");
  return frames.filter(isUsage).map((f) => f.params.update);
}

test("session/load and session/resume send usage_update from the journal's last measured call", async () => {
  const model = scripted();
  const project = await makeTempDir();
  model.enqueue({ text: "done", usage: { prompt_tokens: 1200, completion_tokens: 30 } });
  const config = scriptedConfig(model.url);
  Object.assign(config.model as Record<string, unknown>, { context_length: 8000 });
  const first = await startAgent({ config });
  let sessionId: string;
  try {
    await first.initialize();
    sessionId = (await first.newSession(project)).sessionId;
    await first.prompt(sessionId, "go");
  } finally {
    await first.close();
  }

  // Another process on the same home: only the journal knows the usage.
  const second = await startAgent({ env: { HERMES_HOME: first.home } });
  try {
    await second.initialize();
    const before = second.frames.length;
    await second.agent.request(acp.methods.agent.session.load, { sessionId, cwd: project, mcpServers: [] });
    assert.deepEqual((await usageSince(second, before)).map((u) => [u.used, u.size]), [[1230, 8000]], "the last call: 1200 + 30 in a window of 8000");

    const mark = second.frames.length;
    await second.agent.request(acp.methods.agent.session.resume, { sessionId, cwd: project, mcpServers: [] });
    assert.deepEqual((await usageSince(second, mark)).map((u) => [u.used, u.size]), [[1230, 8000]]);
    assert.deepEqual(second.invalidUpdates, []);
  } finally {
    await second.close();
  }
});
