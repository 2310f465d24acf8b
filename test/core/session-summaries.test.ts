// session_search's summaries, in process over the real protocol: with `summarize`, each hit
// carries a few sentences by the auxiliary model on what that past session did about the query,
// written from its opening request and the messages around the match; the summary is cached by
// session and focus (same words in any order or case), written again once the session has grown;
// its cost is the session's usage; snippets stay the default.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { SessionStore } from "../../acp-server/sessions/session-store";
import { SESSION_SUMMARY_MARK } from "../../acp-server/tools/session-summaries";
import { agentText, makeTempDir, scriptedConfig, startAgent } from "../support/in-process-agent";
import { assistantMessage, recordingLogger, sessionMeta, userMessage } from "../support/session-fixtures";
import { startScriptedModel, type RecordedRequest } from "../support/scripted-model";

const isSummary = (request: RecordedRequest) => String(request.body?.messages?.[0]?.content ?? "").startsWith(SESSION_SUMMARY_MARK);
/** The last tool result the model read in a request. */
const lastToolResult = (request: RecordedRequest | undefined): string => String(request?.body.messages.findLast((m: { role: string }) => m.role === "tool")?.content ?? "");

test("session_search summarize: a summary per hit from the session's relevant parts, cached by focus, renewed when the session grows", async (t) => {
  const model = await startScriptedModel();
  t.after(() => model.close());
  const project = await makeTempDir();
  const hermes = await startAgent({ config: scriptedConfig(model.url) });
  try {
    await hermes.initialize();
    const store = new SessionStore({ home: hermes.home, log: recordingLogger() });
    const now = Date.now();
    store.create(sessionMeta("past-flaky", project, now));
    store.append("past-flaky", userMessage(0, now, "the CI job keeps failing on main"));
    for (let i = 1; i < 40; i++) store.append("past-flaky", assistantMessage(i, now, `step ${i}: looked at unrelated logs`));
    store.append("past-flaky", assistantMessage(40, now, "Found it: the flamingo test depends on wall-clock time; froze the clock with a fake timer."));
    store.closeSession("past-flaky");
    await store.close();

    const { sessionId } = await hermes.newSession(project);
    const search = (query: string, summarize = true) => ({ toolCalls: [{ name: "session_search", arguments: { query, summarize } }] });
    model.enqueue(search("flamingo test"), { text: "The flamingo test failed on wall-clock time; a fake timer fixed it." }, { text: "We fixed that before with a fake timer." });
    await hermes.prompt(sessionId, "the flamingo test is failing again, did we see this?");

    const summaryRequest = model.requests.find(isSummary);
    assert.ok(summaryRequest, "the summary was asked of the auxiliary model (the main one here)");
    const excerpt = JSON.stringify(summaryRequest.body.messages[1]);
    assert.match(excerpt, /Focus of the search: flamingo test/);
    assert.match(excerpt, /the CI job keeps failing on main/, "the session's opening request");
    assert.match(excerpt, /froze the clock with a fake timer/, "the messages around the match");
    assert.doesNotMatch(excerpt, /step 2: /, "not the whole transcript");
    assert.equal(summaryRequest.body.tools, undefined, "a plain call without tools");
    const result = lastToolResult(model.requests.at(-1));
    assert.match(result, /"summary":"The flamingo test failed on wall-clock time; a fake timer fixed it\."/);
    assert.doesNotMatch(result, /"snippet"/);
    assert.ok(existsSync(path.join(hermes.home, "session-summaries", "past-flaky.json")));
    // Its cost is the session's: 2 turn calls and the summary.
    await hermes.prompt(sessionId, "/usage");
    assert.match(agentText(hermes, sessionId), /over 3 model calls/);

    // The same focus (other order and case): from the cache, no model call.
    let calls = model.requests.length;
    model.enqueue(search("Test FLAMINGO"), { text: "Same as before." });
    await hermes.prompt(sessionId, "and what was the fix?");
    assert.equal(model.requests.length, calls + 2);
    assert.match(lastToolResult(model.requests.at(-1)), /a fake timer fixed it/);

    // The session grew (the user went on in it): summarized again.
    await hermes.agent.request(acp.methods.agent.session.load, { sessionId: "past-flaky", cwd: project, mcpServers: [] });
    model.enqueue({ text: "Noted." });
    await hermes.prompt("past-flaky", "the flamingo test broke again after the upgrade");
    calls = model.requests.length;
    model.enqueue(search("flamingo test"), { text: "Fixed with a fake timer; it broke again after an upgrade." }, { text: "It came back after the upgrade." });
    await hermes.prompt(sessionId, "anything newer on the flamingo test?");
    assert.equal(model.requests.slice(calls).filter(isSummary).length, 1);
    assert.match(lastToolResult(model.requests.at(-1)), /broke again after an upgrade/);

    // Snippets stay the default: no model call for them.
    calls = model.requests.length;
    model.enqueue(search("flamingo", false), { text: "Found the old session." });
    await hermes.prompt(sessionId, "search again");
    assert.equal(model.requests.length, calls + 2);
    assert.match(lastToolResult(model.requests.at(-1)), /"snippet":"[^"]*\[flamingo\]/);
    assert.deepEqual(hermes.invalidUpdates, []);
  } finally {
    await hermes.close();
  }
});
