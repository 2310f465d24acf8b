// The fixed cost of every model call: the first request's system prompt plus tool schemas, in
// characters and estimated tokens (~4 characters a token, as bench/task-calls.ts counts), in
// three configurations: the default; every built-in toolset on (browser and web search too);
// the default plus three MCP servers with 60 tools in all. The biggest parts are listed so a
// change shows where it went. Targets: <= 5.5k tokens default, <= 6.5k everything on, MCP
// servers add <= 1k.
//   node --import tsx bench/tokens.ts
import path from "node:path";
import { startScriptedModel, type ScriptedModel } from "../test/support/scripted-model";
import { benchEnv, type BenchRow, ensureBuilt, INITIALIZE_PARAMS, LineClient, makeHome, makeTempDir, modelConfig, reportRows, ROOT } from "./lib";

const TARGET_DEFAULT = 5_500;
const TARGET_ALL_ON = 6_500;
const TARGET_MCP_ADDS = 1_000;

const MANY_TOOLS = path.join(ROOT, "test/fixtures/mcp/many-tools-server.mjs");
const MCP_SERVERS = Object.fromEntries(
  [
    ["tracker", 25],
    ["ci", 20],
    ["docs", 15],
  ].map(([domain, count]) => [domain, { command: process.execPath, args: [MANY_TOOLS, String(domain), String(count)] }]),
);

interface Cost {
  systemChars: number;
  toolsChars: number;
  tools: { name: string; chars: number }[];
  /** The system prompt's blocks (paragraphs, or a heading's section), named by how they begin. */
  systemParts: { name: string; chars: number }[];
}

/** Splits the system prompt into sections at its headings (and at paragraphs before the first). */
function systemParts(system: string): { name: string; chars: number }[] {
  const parts: { name: string; chars: number }[] = [];
  for (const block of system.split(/\n\n(?=# |[A-Z][^\n]{0,60}:)|\n\n(?!\s)/)) {
    const head = block.trim().split("\n")[0]!.slice(0, 40);
    parts.push({ name: JSON.stringify(head), chars: block.length + 2 });
  }
  return parts;
}

const tokens = (chars: number) => Math.ceil(chars / 4);

async function firstRequest(model: ScriptedModel, extra: Record<string, unknown>): Promise<Cost> {
  const project = makeTempDir("hermes-bench-tokens-");
  const { home, cleanup } = makeHome(modelConfig(model.url, { learning: { review: "off", curator: "off", session_hint: false }, mcp: { connect_wait: 30 }, ...extra }));
  const client = new LineClient(benchEnv({ HERMES_HOME: home }), project);
  const before = model.requests.length;
  try {
    await client.request("initialize", INITIALIZE_PARAMS);
    const { sessionId } = await client.request("session/new", { cwd: project, mcpServers: [] });
    model.enqueue({ text: "ok" });
    await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hi" }] });
    const body = model.requests[before]!.body as { messages: { role: string; content: unknown }[]; tools?: { function: { name: string } }[] };
    const systemMessages = body.messages.filter((message) => message.role === "system");
    const system = systemMessages.map((message) => JSON.stringify(message.content)).join("");
    const systemText = systemMessages.map((message) => (typeof message.content === "string" ? message.content : JSON.stringify(message.content))).join("\n\n");
    const tools = (body.tools ?? []).map((tool) => ({ name: tool.function.name, chars: JSON.stringify(tool).length }));
    return { systemChars: system.length, toolsChars: JSON.stringify(body.tools ?? []).length, tools, systemParts: systemParts(systemText) };
  } finally {
    await client.close();
    cleanup();
  }
}

function describe(label: string, cost: Cost): void {
  const total = cost.systemChars + cost.toolsChars;
  process.stdout.write(`tokens: ${label}: ${total} chars ~ ${tokens(total)} tokens (system prompt ${tokens(cost.systemChars)}, ${cost.tools.length} tools ${tokens(cost.toolsChars)})\n`);
  const biggest = [...cost.tools].sort((a, b) => b.chars - a.chars).slice(0, 8);
  process.stdout.write(`tokens:   biggest tools: ${biggest.map((tool) => `${tool.name} ${tokens(tool.chars)}`).join(", ")}\n`);
  const parts = [...cost.systemParts].sort((a, b) => b.chars - a.chars).slice(0, 6);
  process.stdout.write(`tokens:   biggest system prompt parts: ${parts.map((part) => `${part.name} ${tokens(part.chars)}`).join(", ")}\n`);
}

async function main(): Promise<void> {
  ensureBuilt();
  const model = await startScriptedModel();
  try {
    const defaults = await firstRequest(model, {});
    const allOn = await firstRequest(model, { tools: { enabled: ["browser"] }, web: { search: { backend: "searxng", url: "http://127.0.0.1:9/" } } });
    const withMcp = await firstRequest(model, { mcp_servers: MCP_SERVERS });
    describe("default", defaults);
    describe("every built-in toolset on", allOn);
    describe("default + 3 MCP servers (60 tools)", withMcp);
    const total = (cost: Cost) => tokens(cost.systemChars + cost.toolsChars);
    const mcpAdds = total(withMcp) - total(defaults);
    const rows: BenchRow[] = [
      { metric: "tokens: fixed cost, default", value: String(total(defaults)), target: `<= ${TARGET_DEFAULT}`, ok: total(defaults) <= TARGET_DEFAULT },
      { metric: "tokens: fixed cost, every toolset on", value: String(total(allOn)), target: `<= ${TARGET_ALL_ON}`, ok: total(allOn) <= TARGET_ALL_ON },
      { metric: "tokens: added by 3 MCP servers (60 tools)", value: String(mcpAdds), target: `<= ${TARGET_MCP_ADDS}`, ok: mcpAdds <= TARGET_MCP_ADDS },
    ];
    reportRows("tokens", rows);
  } finally {
    await model.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});
