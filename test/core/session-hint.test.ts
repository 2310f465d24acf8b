// The first prompt's related-sessions note, in process over the real protocol: a new session's
// first prompt names the most recent earlier sessions of the same workspace that match it, in the
// first model call only (after the prompt, outside the frozen system prompt), never journaled or
// replayed; other workspaces, unrelated prompts and later prompts get none.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { test } from "node:test";
import { makeTempDir, scriptedConfig, startAgent } from "../support/in-process-agent";
import { startScriptedModel, type RecordedRequest } from "../support/scripted-model";

const NOTE = "[Hermes note: earlier sessions in this workspace look related to this request";
const text = (request: RecordedRequest | undefined) => JSON.stringify(request?.body.messages ?? []);
const systemPrompt = (request: RecordedRequest | undefined) => String(request?.body.messages[0]?.content ?? "");

test("a new session's first prompt names related earlier sessions of its workspace, in the first call only", async (t) => {
  const model = await startScriptedModel();
  t.after(() => model.close());
  const project = await makeTempDir("hermes-hint-");
  const elsewhere = await makeTempDir("hermes-hint-other-");
  const hermes = await startAgent({ config: scriptedConfig(model.url, { learning: { review: "off", curator: "off", session_hint: true } }) });
  try {
    await hermes.initialize();
    const older = (await hermes.newSession(project)).sessionId;
    model.enqueue({ text: "Strip the BOM before parsing." });
    await hermes.prompt(older, "the pelican importer fails on BOM headers in vendor CSV files");
    assert.ok(!text(model.requests.at(-1)).includes(NOTE), "nothing earlier: no note");
    const other = (await hermes.newSession(elsewhere)).sessionId;
    model.enqueue({ text: "Here." });
    await hermes.prompt(other, "the pelican importer fails on vendor CSV files");
    assert.ok(!text(model.requests.at(-1)).includes(NOTE), "another workspace: no note");

    const fresh = (await hermes.newSession(project)).sessionId;
    model.enqueue({ toolCalls: [{ name: "read_file", arguments: { path: "missing.csv" } }] }, { text: "It is the BOM again." });
    await hermes.prompt(fresh, "pelican importer broken again on the vendor CSV");
    const [first, second] = model.requests.slice(-2);
    const note = first?.body.messages.at(-1);
    assert.equal(note?.role, "user");
    assert.match(String(note?.content), /earlier sessions in this workspace look related/);
    // Its title (here the first line of its first prompt, which is then not repeated).
    assert.match(String(note?.content), new RegExp(`session_id ${older} \\(\\d{4}-\\d\\d-\\d\\d\\): "the pelican importer fails on BOM headers in vendor CSV files"\n`));
    assert.doesNotMatch(String(note?.content), new RegExp(other), "only this workspace's sessions");
    assert.match(String(first?.body.messages.at(-2)?.content), /pelican importer broken again/, "the note follows the prompt");
    assert.ok(!systemPrompt(first).includes(NOTE), "the frozen system prompt is untouched");
    assert.equal(systemPrompt(second), systemPrompt(first));
    assert.ok(!text(second).includes(NOTE), "the first call only");

    model.enqueue({ text: "Sure." });
    await hermes.prompt(fresh, "and the pelican importer tests?");
    assert.ok(!text(model.requests.at(-1)).includes(NOTE), "a later prompt: no note");
    const unrelated = (await hermes.newSession(project)).sessionId;
    model.enqueue({ text: "Rain falls." });
    await hermes.prompt(unrelated, "write a haiku about autumn rain");
    assert.ok(!text(model.requests.at(-1)).includes(NOTE), "an unrelated prompt: no note");
    const oneWord = (await hermes.newSession(project)).sessionId;
    model.enqueue({ text: "Updated." });
    await hermes.prompt(oneWord, "update the vendor list");
    assert.ok(!text(model.requests.at(-1)).includes(NOTE), "one shared word is not related enough");

    // Never journaled: the replay shows the prompt as typed.
    const before = hermes.updates.length;
    await hermes.agent.request(acp.methods.agent.session.load, { sessionId: fresh, cwd: project, mcpServers: [] });
    const replayed = JSON.stringify(hermes.updates.slice(before));
    assert.match(replayed, /pelican importer broken again/);
    assert.ok(!replayed.includes("Hermes note"));
  } finally {
    await hermes.close();
  }
});
