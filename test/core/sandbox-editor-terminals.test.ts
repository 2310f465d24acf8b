// Editor terminals and the sandbox: Hermes sends its policy in terminal/create `_meta` only to a
// client that advertised it can apply it, and the VS Code extension's TerminalProcess really
// runs the command inside it. A client that cannot sandbox its terminals does not get the
// commands (they run locally in the sandbox, streaming into the tool card) unless the user
// opted into its bare terminals. /context says plainly whether the sandbox applies.
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import type * as acp from "@agentclientprotocol/sdk/unstable";
import { TerminalProcess } from "../../extension/terminal-process";
import { SANDBOX_CAPABILITY } from "../../extension/terminal-sandbox";
import { agentText, scriptedConfig, startAgent } from "../support/in-process-agent";
import { BLOCKED_WRITE, fakeMachine, sandboxSkip, snapshot } from "../support/sandbox";
import { useScriptedModel } from "../support/scripted-model";

const scripted = useScriptedModel();
const skip = sandboxSkip();

async function runInExtension(request: acp.CreateTerminalRequest, line: string, editorEnv: NodeJS.ProcessEnv = process.env): Promise<{ output: string; exitCode: number | null }> {
  const terminal = new TerminalProcess({ ...request, command: "/bin/sh", args: ["-c", line] }, editorEnv);
  const status = await terminal.exited;
  return { output: terminal.output.value, exitCode: status.exitCode ?? null };
}

test("a sandboxing client gets the policy with terminal/create, and the extension enforces it", { skip }, async () => {
  const model = scripted();
  const machine = fakeMachine();
  const hermes = await startAgent({
    config: scriptedConfig(model.url, { agent: { default_mode: "dont_ask" } }),
    env: { HOME: machine.home },
    serveTerminal: true,
    clientCapabilities: { _meta: SANDBOX_CAPABILITY },
  });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(machine.workspace);
    model.enqueue({ toolCalls: [{ id: "t", name: "terminal", arguments: { command: "true" } }] }, { text: "done" });
    await hermes.prompt(sessionId, "run it");
    const request = hermes.terminals.created[0];
    const policy = (request._meta as Record<string, any>)["hermes/sandbox"];
    assert.deepEqual(policy.writable, [machine.workspace]);
    assert.ok(policy.hidden.some((entry: { path: string }) => entry.path === path.join(machine.home, ".ssh")));
    assert.deepEqual(policy.network, { kind: "off" });

    // The same request, run by the extension's terminal code with harmful lines.
    const before = { home: snapshot(machine.home), outside: snapshot(machine.outside) };
    const attack = await runInExtension(request, `cat ~/.ssh/id_rsa; rm -rf ${machine.outside} ~/notes.txt; echo x > /etc/hermes-ext-probe`);
    assert.notEqual(attack.exitCode, 0);
    assert.match(attack.output, new RegExp(`cannot remove '${machine.outside}[^']*': ${BLOCKED_WRITE.source}`));
    assert.doesNotMatch(attack.output, /secret/);
    assert.deepEqual(snapshot(machine.home), before.home);
    assert.deepEqual(snapshot(machine.outside), before.outside);
    assert.equal(existsSync("/etc/hermes-ext-probe"), false);
    const work = await runInExtension(request, "echo made > here.txt && cat here.txt");
    assert.equal(work.exitCode, 0, work.output);
    assert.equal(readFileSync(path.join(machine.workspace, "here.txt"), "utf8"), "made\n");

    // The editor's environment is cleaned like the agent's own commands': a token VS Code was
    // started with is not there; PATH is, and so are the names of terminal.env_passthrough.
    const withPassthrough = { ...request, _meta: { "hermes/sandbox": { ...policy, envPassthrough: ["MY_TOOL_HOME"] } } };
    const env = await runInExtension(withPassthrough, "env", { ...process.env, VAULT_TOKEN: "hvs.editor-secret", MY_TOOL_HOME: "/opt/tool" });
    assert.equal(env.exitCode, 0, env.output);
    assert.doesNotMatch(env.output, /editor-secret/);
    assert.match(env.output, /^PATH=/m);
    assert.match(env.output, /^MY_TOOL_HOME=\/opt\/tool$/m);

    await hermes.prompt(sessionId, "/context");
    assert.match(agentText(hermes, sessionId), /Sandbox: active \(bwrap\)\. Commands run in the editor's terminals, wrapped by the Hermes extension/);
  } finally {
    await hermes.close();
  }
});

