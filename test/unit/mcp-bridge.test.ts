// Pure parts of the MCP bridge: tool names, config entries, results, prompt arguments, and
// how tool images reach each provider's wire format.
import assert from "node:assert/strict";
import { test } from "node:test";
import { toToolCallContent } from "../../acp-server/acp/updates";
import { modelSchema } from "../../acp-server/mcp/bridge-tools";
import { describeServers } from "../../acp-server/mcp/bridge";
import { promptArguments, parseMcpPromptCommand, promptMessagesToParts } from "../../acp-server/mcp/prompt-command";
import { toolResultFromMcp } from "../../acp-server/mcp/results";
import { configServerSpecs, DuplicateMcpServerError, expandEnv, mergeServerSpecs, clientServerSpec } from "../../acp-server/mcp/server-spec";
import { mcpToolName, uniqueName } from "../../acp-server/mcp/tool-names";
import { toAnthropicConversation } from "../../acp-server/providers/anthropic-messages-mapping";
import { toOpenAIMessages } from "../../acp-server/providers/chat-completions-messages";
import { toResponsesPrompt } from "../../acp-server/providers/codex-responses-mapping";
import type { ChatMessage } from "../../acp-server/providers/types";

test("tool names: mcp_<server>_<tool>, sanitized, within 64 characters, unique", () => {
  const rule = /^[A-Za-z0-9_-]{1,64}$/;
  const table: [string, string, string][] = [
    ["everything", "echo", "mcp_everything_echo"],
    ["my server", "get.tiny/image", "mcp_my_server_get_tiny_image"],
    ["fs", "get-file-info", "mcp_fs_get-file-info"],
  ];
  for (const [server, tool, expected] of table) assert.equal(mcpToolName(server, tool), expected);
  const long = mcpToolName("a-very-long-server-name-indeed", "and_a_tool_name_that_goes_on_and_on_and_on_forever");
  assert.match(long, rule);
  assert.equal(long.length, 64);
  assert.notEqual(long, mcpToolName("a-very-long-server-name-indeed", "and_a_tool_name_that_goes_on_and_on_and_on_forever_2"));
  const taken = new Set<string>();
  assert.equal(uniqueName("mcp_a_b_c", taken), "mcp_a_b_c");
  assert.equal(uniqueName("mcp_a_b_c", taken), "mcp_a_b_c_2");
  assert.match(uniqueName(long, new Set([long])), rule);
});

