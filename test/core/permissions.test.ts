// Permissions over ACP: every answer a user can give, modes, the workspace guard, command
// screening and redaction, through a real client connection.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdir, readFile, stat, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { makeTempDir, scriptedConfig, sessionUpdates, startAgent, type PermissionPolicy } from "../support/in-process-agent";
import { useScriptedModel } from "../support/scripted-model";

const scripted = useScriptedModel();

const write = (id: string, file: string, content = "x\n") => ({ toolCalls: [{ id, name: "write_file", arguments: { path: file, content } }] });
const run = (id: string, command: string) => ({ toolCalls: [{ id, name: "terminal", arguments: { command } }] });
const pick = (optionId: string): PermissionPolicy => (request) => (request.options.some((o) => o.optionId === optionId) ? optionId : "cancelled");

/** Whether a file or folder is there (a folder counts: `rm -rf build` must be seen to have run). */
async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

function toolResult(body: any, id: string): string {
  return body.messages.find((m: any) => m.role === "tool" && m.tool_call_id === id)?.content ?? "";
}

test("allow once asks again next time; allow for the session does not", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const hermes = await startAgent({ config: scriptedConfig(model.url), permission: pick("allow_once") });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    model.enqueue(write("w1", "a.txt"), write("w2", "b.txt"), { text: "ok" });
    await hermes.prompt(sessionId, "write two files");
    assert.equal(hermes.permissionRequests.length, 2, "allow once covers one call");
    assert.ok((await exists(path.join(project, "a.txt"))) && (await exists(path.join(project, "b.txt"))));
    const options = hermes.permissionRequests[0].options.map((o) => o.optionId);
    assert.deepEqual(options, ["allow_once", "allow_session", "allow_always", "reject_once", "reject_always"]);
    assert.ok(hermes.permissionRequests[0].toolCall.content?.some((c) => c.type === "diff"), "edits are proposed as a diff");
  } finally {
    await hermes.close();
  }

  const second = await startAgent({ config: scriptedConfig(model.url), permission: pick("allow_session") });
  try {
    await second.initialize();
    const { sessionId } = await second.newSession(project);
    model.enqueue(write("w3", "c.txt"), write("w4", "c.txt", "again\n"), write("w5", "d.txt"), { text: "ok" });
    await second.prompt(sessionId, "write c twice, then d");
    // "for this session" on an edit covers the file the card named, not every edit of the session.
    assert.deepEqual(second.permissionRequests.map((r) => r.toolCall.toolCallId), ["w3", "w5"], "the session grant covers the second edit of c.txt only");
    assert.equal(second.permissionRequests[0].options.find((o) => o.optionId === "allow_session")?.name, "Allow edits to `c.txt` for this session");
    assert.ok(await exists(path.join(project, "d.txt")));
  } finally {
    await second.close();
  }
});

test("a rejection with the user's reason (in _meta) reaches the model as the tool result", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const reason = "No, do not delete build: run the clean script instead";
  const hermes = await startAgent({
    config: scriptedConfig(model.url),
    permission: () => ({ outcome: { outcome: "selected", optionId: "reject_once" }, _meta: { "hermes/reason": `  ${reason}  ` } }),
  });
  try {
    await mkdir(path.join(project, "build"));
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    model.enqueue(run("r1", "rm -rf build"), { text: "ok, I will use the clean script" });
    const response = await hermes.prompt(sessionId, "clean up");
    assert.equal(response.stopReason, "end_turn");
    const answered = model.requests.map((r) => toolResult(r.body, "r1")).find(Boolean) ?? "";
    assert.deepEqual(JSON.parse(answered), { error: `The user rejected this: ${reason}` });
    assert.ok((await stat(path.join(project, "build"))).isDirectory(), "nothing ran");
    const card = sessionUpdates(hermes, sessionId).filter((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "r1" && u.status === "failed");
    assert.equal(card.length, 1, "the card ends failed (the panel words it as a rejection)");
  } finally {
    await hermes.close();
  }
});

