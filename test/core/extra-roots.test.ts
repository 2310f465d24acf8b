// Extra workspace roots (ACP additionalDirectories) over a real client connection: advertised,
// checked, part of the workspace for the path guard, search and the prompt, kept in the
// journal and session/list, and never reactivated by a load that does not send them.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { makeTempDir, scriptedConfig, startAgent } from "../support/in-process-agent";
import { useScriptedModel } from "../support/scripted-model";

const scripted = useScriptedModel();

const write = (id: string, file: string, content = "x\n") => ({ toolCalls: [{ id, name: "write_file", arguments: { path: file, content } }] });

function toolResult(requests: { body: any }[], id: string): string {
  for (const request of requests) {
    const message = request.body.messages.find((m: any) => m.role === "tool" && m.tool_call_id === id);
    if (message) return typeof message.content === "string" ? message.content : JSON.stringify(message.content);
  }
  return "";
}

const systemText = (body: any): string => body.messages.find((m: any) => m.role === "system")?.content ?? "";

test("additionalDirectories: advertised, a write in an extra root is a workspace write, outside is still asked", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const shared = await makeTempDir("hermes-shared-");
  const outside = await makeTempDir("hermes-outside-");
  await writeFile(path.join(shared, "lib.ts"), "export const NEEDLE_IN_SHARED = 1;\n");
  const hermes = await startAgent({ config: scriptedConfig(model.url, { agent: { default_mode: "accept_edits" } }), permission: "reject" });
  try {
    const init = await hermes.initialize();
    assert.deepEqual(init.agentCapabilities?.sessionCapabilities?.additionalDirectories, {});
    const { sessionId } = await hermes.agent.request(acp.methods.agent.session.new, { cwd: project, additionalDirectories: [shared, project, shared], mcpServers: [] });
    model.enqueue(
      write("in-root", path.join(shared, "new.ts")),
      write("outside", path.join(outside, "no.ts")),
      { toolCalls: [{ id: "grep", name: "search_files", arguments: { pattern: "NEEDLE_IN_SHARED" } }] },
      { text: "done" },
    );
    await hermes.prompt(sessionId, "edit both folders");
    assert.ok(existsSync(path.join(shared, "new.ts")), "the extra root is part of the workspace: accept_edits writes there without asking");
    assert.equal(existsSync(path.join(outside, "no.ts")), false, "outside every root: asked (and rejected)");
    assert.equal(hermes.permissionRequests.length, 1);
    assert.match(JSON.stringify(hermes.permissionRequests[0]?.toolCall.content), /outside the workspace/);
    const grep = JSON.parse(toolResult(model.requests, "grep"));
    assert.deepEqual(grep.matches.map((match: { path: string }) => match.path), [path.join(shared, "lib.ts")], "a search without a path covers every root");
    assert.match(systemText(model.requests[0]?.body), new RegExp(`Other workspace folders .*: ${shared.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`, "m"));

    const listed = await hermes.agent.request(acp.methods.agent.session.list, {});
    assert.deepEqual(listed.sessions.find((entry) => entry.sessionId === sessionId)?.additionalDirectories, [shared], "deduplicated, the cwd dropped, kept for session/list");
  } finally {
    await hermes.close();
  }
});

test("additionalDirectories: a load uses the request's list only (omitted = none), and a changed list is journaled", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const shared = await makeTempDir("hermes-shared-");
  const first = await startAgent({ config: scriptedConfig(model.url, { agent: { default_mode: "accept_edits" } }), permission: "reject" });
  const home = first.home;
  let sessionId: string;
  try {
    await first.initialize();
    ({ sessionId } = await first.agent.request(acp.methods.agent.session.new, { cwd: project, additionalDirectories: [shared], mcpServers: [] }));
    model.enqueue({ text: "hello" });
    await first.prompt(sessionId, "hi");
  } finally {
    await first.close();
  }

  // Another process on the same home (its config.yaml as the first wrote it).
  const second = await startAgent({ env: { HERMES_HOME: home }, permission: "reject" });
  try {
    await second.initialize();
    await second.agent.request(acp.methods.agent.session.load, { sessionId, cwd: project, mcpServers: [] });
    model.enqueue(write("not-restored", path.join(shared, "a.ts")), { text: "ok" });
    await second.prompt(sessionId, "write in shared");
    assert.equal(existsSync(path.join(shared, "a.ts")), false, "a root the load did not send is outside the workspace");
    assert.equal(second.permissionRequests.length, 1);
    const listed = await second.agent.request(acp.methods.agent.session.list, {});
    assert.equal(listed.sessions.find((entry) => entry.sessionId === sessionId)?.additionalDirectories, undefined, "the load without roots was journaled");

    await second.agent.request(acp.methods.agent.session.resume, { sessionId, cwd: project, additionalDirectories: [shared], mcpServers: [] });
    const before = model.requests.length;
    model.enqueue(write("resent", path.join(shared, "b.ts")), { text: "ok" });
    await second.prompt(sessionId, "write in shared again");
    assert.ok(existsSync(path.join(shared, "b.ts")), "resent on resume: part of the workspace again");
    assert.match(systemText(model.requests[before]?.body), /Other workspace folders/, "the prompt was rebuilt with the roots");
  } finally {
    await second.close();
  }
});

test("additionalDirectories: relative, empty or missing entries are refused with invalid params", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const hermes = await startAgent({ config: scriptedConfig(model.url) });
  try {
    await hermes.initialize();
    for (const bad of [["relative/dir"], [""], [path.join(project, "does-not-exist")]]) {
      await assert.rejects(
        hermes.agent.request(acp.methods.agent.session.new, { cwd: project, additionalDirectories: bad, mcpServers: [] }),
        (error: any) => error.code === -32602 && /additionalDirectories/.test(error.message),
        JSON.stringify(bad),
      );
    }
  } finally {
    await hermes.close();
  }
});