test("config entries: shapes of Claude Desktop / mcp.json, ${ENV} expansion, per-entry problems, disabled ones dropped", () => {
  const env = { TOKEN: "t0k", DIR: "/data" };
  const specs = configServerSpecs(
    {
      files: { command: "npx", args: ["-y", "server-filesystem", "${DIR}"], env: { KEY: "${TOKEN}" }, require_confirmation: ["write_file"], timeout: 5 },
      web: { url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer ${TOKEN}" }, include_tools: ["search"] },
      old: { type: "sse", url: "http://127.0.0.1:9/sse" },
      off: { command: "x", enabled: false },
      bad: { command: "x", timeout: -1 },
      neither: {},
      unset: { command: "${NOPE}" },
      fallback: { command: "${NOPE:-node}" },
    },
    env,
    "/h/config.yaml",
  );
  const byName = Object.fromEntries(specs.map((spec) => [spec.name, spec]));
  assert.deepEqual(byName.files.transport, { kind: "stdio", command: "npx", args: ["-y", "server-filesystem", "/data"], env: { KEY: "t0k" } });
  assert.equal(byName.files.timeoutMs, 5_000);
  assert.deepEqual(byName.files.requireConfirmation, ["write_file"]);
  assert.deepEqual(byName.web.transport, { kind: "http", url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer t0k" } });
  assert.deepEqual(byName.web.includeTools, ["search"]);
  assert.equal(byName.web.timeoutMs, 120_000);
  assert.equal(byName.old.transport.kind, "sse");
  assert.equal(byName.off, undefined);
  assert.match(byName.bad.problem ?? "", /config\.yaml: mcp_servers\.bad\.timeout/);
  assert.match(byName.neither.problem ?? "", /needs `command` \(stdio\) or `url`/);
  assert.match(byName.unset.problem ?? "", /\$\{NOPE\} is not set/);
  assert.equal(byName.fallback.transport.kind === "stdio" && byName.fallback.transport.command, "node");
  assert.equal(expandEnv("a${X}b${Y:-z}", { X: "1" }, new Set()), "a1bz");
});

test("identity: the client wins a name clash (reported); a name twice in one request is an error", () => {
  const stdio = { kind: "stdio" as const, command: "node", args: [], env: {} };
  const shadowed: string[] = [];
  const config = configServerSpecs({ shared: { command: "other" }, mine: { command: "mine" } }, {}, "c.yaml");
  const merged = mergeServerSpecs([clientServerSpec("shared", stdio)], config, (name) => shadowed.push(name));
  assert.deepEqual(merged.map((s) => `${s.name}:${s.source}`), ["shared:client", "mine:config"]);
  assert.deepEqual(shadowed, ["shared"]);
  assert.throws(() => mergeServerSpecs([clientServerSpec("x", stdio), clientServerSpec("x", stdio)], [], () => {}), DuplicateMcpServerError);
});

test("results: text, images, resource links, embedded resources and isError", () => {
  const result = toolResultFromMcp({
    content: [
      { type: "text", text: "hello" },
      { type: "image", data: "aGk=", mimeType: "image/png" },
      { type: "resource_link", uri: "file:///a.txt", name: "a.txt", mimeType: "text/plain" },
      { type: "resource", resource: { uri: "demo://r/1", mimeType: "text/plain", text: "inside" } },
    ],
  });
  assert.equal(result.isError, undefined);
  assert.deepEqual(result.images, [{ mimeType: "image/png", data: "aGk=" }]);
  assert.match(String(result.output), /^hello\n\[image 1: image\/png, 2 bytes\]\n\[resource link: file:\/\/\/a\.txt \(a\.txt\), text\/plain\]\n\[resource demo:\/\/r\/1 \(text\/plain\)\]\ninside$/);
  assert.deepEqual(toToolCallContent(result.content!), [
    { type: "content", content: { type: "text", text: "hello" } },
    { type: "content", content: { type: "image", mimeType: "image/png", data: "aGk=" } },
    { type: "content", content: { type: "resource_link", uri: "file:///a.txt", name: "a.txt", mimeType: "text/plain" } },
    { type: "content", content: { type: "resource", resource: { uri: "demo://r/1", text: "inside", mimeType: "text/plain" } } },
  ]);
  const failed = toolResultFromMcp({ content: [{ type: "text", text: "no such file" }], isError: true });
  assert.equal(failed.isError, true);
  assert.equal(failed.output, "no such file");
  assert.equal(toolResultFromMcp({ content: [], structuredContent: { sum: 3 } }).output, '{\n  "sum": 3\n}');
});

test("tool schemas: the server's JSON schema as an object schema without $schema", () => {
  assert.deepEqual(modelSchema({ $schema: "http://json-schema.org/draft-07/schema#", type: "object", properties: { a: { type: "string" } }, required: ["a"] }), {
    type: "object",
    properties: { a: { type: "string" } },
    required: ["a"],
  });
  assert.deepEqual(modelSchema(undefined), { type: "object", properties: {} });
});

test("prompt commands: parsing, arguments by name or in order, messages to prompt parts", () => {
  assert.deepEqual(parseMcpPromptCommand("/mcp:everything:args-prompt city=Paris"), { server: "everything", prompt: "args-prompt", argument: "city=Paris" });
  assert.equal(parseMcpPromptCommand("/mcp everything"), undefined);
  const prompt = { name: "p", arguments: [{ name: "city", required: true }, { name: "state" }] };
  assert.deepEqual(promptArguments(prompt, 'city="New York" state=NY'), { args: { city: "New York", state: "NY" } });
  assert.deepEqual(promptArguments(prompt, "Paris Ile de France"), { args: { city: "Paris", state: "Ile de France" } });
  assert.deepEqual(promptArguments(prompt, ""), { missing: ["city"] });
  assert.deepEqual(
    promptMessagesToParts([
      { role: "user", content: { type: "text", text: "hi" } },
      { role: "assistant", content: { type: "text", text: "hello" } },
      { role: "user", content: { type: "image", data: "aGk=", mimeType: "image/png" } },
    ]),
    [
      { type: "text", text: "hi" },
      { type: "text", text: "[assistant] hello" },
      { type: "image", mimeType: "image/png", data: "aGk=" },
    ],
  );
});

test("tool images per API: Anthropic and Responses carry them in the tool result; Chat Completions names them and sends them after the results", () => {
  const messages: ChatMessage[] = [
    { role: "user", content: [{ type: "text", text: "look" }] },
    { role: "assistant", content: "", toolCalls: [{ id: "call_1", name: "mcp_x_img", arguments: "{}" }] },
    { role: "tool", toolCallId: "call_1", name: "mcp_x_img", content: "[image 1: image/png, 2 bytes]", images: [{ mimeType: "image/png", data: "aGk=" }] },
  ];
  const anthropic = toAnthropicConversation(messages).messages.at(-1)!;
  const block = (anthropic.content as any[])[0];
  assert.equal(block.type, "tool_result");
  assert.deepEqual(block.content, [
    { type: "text", text: "[image 1: image/png, 2 bytes]" },
    { type: "image", source: { type: "base64", media_type: "image/png", data: "aGk=" } },
  ]);
  const responses = toResponsesPrompt(messages).input.at(-1) as any;
  assert.deepEqual(responses.output, [
    { type: "input_text", text: "[image 1: image/png, 2 bytes]" },
    { type: "input_image", detail: "auto", image_url: "data:image/png;base64,aGk=" },
  ]);
  const chatMessages = toOpenAIMessages(messages) as any[];
  const chat = chatMessages.at(-2);
  assert.equal(chat.role, "tool");
  assert.match(chat.content, /The tool also returned 1 image\(s\) \(image\/png, 0 KB\); they follow/);
  // This API's tool messages take text only: the image follows the batch of results as a user turn.
  const images = chatMessages.at(-1);
  assert.equal(images.role, "user");
  assert.equal(images.content.find((part: any) => part.type === "image_url")?.image_url.url.startsWith("data:image/png;base64,"), true);
});

test("/mcp lists every server with its status and tool count", () => {
  const text = describeServers([
    { name: "everything", source: "client", transport: "stdio", status: "ready", tools: 13, prompts: 4 },
    { name: "dies", source: "config", transport: "stdio", status: "failed", error: "exit code 3", tools: 0, prompts: 0 },
  ]);
  assert.match(text, /\*\*everything\*\* \(from the editor, stdio\): ready, 13 tools, 4 prompts/);
  assert.match(text, /\*\*dies\*\* \(config\.yaml, stdio\): failed: exit code 3/);
  assert.match(describeServers([]), /No MCP servers/);
});