test("always allow is saved to config.yaml and holds after a restart; always reject too", async () => {
  const model = scripted();
  const project = await makeTempDir();
  await mkdir(path.join(project, "build"));
  const first = await startAgent({ config: scriptedConfig(model.url), permission: pick("allow_always") });
  try {
    await first.initialize();
    const { sessionId } = await first.newSession(project);
    model.enqueue(run("r1", "rm -rf build"), write("w1", "notes.md"), { text: "ok" });
    await first.prompt(sessionId, "clean up and write notes");
    assert.equal(first.permissionRequests.length, 2);
    const flagged = JSON.stringify(first.permissionRequests[0].toolCall.content);
    assert.match(flagged, /rm -rf build/, "the command is shown");
    assert.match(flagged, /Needs approval: .*delete/i, "and why it was flagged");
    assert.equal(await exists(path.join(project, "build")), false);
    const config = await readFile(path.join(first.home, "config.yaml"), "utf8");
    assert.match(config, /approvals:/);
    assert.ok(config.includes(`edit: ${path.join(project, "notes.md")}`), "the exact file is saved");
    assert.match(config, /commands:\n\s+- rm -rf build\n/, "and the exact command");
  } finally {
    await first.close();
  }

  const second = await startAgent({ config: undefined, env: { HERMES_HOME: first.home }, permission: pick("reject_always") });
  try {
    await second.initialize();
    const { sessionId } = await second.newSession(project);
    await mkdir(path.join(project, "build"));
    model.enqueue(run("r2", "rm -rf build"), write("w2", "notes.md", "new\n"), write("w3", "other.md"), { text: "ok" });
    await second.prompt(sessionId, "again");
    assert.equal(second.permissionRequests.length, 1, "only the new file asks; saved answers hold after the restart");
    assert.equal(await exists(path.join(project, "build")), false, "the saved command rule applied");
    assert.equal(await readFile(path.join(project, "notes.md"), "utf8"), "new\n");
    assert.equal(await exists(path.join(project, "other.md")), false, "rejected");
    const saved = (await readFile(path.join(first.home, "config.yaml"), "utf8")).replace(/\s+/g, " ");
    assert.ok(saved.includes(`edit: ${path.join(project, "other.md")} decision: reject`), "the rejection is saved for that file");
  } finally {
    await second.close();
  }
});

test("an always-answer that cannot be saved holds for the process, leaves config.yaml alone, and the user is told", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const hermes = await startAgent({ config: scriptedConfig(model.url), permission: pick("allow_always") });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project); // config.yaml is loaded by now
    // Then it turns unparseable (an editor mid-save, a bad hand edit): it must not be overwritten.
    const configPath = path.join(hermes.home, "config.yaml");
    const broken = `${await readFile(configPath, "utf8")}\napprovals: [unclosed\n`;
    await writeFile(configPath, broken);
    model.enqueue(write("w1", "a.txt"), write("w2", "a.txt", "y\n"), { text: "ok" });
    await hermes.prompt(sessionId, "write it twice");
    assert.equal(await readFile(configPath, "utf8"), broken, "config.yaml is untouched byte for byte");
    assert.equal(hermes.permissionRequests.length, 1, "the rule still holds for this process");
    const told = JSON.stringify(sessionUpdates(hermes, sessionId));
    assert.match(told, /holds until Hermes restarts: it was not saved because .*config\.yaml is not valid YAML/);
  } finally {
    await hermes.close();
  }
});

test("a rejected or cancelled prompt is a denial the model reads, and the turn goes on", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const hermes = await startAgent({ config: scriptedConfig(model.url), permission: () => "cancelled" });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    const first = model.requests.length;
    model.enqueue(write("w1", "a.txt"), { text: "understood" });
    assert.equal((await hermes.prompt(sessionId, "write it")).stopReason, "end_turn");
    assert.equal(await exists(path.join(project, "a.txt")), false);
    assert.match(toolResult(model.requests[first + 1].body, "w1"), /denied/);
  } finally {
    await hermes.close();
  }
});