test("the extension refuses a terminal whose sandbox policy is invalid, and runs one without a policy as before", { skip }, () => {
  const base: acp.CreateTerminalRequest = { sessionId: "s", command: "/bin/sh", args: ["-c", "true"], cwd: "/tmp" };
  const bad = { ...base, _meta: { "hermes/sandbox": { writable: ["relative/path"], readOnly: [], hidden: [], tmpDir: "/tmp", network: { kind: "off" } } } };
  assert.throws(() => new TerminalProcess(bad), /sandbox policy in terminal\/create is invalid/);
  const plain = new TerminalProcess(base);
  return plain.exited.then((status) => assert.equal(status.exitCode, 0));
});

test("a client that offers terminals but cannot sandbox them: commands run locally in the sandbox, output streams into the tool card", { skip }, async () => {
  const model = scripted();
  const machine = fakeMachine();
  const hermes = await startAgent({ config: scriptedConfig(model.url, { agent: { default_mode: "dont_ask" } }), env: { HOME: machine.home }, serveTerminal: true });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(machine.workspace);
    // Streams: the card shows the first line while the command still waits for the test's go.
    model.enqueue({ toolCalls: [{ id: "s", name: "terminal", arguments: { command: "echo first-line-streamed; while [ ! -e go ]; do sleep 0.02; done; echo after-go" } }] }, { text: "done" });
    const turn = hermes.prompt(sessionId, "run it");
    await hermes.waitForUpdate((u) => u.sessionUpdate === "tool_call_update" && u.status !== "completed" && JSON.stringify(u.content ?? []).includes("first-line-streamed"));
    writeFileSync(path.join(machine.workspace, "go"), "");
    await turn;
    const final = model.requests.at(-1)!.body.messages.find((m: any) => m.role === "tool")?.content ?? "";
    assert.match(final, /after-go/);
    assert.equal(hermes.terminals.created.length, 0, "the editor's unsandboxable terminals are not used");

    // A write outside the workspace and a secret read are blocked, in dont_ask.
    const before = { home: snapshot(machine.home), outside: snapshot(machine.outside) };
    model.enqueue({ toolCalls: [{ id: "w", name: "terminal", arguments: { command: `cat ~/.ssh/id_rsa; echo planted > ${machine.outside}/keep.txt; echo x >> ~/.bashrc; echo end` } }] }, { text: "done" });
    await hermes.prompt(sessionId, "try it");
    const result = model.requests.at(-1)!.body.messages.filter((m: any) => m.role === "tool").at(-1)?.content ?? "";
    assert.match(result, BLOCKED_WRITE);
    assert.doesNotMatch(result, /secret-key-material/);
    assert.deepEqual(snapshot(machine.home), before.home);
    assert.deepEqual(snapshot(machine.outside), before.outside);
    assert.equal(hermes.terminals.created.length, 0);

    await hermes.prompt(sessionId, "/context");
    assert.match(agentText(hermes, sessionId), /Sandbox: active \(bwrap\)\. Commands run as local processes \(this editor's terminals cannot be sandboxed\), their output streamed into the tool card/);
  } finally {
    await hermes.close();
  }
});

test("terminal.editor_terminals: always: the editor's bare terminals, no policy, /context says so, and Default mode asks before what is not read-only", async () => {
  const model = scripted();
  const machine = fakeMachine();
  const hermes = await startAgent({ config: scriptedConfig(model.url, { terminal: { editor_terminals: "always" } }), env: { HOME: machine.home }, serveTerminal: true, permission: () => "allow_once" });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(machine.workspace);
    model.enqueue({ toolCalls: [{ id: "r", name: "terminal", arguments: { command: "ls -la" } }, { id: "t", name: "terminal", arguments: { command: "touch made.txt" } }] }, { text: "done" });
    await hermes.prompt(sessionId, "run them");
    assert.equal(hermes.terminals.created.length, 2, "both ran in the editor's terminals");
    assert.equal(hermes.terminals.created[0]?._meta?.["hermes/sandbox"], undefined);
    assert.equal(hermes.permissionRequests.length, 1, "only the command that is not read-only was asked about");
    assert.match(JSON.stringify(hermes.permissionRequests[0]?.toolCall), /touch made\.txt/);
    assert.match(JSON.stringify(hermes.permissionRequests[0]?.toolCall.content), /no OS sandbox applies/);
    await hermes.prompt(sessionId, "/context");
    assert.match(agentText(hermes, sessionId), /Sandbox: NOT applied\. Commands run in this editor's terminals, which Hermes cannot sandbox \(terminal\.editor_terminals: always\); command screening is the only layer\. Default mode asks before every command not known to be read-only/);
  } finally {
    await hermes.close();
  }
});

test("terminal.editor_terminals takes only its two values", async () => {
  const { ConfigSchema } = await import("../../acp-server/config/schema");
  const terminal = (value: unknown) => ConfigSchema.safeParse({ terminal: { editor_terminals: value } });
  assert.equal(terminal("always").success, true);
  assert.equal(terminal("when_sandboxed").success, true);
  assert.equal(terminal("yes").success, false);
  assert.equal(terminal(true).success, false);
  assert.equal(ConfigSchema.parse({}).terminal.editor_terminals, "when_sandboxed");
});

test("terminal.sandbox: on with a client that cannot sandbox: commands run locally, inside the sandbox", { skip }, async () => {
  const model = scripted();
  const machine = fakeMachine();
  // `on` is a promise that every command is sandboxed: it overrides the opt-in to the editor's terminals.
  const hermes = await startAgent({ config: scriptedConfig(model.url, { terminal: { sandbox: "on", editor_terminals: "always" } }), env: { HOME: machine.home }, serveTerminal: true });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(machine.workspace);
    model.enqueue({ toolCalls: [{ id: "t", name: "terminal", arguments: { command: "cat ~/.ssh/id_rsa" } }] }, { text: "done" });
    await hermes.prompt(sessionId, "run it");
    assert.equal(hermes.terminals.created.length, 0, "the editor's terminals are not used");
    const result = model.requests.at(-1)!.body.messages.find((m: any) => m.role === "tool")?.content ?? "";
    assert.doesNotMatch(result, /secret/);
    assert.match(result, /The sandbox hid/);
    await hermes.prompt(sessionId, "/context");
    assert.match(agentText(hermes, sessionId), /Sandbox: active \(bwrap\)\. Commands run as local processes/);
  } finally {
    await hermes.close();
  }
});

