// A plugin written for Claude Code, installed as a user would install it, in a session over the
// real protocol: its command is offered and runs as the turn's prompt, its skill joins the
// catalog, its MCP server starts with ${CLAUDE_PLUGIN_ROOT} expanded and its tool reaches the
// model, /plugins lists it; disabled, every part is gone from the next session.
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { setPluginEnabled, stagePlugin } from "../../acp-server/plugins/plugin-install";
import { agentText, makeTempDir, scriptedConfig, startAgent, type InProcessAgent } from "../support/in-process-agent";
import { copyPluginFixture, PLUGIN_JS_TOOLS } from "../support/plugin-fixtures";
import { useScriptedModel } from "../support/scripted-model";

const scripted = useScriptedModel();

const toolNames = (body: any): string[] => (body.tools ?? []).map((tool: any) => tool.function.name);
const lastUserText = (body: any): string => JSON.stringify(body.messages.filter((message: any) => message.role === "user").at(-1)?.content ?? "");

/** The command names the session's available_commands_update offered. */
async function offered(hermes: InProcessAgent, sessionId: string): Promise<string[]> {
  const frame = await hermes.waitForFrame((f) => f.method === "session/update" && f.params?.sessionId === sessionId && f.params.update?.sessionUpdate === "available_commands_update");
  return (frame.params.update.availableCommands as { name: string }[]).map((command) => command.name);
}

async function answerOf(hermes: InProcessAgent, sessionId: string, prompt: string): Promise<string> {
  const before = agentText(hermes, sessionId).length;
  await hermes.prompt(sessionId, prompt);
  return agentText(hermes, sessionId).slice(before);
}