test("plan mode refuses writes and changing commands, allows reading", async () => {
  const model = scripted();
  const project = await makeTempDir();
  await writeFile(path.join(project, "readme.md"), "hello\n");
  const hermes = await startAgent({ config: scriptedConfig(model.url), permission: pick("allow_once") });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    await hermes.agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: "plan" });
    const first = model.requests.length;
    model.enqueue(
      { toolCalls: [{ id: "r", name: "read_file", arguments: { path: "readme.md" } }, { id: "l", name: "terminal", arguments: { command: "ls -la && git status" } }] },
      { toolCalls: [{ id: "w", name: "write_file", arguments: { path: "x.txt", content: "no" } }, { id: "t", name: "terminal", arguments: { command: "touch y.txt" } }] },
      { text: "Plan: ..." },
    );
    await hermes.prompt(sessionId, "plan the change");
    const body = model.requests[first + 2].body;
    assert.match(toolResult(body, "r"), /hello/);
    assert.match(toolResult(body, "l"), /exit_code/, "read-only commands run");
    assert.match(toolResult(body, "w"), /Plan mode/);
    assert.match(toolResult(body, "t"), /Plan mode/);
    assert.equal(await exists(path.join(project, "x.txt")), false);
    assert.equal(await exists(path.join(project, "y.txt")), false);
    assert.equal(hermes.permissionRequests.length, 0, "plan mode refuses without asking");
  } finally {
    await hermes.close();
  }
});

test("accept_edits applies edits in the workspace and asks outside it, symlinks included", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const outside = await makeTempDir("hermes-outside-");
  await symlink(outside, path.join(project, "escape"));
  const hermes = await startAgent({ config: scriptedConfig(model.url, { agent: { default_mode: "accept_edits" } }), permission: "reject" });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    model.enqueue(write("in", "src/a.ts"), write("out", path.join(outside, "b.ts")), write("link", "escape/c.ts"), { text: "done" });
    await hermes.prompt(sessionId, "edit");
    assert.ok(await exists(path.join(project, "src", "a.ts")), "inside: applied without asking");
    assert.equal(hermes.permissionRequests.length, 2, "outside, directly or through a symlink: asked");
    assert.equal(await exists(path.join(outside, "b.ts")), false);
    assert.equal(await exists(path.join(outside, "c.ts")), false);
  } finally {
    await hermes.close();
  }
});

test("hardline commands never run, even in dont_ask mode", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const hermes = await startAgent({ config: scriptedConfig(model.url, { agent: { default_mode: "dont_ask" } }) });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    const first = model.requests.length;
    model.enqueue(run("h", "echo start; rm -rf ~ ; echo end"), { text: "refused" });
    await hermes.prompt(sessionId, "wipe it");
    const result = toolResult(model.requests[first + 1].body, "h");
    assert.match(result, /never runs this command/);
    assert.doesNotMatch(result, /start/, "nothing of the line ran");
    const done = sessionUpdates(hermes, sessionId).find((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "h" && (u.status === "completed" || u.status === "failed"));
    assert.ok(done && done.sessionUpdate === "tool_call_update" && done.status === "failed");
  } finally {
    await hermes.close();
  }
});

test("secrets are redacted in what the model, the editor and the journal see; commands do not get the agent's keys", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const key = "sk-ant-api03-Zx9Qm2Lp8Rt5Wv1Yb4Nc7Hd0Kf3Gj6Ts9Ua2Xe5";
  await writeFile(path.join(project, "leak.txt"), `ANTHROPIC_API_KEY=${key}\n`);
  const hermes = await startAgent({ config: scriptedConfig(model.url), env: { DEPLOY_API_KEY: "deploy-secret-value-123456" } });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    const first = model.requests.length;
    model.enqueue(run("c", "cat leak.txt; echo \"env=[$DEPLOY_API_KEY]\""), { text: "done" });
    await hermes.prompt(sessionId, "show me");
    const seen = toolResult(model.requests[first + 1].body, "c");
    assert.doesNotMatch(seen, new RegExp(key), "the model never sees the key");
    assert.match(seen, /\[REDACTED\]/);
    assert.match(seen, /env=\[\]/, "the agent's own keys are not in the command's environment");
    assert.doesNotMatch(JSON.stringify(hermes.frames), new RegExp(key), "nor does the editor");
    const journal = await readFile(path.join(hermes.home, "sessions", `${sessionId}.jsonl`), "utf8");
    assert.doesNotMatch(journal, new RegExp(key), "nor the session journal");
  } finally {
    await hermes.close();
  }
});