test("the editor's sandbox pins the workspace's .git too: the policy carries it and the extension enforces it; git commit still works", { skip }, async () => {
  const model = scripted();
  const machine = fakeMachine();
  const git = "git -c user.email=t@t -c user.name=t";
  const setup = new TerminalProcess({ sessionId: "s", command: "/bin/sh", args: ["-c", `${git} init -q . && ${git} commit -q --allow-empty -m init`], cwd: machine.workspace }, process.env);
  assert.equal((await setup.exited).exitCode, 0, setup.output.value);
  const hermes = await startAgent({ config: scriptedConfig(model.url, { agent: { default_mode: "dont_ask" } }), env: { HOME: machine.home }, serveTerminal: true, clientCapabilities: { _meta: SANDBOX_CAPABILITY } });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(machine.workspace);
    model.enqueue({ toolCalls: [{ id: "t", name: "terminal", arguments: { command: "true" } }] }, { text: "done" });
    await hermes.prompt(sessionId, "run it");
    const request = hermes.terminals.created[0];
    const policy = (request._meta as Record<string, { pinned?: string[] }>)["hermes/sandbox"];
    assert.deepEqual(policy.pinned, [path.join(machine.workspace, ".git")]);
    const attack = await runInExtension(request, `mv .git aside || echo kept; echo evil > .git/hooks/pre-commit || echo no-hook; ${git} commit -q --allow-empty -m inside && echo committed`);
    assert.match(attack.output, /^kept$/m);
    assert.match(attack.output, /^no-hook$/m);
    assert.match(attack.output, /^committed$/m);
    assert.equal(existsSync(path.join(machine.workspace, ".git", "hooks", "pre-commit")), false);
  } finally {
    await hermes.close();
  }
});
