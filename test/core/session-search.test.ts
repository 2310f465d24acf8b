// `_hermes/sessions/search`: history search over message content through the session index's
// full-text search; each hit has the first prompt, workspace, title, time and a redacted snippet.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { SessionStore } from "../../acp-server/sessions/session-store";
import { assistantMessage, recordingLogger, sessionMeta, userMessage } from "../support/session-fixtures";
import { useScriptedModel } from "../support/scripted-model";
import { makeTempDir, scriptedConfig, startAgent } from "../support/in-process-agent";

const scripted = useScriptedModel();
const SECRET = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8";

interface Hit {
  sessionId: string;
  cwd: string;
  title?: string;
  updatedAt: string;
  firstPrompt?: string;
  snippet: string;
}

test("search finds sessions by what was said in them, not only their titles; snippets are redacted", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const other = await makeTempDir();
  const hermes = await startAgent({ config: scriptedConfig(model.url) });
  try {
    await hermes.initialize();
    // Journals as an older version (before a redaction rule) could have left them.
    const store = new SessionStore({ home: hermes.home, log: recordingLogger() });
    const now = Date.now();
    store.create(sessionMeta("flaky", project, now));
    store.append("flaky", userMessage(0, now, "the CI   job keeps\nfailing on main"));
    store.append("flaky", assistantMessage(1, now, `The flamingo test depends on wall-clock time; token ${SECRET} was in the log`));
    store.append("flaky", { t: "update", at: now, title: "CI trouble", titleSource: "auto" });
    store.create(sessionMeta("docs", other, now + 1));
    store.append("docs", userMessage(0, now + 1, "write the README"));
    store.append("docs", assistantMessage(1, now + 1, "Done: a flamingo on the cover."));
    store.closeSession("flaky");
    store.closeSession("docs");
    await store.close();

    const all = await hermes.agent.request<{ sessions: Hit[] }>("_hermes/sessions/search", { query: "flamingo" });
    assert.deepEqual(all.sessions.map((hit) => hit.sessionId).sort(), ["docs", "flaky"]);

    const here = await hermes.agent.request<{ sessions: Hit[] }>("_hermes/sessions/search", { query: "flamingo wall-clock", cwd: project });
    assert.equal(here.sessions.length, 1);
    const [hit] = here.sessions;
    assert.ok(hit);
    assert.equal(hit.sessionId, "flaky");
    assert.equal(hit.cwd, project);
    assert.equal(hit.title, "CI trouble", "the title is not what matched: the content did");
    assert.equal(hit.firstPrompt, "the CI job keeps failing on main");
    assert.match(hit.snippet, /\[flamingo\]/);
    assert.ok(!hit.snippet.includes(SECRET) && !JSON.stringify(all).includes(SECRET), "no secret in the answer");
    assert.ok(!Number.isNaN(Date.parse(hit.updatedAt)));

    const none = await hermes.agent.request<{ sessions: Hit[] }>("_hermes/sessions/search", { query: "pelican" });
    assert.deepEqual(none.sessions, []);
    // The index itself never held the old journal's secret: searching for it finds nothing
    // (no oracle), and the index file on disk does not contain it.
    // (The redacted text keeps the format's prefix, `ghp_…[REDACTED]`: the token's body is what must be gone.)
    const bySecret = await hermes.agent.request<{ sessions: Hit[] }>("_hermes/sessions/search", { query: SECRET.slice(4) });
    assert.deepEqual(bySecret.sessions, []);
    const byPrefix = await hermes.agent.request<{ sessions: Hit[] }>("_hermes/sessions/search", { query: `${SECRET.slice(4, 12)}*` });
    assert.deepEqual(byPrefix.sessions, []);
    await assert.rejects(hermes.agent.request("_hermes/sessions/search", { query: "" }), (error: any) => error.code === -32602);
    await assert.rejects(hermes.agent.request("_hermes/sessions/search", { limit: 5 }), (error: any) => error.code === -32602);
    // An index built from those journals and saved: state.db does not hold the secret either.
    const reader = new SessionStore({ home: hermes.home, log: recordingLogger() });
    assert.ok((await reader.list({})).sessions.some((summary) => summary.id === "flaky"));
    await reader.close();
    const stateDb = path.join(hermes.home, "state.db");
    assert.ok(existsSync(stateDb), "the index was saved");
    assert.ok(!readFileSync(stateDb).includes(SECRET.slice(4)), "no secret in state.db");
  } finally {
    await hermes.close();
  }
});