test("command screening fails closed over ACP: obfuscation asks each time, dont_ask without a sandbox refuses it, plan refuses write operands", async () => {
  const model = scripted();
  const project = await makeTempDir();
  await writeFile(path.join(project, "in.txt"), "b\na\n");
  const hermes = await startAgent({ config: scriptedConfig(model.url, { terminal: { sandbox: "off" } }), permission: pick("allow_once") });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    model.enqueue(run("o1", "X=touch; $X made.txt"), run("o2", "X=touch; $X made.txt"), { text: "done" });
    await hermes.prompt(sessionId, "make it twice");
    assert.equal(hermes.permissionRequests.length, 2, "an unresolvable command is asked about every time");
    for (const request of hermes.permissionRequests) {
      assert.deepEqual(request.options.map((o) => o.optionId), ["allow_once", "reject_once"], "no session or always grant is offered for it");
      assert.match(JSON.stringify(request.toolCall.content), /computed at run time/, "the card says why");
    }
    assert.ok(await exists(path.join(project, "made.txt")), "allowed once, it ran");

    await hermes.agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: "dont_ask" });
    const second = model.requests.length;
    model.enqueue(run("d1", "X=touch; $X dont.txt"), run("d2", "touch literal.txt"), { text: "done" });
    await hermes.prompt(sessionId, "now without asking");
    assert.match(toolResult(model.requests[second + 2].body, "d1"), /cannot be checked before it runs.*without the sandbox/);
    assert.equal(await exists(path.join(project, "dont.txt")), false, "refused without a sandbox");
    // No sandbox applies (terminal.sandbox: off): a command not known to be read-only is asked about, dont_ask included.
    assert.ok(await exists(path.join(project, "literal.txt")), "a literal command runs in dont_ask once allowed");
    assert.equal(hermes.permissionRequests.length, 3, "dont_ask asked about the command it cannot contain, not the refused one");
    assert.match(JSON.stringify(hermes.permissionRequests[2]?.toolCall.content), /no OS sandbox applies/);

    await hermes.agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: "plan" });
    const third = model.requests.length;
    model.enqueue(run("p1", "sort -o out.txt in.txt"), run("p2", "sort in.txt"), { text: "plan" });
    await hermes.prompt(sessionId, "sort it");
    assert.match(toolResult(model.requests[third + 2].body, "p1"), /Plan mode/);
    assert.equal(await exists(path.join(project, "out.txt")), false);
    assert.match(toolResult(model.requests[third + 2].body, "p2"), /exit_code/);
  } finally {
    await hermes.close();
  }
});

