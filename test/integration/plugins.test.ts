// Plugins with the built bundle: a plugin's JavaScript tools are served by dist's own tool host
// (dist/chunks/plugin-tool-host.mjs), found beside the chunk that starts it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { stagePlugin } from "../../acp-server/plugins/plugin-install";
import { makeTempDir, scriptedConfig, startHermes } from "../support/acp-harness";
import { PLUGIN_JS_TOOLS } from "../support/plugin-fixtures";
import { useScriptedModel } from "../support/scripted-model";

const scripted = useScriptedModel();

test("the built agent serves a plugin's JavaScript tools from its own tool host", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const hermes = await startHermes({ config: scriptedConfig(model.url) });
  try {
    (await stagePlugin(hermes.home, PLUGIN_JS_TOOLS, "/")).commit();
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(project);
    model.enqueue({ toolCalls: [{ name: "mcp_js-tools-kit-tools_word_count", arguments: { text: "a b c d" } }] }, { text: "Four." });
    await hermes.prompt(sessionId, "count");
    const tools = (model.requests.at(-1)!.body.tools as { function: { name: string } }[]).map((tool) => tool.function.name);
    assert.ok(tools.includes("mcp_js-tools-kit-tools_word_count"), tools.join(", "));
    assert.match(JSON.stringify(model.requests.at(-1)!.body.messages.at(-1)), /4 words/);
  } finally {
    await hermes.close();
  }
});
