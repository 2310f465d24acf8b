// Recall of past work over real ACP stdio with a scripted model: session_search's summaries
// (a session's relevant parts summarized by the auxiliary model, cached under the Hermes home),
// and the first prompt's note naming related earlier sessions of the workspace.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { SESSION_SUMMARY_MARK } from "../../acp-server/tools/session-summaries";
import { makeTempDir, scriptedConfig, startHermes } from "../support/acp-harness";
import { useScriptedModel, type RecordedRequest } from "../support/scripted-model";

const scripted = useScriptedModel();

const isSummary = (request: RecordedRequest) => String(request.body?.messages?.[0]?.content ?? "").startsWith(SESSION_SUMMARY_MARK);
const lastToolResult = (request: RecordedRequest | undefined): string => String(request?.body.messages.findLast((m: { role: string }) => m.role === "tool")?.content ?? "");

test("session_search summarize over stdio: the earlier session is summarized by the auxiliary model and cached on disk", async () => {
  const model = scripted();
  const cwd = await makeTempDir("hermes-recall-it-");
  const hermes = await startHermes({ config: scriptedConfig(model.url) });
  try {
    await hermes.initialize();
    const first = (await hermes.newSession(cwd)).sessionId;
    model.enqueue({ text: "The pelican importer chokes on BOM headers; strip the BOM before parsing." });
    await hermes.prompt(first, "why does the pelican importer fail on the vendor CSV?");

    const second = (await hermes.newSession(cwd)).sessionId;
    model.enqueue(
      { toolCalls: [{ name: "session_search", arguments: { query: "pelican importer", summarize: true } }] },
      { text: "An earlier session found the pelican importer failed on BOM headers; stripping the BOM fixed it." },
      { text: "We saw this: strip the BOM." },
    );
    const response = await hermes.prompt(second, "the pelican importer fails again");
    assert.equal(response.stopReason, "end_turn");
    const summary = model.requests.find(isSummary);
    assert.ok(summary);
    assert.match(JSON.stringify(summary.body.messages[1]), /chokes on BOM headers/);
    const result = lastToolResult(model.requests.at(-1));
    assert.match(result, new RegExp(`"session_id":"${first}"`));
    assert.match(result, /"summary":"An earlier session found the pelican importer failed on BOM headers/);
    assert.ok(existsSync(path.join(hermes.home, "session-summaries", `${first}.json`)));
    assert.deepEqual(hermes.invalidUpdates, []);
    assert.deepEqual(hermes.strayStdout, []);
  } finally {
    await hermes.close();
  }
});

test("a new session's first prompt over stdio carries a note naming the related earlier session of its workspace", async () => {
  const model = scripted();
  const cwd = await makeTempDir("hermes-hint-it-");
  const hermes = await startHermes({ config: scriptedConfig(model.url, { learning: { review: "off", curator: "off", session_hint: true } }) });
  try {
    await hermes.initialize();
    const first = (await hermes.newSession(cwd)).sessionId;
    model.enqueue({ text: "Raised the walrus cache limit in cache.yaml." });
    await hermes.prompt(first, "the walrus cache keeps evicting hot entries");
    const second = (await hermes.newSession(cwd)).sessionId;
    model.enqueue({ text: "Checking the earlier session." });
    await hermes.prompt(second, "walrus cache evicting entries again");
    const request = model.requests.at(-1);
    const note = String(request?.body.messages.at(-1)?.content ?? "");
    assert.match(note, /^\[Hermes note: earlier sessions in this workspace look related/);
    assert.match(note, new RegExp(`session_id ${first} `));
    assert.ok(!String(request?.body.messages[0].content).includes("Hermes note"), "not in the system prompt");
    assert.deepEqual(hermes.strayStdout, []);
  } finally {
    await hermes.close();
  }
});