test("commands never write Hermes's own config, by a variable or from a workdir, in any mode", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const hermes = await startAgent({ config: scriptedConfig(model.url, { agent: { default_mode: "dont_ask" }, terminal: { sandbox: "off" } }) });
  try {
    await hermes.initialize();
    const configFile = path.join(hermes.home, "config.yaml");
    const before = await readFile(configFile, "utf8");
    const { sessionId } = await hermes.newSession(project);
    const first = model.requests.length;
    model.enqueue(
      run("v", 'C=$HERMES_HOME/config.yaml; echo "approvals: {rules: [{command: rm-recursive, decision: allow}]}" >> $C'),
      { toolCalls: [{ id: "w", name: "terminal", arguments: { command: "echo pwned >> config.yaml", workdir: hermes.home } }] },
      { toolCalls: [{ id: "p", name: "terminal", arguments: { command: "echo fine >> notes.txt", workdir: project } }] },
      { text: "done" },
    );
    await hermes.prompt(sessionId, "approve yourself");
    const body = model.requests[first + 3].body;
    assert.match(toolResult(body, "v"), /Hermes's own state/);
    assert.match(toolResult(body, "w"), /Hermes's own state/, "screened in the workdir it runs in, where config.yaml is Hermes's");
    assert.match(toolResult(body, "p"), /exit_code/);
    assert.equal(await readFile(configFile, "utf8"), before, "config.yaml is untouched");
    assert.equal(await readFile(path.join(project, "notes.txt"), "utf8"), "fine\n");
  } finally {
    await hermes.close();
  }
});

test("saved always rules never override a hardline refusal, Hermes's state or an unresolvable command, and a key alone covers no path", async () => {
  const model = scripted();
  const project = await makeTempDir();
  await mkdir(path.join(project, "build"));
  await mkdir(path.join(project, "build2"));
  const rules = ["write-hermes-state", "hermes-state", "unresolved:computed", "unresolved:argument", "rm-recursive"].map((command) => ({ command, decision: "allow" }));
  const hermes = await startAgent({ config: scriptedConfig(model.url, { approvals: { rules }, terminal: { sandbox: "off" } }), permission: pick("reject_once") });
  try {
    await hermes.initialize();
    const before = await readFile(path.join(hermes.home, "config.yaml"), "utf8");
    const { sessionId } = await hermes.newSession(project);
    const first = model.requests.length;
    model.enqueue(
      run("h", "echo x >> $HERMES_HOME/config.yaml"),
      run("u", "X=touch; $X made.txt"),
      run("r", "rm -rf build"),
      run("s", "sudo rm -rf build2"),
      { text: "done" },
    );
    await hermes.prompt(sessionId, "go");
    const body = model.requests[first + 4].body;
    assert.match(toolResult(body, "h"), /never runs this command/);
    assert.equal(await readFile(path.join(hermes.home, "config.yaml"), "utf8"), before);
    assert.equal(await exists(path.join(project, "made.txt")), false, "the unresolvable command was asked about (and rejected), not run by the saved rule");
    // A key-only rule (saved by older versions) no longer covers a command that names a path: it
    // would cover every recursive delete, while the user approved one.
    assert.ok(existsSync(path.join(project, "build")), "rm-recursive saved alone does not cover rm -rf build: asked (and rejected)");
    assert.ok(existsSync(path.join(project, "build2")), "rm-recursive saved does not cover sudo");
    assert.deepEqual(hermes.permissionRequests.map((r) => r.toolCall.toolCallId), ["u", "r", "s"]);
  } finally {
    await hermes.close();
  }
});

test("a file tool does not change Hermes's own config in dont_ask mode, by its own path or through a symlink in the workspace", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const hermes = await startAgent({ config: scriptedConfig(model.url, { agent: { default_mode: "dont_ask" } }) });
  try {
    const home = process.env.HERMES_HOME ?? "";
    assert.ok(home, "the agent runs on its own HERMES_HOME");
    const config = path.join(home, "config.yaml");
    await symlink(home, path.join(project, "settings"));
    const before = await readFile(config, "utf8");
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    const first = model.requests.length;
    model.enqueue(write("direct", config, "terminal:\n  sandbox: off\n"), write("linked", "settings/config.yaml", "mcp_servers: {}\n"), { text: "refused" });
    await hermes.prompt(sessionId, "loosen your settings");
    for (const [id, at] of [["direct", 1], ["linked", 2]] as const) assert.match(toolResult(model.requests[first + at].body, id), /Hermes's own state/, id);
    assert.equal(await readFile(config, "utf8"), before, "config.yaml is unchanged");
    assert.equal(hermes.permissionRequests.length, 0, "dont_ask asks nobody: it refuses");
  } finally {
    await hermes.close();
  }
});
