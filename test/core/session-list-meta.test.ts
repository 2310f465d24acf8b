// session/list rows carry each session's first prompt in `_meta["hermes/firstPrompt"]` (one
// line, redacted, capped), so a history shows what every chat began with, not only search hits.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { test } from "node:test";
import { SessionStore } from "../../acp-server/sessions/session-store";
import { toSummary } from "../../extension/history";
import { assistantMessage, recordingLogger, sessionMeta, userMessage } from "../support/session-fixtures";
import { useScriptedModel } from "../support/scripted-model";
import { makeTempDir, scriptedConfig, startAgent } from "../support/in-process-agent";

const scripted = useScriptedModel();
const SECRET = "ghp_" + "Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2";

test("session/list rows have the first prompt in _meta: one line, redacted, capped; none for a session without a prompt", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const hermes = await startAgent({ config: scriptedConfig(model.url) });
  try {
    await hermes.initialize();
    const store = new SessionStore({ home: hermes.home, log: recordingLogger() });
    const now = Date.now();
    store.create(sessionMeta("fix", project, now));
    store.append("fix", userMessage(0, now, `fix the login\n  bug, my token is ${SECRET}`));
    store.append("fix", assistantMessage(1, now, "Fixed."));
    store.append("fix", userMessage(2, now, "now the logout"));
    store.create(sessionMeta("long", project, now + 1));
    store.append("long", userMessage(0, now + 1, "word ".repeat(100)));
    store.create(sessionMeta("empty", project, now + 2));
    for (const id of ["fix", "long", "empty"]) store.closeSession(id);
    await store.close();

    const page = await hermes.agent.request(acp.methods.agent.session.list, { cwd: project });
    const byId = new Map(page.sessions.map((info) => [info.sessionId, info]));
    const first = (id: string) => byId.get(id)?._meta?.["hermes/firstPrompt"];
    assert.match(String(first("fix")), /^fix the login bug, my token is \S*REDACTED/, "the first prompt, not the latest; on one line; redacted");
    assert.ok(!JSON.stringify(page).includes(SECRET));
    const long = first("long");
    assert.ok(typeof long === "string" && long.length === 200 && long.endsWith("…"), `capped: ${String(long)}`);
    assert.equal(byId.get("empty")?._meta, undefined);
    assert.equal(byId.get("fix")?.cwd, project, "with its workspace");

    // The extension's history row takes it.
    const row = toSummary(byId.get("fix")!);
    assert.equal(row.firstPrompt, first("fix"));
    assert.equal(row.cwd, project);
  } finally {
    await hermes.close();
  }
});
