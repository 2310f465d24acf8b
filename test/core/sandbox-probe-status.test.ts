// Honest status over ACP: when the probe command cannot run inside the sandbox with the
// session's mounts (here an extra root that vanished after session/new, so bwrap cannot bind
// it), /context says the sandbox is not active and gives bwrap's own words, and commands are
// judged as unsandboxed ones: what is not read-only is asked about, dont_ask included.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import * as acp from "@agentclientprotocol/sdk";
import { agentText, scriptedConfig, startAgent } from "../support/in-process-agent";
import { fakeMachine, sandboxSkip } from "../support/sandbox";
import { useScriptedModel } from "../support/scripted-model";

const scripted = useScriptedModel();

test("a failing probe: /context names the failure, and dont_ask asks before a command it cannot contain", { skip: sandboxSkip() }, async () => {
  const model = scripted();
  const machine = fakeMachine();
  const extra = path.join(machine.root, "shared");
  mkdirSync(extra);
  const hermes = await startAgent({ config: scriptedConfig(model.url, { agent: { default_mode: "dont_ask" } }), env: { HOME: machine.home }, permission: () => "allow_once" });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.agent.request(acp.methods.agent.session.new, { cwd: machine.workspace, additionalDirectories: [extra], mcpServers: [] });
    rmSync(extra, { recursive: true });
    await hermes.prompt(sessionId, "/context");
    const context = agentText(hermes, sessionId);
    assert.match(context, /Sandbox: NOT active\. No OS sandbox: the sandbox failed its probe run \(a command with this session's mounts\): bwrap: [^\n]*shared/);
    assert.match(context, /Default mode asks before every command not known to be read-only/);

    model.enqueue({ toolCalls: [{ id: "t", name: "terminal", arguments: { command: "touch made.txt" } }] }, { text: "done" });
    await hermes.prompt(sessionId, "make it");
    assert.equal(hermes.permissionRequests.length, 1, "asked, though the mode is dont_ask");
    assert.match(JSON.stringify(hermes.permissionRequests[0]?.toolCall.content), /no OS sandbox applies/);
    assert.ok(existsSync(path.join(machine.workspace, "made.txt")), "allowed once, it ran");
  } finally {
    await hermes.close();
  }
});