test("an installed Claude Code plugin: command, skill and MCP server work in a session; disabled, none of them is there", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const hermes = await startAgent({ config: scriptedConfig(model.url) });
  try {
    (await stagePlugin(hermes.home, copyPluginFixture(), "/")).commit();
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    const commands = await offered(hermes, sessionId);
    for (const name of ["review", "code-review-kit:git:summary", "code-review-kit:help", "plugins", "commit-style"]) assert.ok(commands.includes(name), `${name} offered: ${commands.join(", ")}`);
    assert.equal(commands.filter((name) => name === "help").length, 1, "the built-in /help is not shadowed");

    model.enqueue({ text: "Reviewed." });
    await hermes.prompt(sessionId, "/review src/app.ts");
    const request = model.requests.at(-1)!.body;
    assert.match(lastUserText(request), /Review src\/app\.ts for bugs\. Start with src\/app\.ts\./);
    assert.ok(toolNames(request).some((name) => /checklist/.test(name)), `the plugin's MCP tool reaches the model: ${toolNames(request).join(", ")}`);

    model.enqueue({ toolCalls: [{ name: toolNames(request).find((name) => /checklist/.test(name))!, arguments: {} }] }, { text: "Checked." });
    await hermes.prompt(sessionId, "what is on the checklist?");
    assert.match(JSON.stringify(model.requests.at(-1)!.body.messages), /No unhandled errors/, "the server ran with ${CLAUDE_PLUGIN_ROOT} expanded");

    assert.match(await answerOf(hermes, sessionId, "/skills"), /`\/commit-style` \(plugin/);
    assert.match(await answerOf(hermes, sessionId, "/context"), /Plugins: `code-review-kit` \(3 commands, 1 agent, skills, hooks, MCP tools\)/);
    assert.match(await answerOf(hermes, sessionId, "/plugins"), /\*\*code-review-kit\*\* v1\.2\.0 \(enabled[\s\S]*commands: \/git:summary, \/help, \/review/);

    setPluginEnabled(hermes.home, "code-review-kit", false);
    const second = await hermes.newSession(project);
    const after = await offered(hermes, second.sessionId);
    assert.ok(!after.includes("review") && !after.includes("commit-style"), after.join(", "));
    model.enqueue({ text: "No such command here." });
    await hermes.prompt(second.sessionId, "/review src/app.ts");
    const plain = model.requests.at(-1)!.body;
    assert.match(lastUserText(plain), /\/review src\/app\.ts/, "the text goes to the model as typed");
    assert.ok(!toolNames(plain).some((name) => /checklist/.test(name)), "no plugin MCP tool");

    // The project names the plugin it wants: /plugins says it is off and how to turn it on; nothing turns it on by itself.
    mkdirSync(path.join(project, ".hermes"), { recursive: true });
    writeFileSync(path.join(project, ".hermes", "plugins.yaml"), "plugins:\n  code-review-kit: https://example.com/kit.git\n  other-kit: ./tools/other-kit\n");
    const wanted = await answerOf(hermes, second.sessionId, "/plugins");
    assert.match(wanted, /\*\*Wanted by this project\*\* \(.*plugins\.yaml\):\n- \*\*code-review-kit\*\*: disabled: `hermes plugins enable code-review-kit`\n- \*\*other-kit\*\*: not installed: `hermes plugins install \/.*\/tools\/other-kit`/);
    assert.match(wanted, /`hermes plugins install --project` installs the missing ones/);
  } finally {
    await hermes.close();
  }
});

test("a plugin's skill whose name a user skill already has is not lost: it is offered as plugin:name and runs the plugin's text", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const hermes = await startAgent({ config: scriptedConfig(model.url) });
  try {
    (await stagePlugin(hermes.home, copyPluginFixture(), "/")).commit();
    mkdirSync(path.join(hermes.home, "skills", "commit-style"), { recursive: true });
    writeFileSync(path.join(hermes.home, "skills", "commit-style", "SKILL.md"), "---\nname: commit-style\ndescription: The user's own commit style.\n---\nUse conventional commits.\n");
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    const commands = await offered(hermes, sessionId);
    assert.ok(commands.includes("commit-style") && commands.includes("code-review-kit:commit-style"), commands.join(", "));
    const skills = await answerOf(hermes, sessionId, "/skills");
    assert.match(skills, /`\/commit-style` \(user/);
    assert.match(skills, /`\/code-review-kit:commit-style` \(plugin/);

    model.enqueue({ text: "Done." });
    await hermes.prompt(sessionId, "/code-review-kit:commit-style fix the parser");
    assert.match(JSON.stringify(model.requests.at(-1)!.body.messages), /subject in the imperative/, "the plugin's skill text reaches the model");
  } finally {
    await hermes.close();
  }
});

const systemText = (body: any): string => JSON.stringify(body.messages.filter((message: any) => message.role === "system"));

test("a plugin's agent runs as a subagent with its own instructions and tools; /agents lists it", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const hermes = await startAgent({ config: scriptedConfig(model.url) });
  try {
    (await stagePlugin(hermes.home, copyPluginFixture(), "/")).commit();
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    assert.match(await answerOf(hermes, sessionId, "/agents"), /`checker` \(plugin code-review-kit, a subagent with its own instructions\): Checks a change against the checklist/);

    model.enqueue(
      { toolCalls: [{ name: "delegate_task", arguments: { tasks: [{ goal: "Check the last change", agent: "checker" }] } }] },
      { text: "Nothing wrong." },
      { text: "The checker found nothing wrong." },
    );
    await hermes.prompt(sessionId, "have the checker look at it");
    const child = model.requests.find((request) => /You check changes against the team checklist/.test(systemText(request.body)));
    assert.ok(child, "the subagent's request carries the agent's instructions");
    assert.match(systemText(child.body), /# You are the agent \\"checker\\"/);
    // tools: Read, Grep → the file toolset only.
    assert.ok(toolNames(child.body).includes("read_file") && !toolNames(child.body).includes("terminal"), toolNames(child.body).join(", "));
    assert.match(agentText(hermes, sessionId), /The checker found nothing wrong/);
  } finally {
    await hermes.close();
  }
});

test("a plugin's JavaScript tools run in their own process: answers reach the model, a throw is an error result, a crash leaves Hermes serving", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const hermes = await startAgent({ config: scriptedConfig(model.url) });
  try {
    (await stagePlugin(hermes.home, PLUGIN_JS_TOOLS, "/")).commit();
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    model.enqueue({ text: "Ready." });
    await hermes.prompt(sessionId, "hello");
    const names = toolNames(model.requests.at(-1)!.body);
    const named = (part: string) => names.find((name) => name.endsWith(part))!;
    assert.ok(named("word_count") && named("always_fails") && named("exits_process"), names.join(", "));

    model.enqueue({ toolCalls: [{ name: named("word_count"), arguments: { text: "one two three" } }] }, { text: "Three." });
    await hermes.prompt(sessionId, "count");
    assert.match(JSON.stringify(model.requests.at(-1)!.body.messages.at(-1)), /3 words/);

    model.enqueue({ toolCalls: [{ name: named("always_fails"), arguments: {} }] }, { text: "It failed." });
    await hermes.prompt(sessionId, "fail");
    assert.match(JSON.stringify(model.requests.at(-1)!.body.messages.at(-1)), /this tool failed on purpose/);

    model.enqueue({ toolCalls: [{ name: named("exits_process"), arguments: {} }] }, { text: "The tool process ended." });
    const crashed = await hermes.prompt(sessionId, "crash it");
    assert.equal(crashed.stopReason, "end_turn");
    assert.match(JSON.stringify(model.requests.at(-1)!.body.messages.at(-1)), /disconnected during exits_process \(exit code 7\)/);

    model.enqueue({ text: "Still here." });
    assert.equal((await hermes.prompt(sessionId, "are you there?")).stopReason, "end_turn");
    assert.match(agentText(hermes, sessionId), /Still here\./);
  } finally {
    await hermes.close();
  }
});
