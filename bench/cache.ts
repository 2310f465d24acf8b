// Prompt caching: a 30-turn tool-using session against the scripted Anthropic server, whose
// cache model follows Anthropic's rule (a cached prefix is hit at a block boundary up to 20
// blocks before a breakpoint). Every fifth turn also writes a memory entry, which must not
// touch the frozen system prompt. Reports the share of input tokens read from cache.
// Target: >= 90%.
//   node --import tsx bench/cache.ts      (BENCH_TURNS=30)
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { startScriptedAnthropic } from "../test/support/scripted-anthropic";
import { benchEnv, type BenchRow, ensureBuilt, fmt, INITIALIZE_PARAMS, intFromEnv, LineClient, makeHome, makeTempDir, reportRows } from "./lib";

const TARGET_SHARE = 0.9;

async function main(): Promise<void> {
  ensureBuilt();
  const turns = intFromEnv("BENCH_TURNS", 30);
  const anthropic = await startScriptedAnthropic();
  const project = makeTempDir("hermes-bench-project-");
  for (let i = 0; i < 5; i++) writeFileSync(path.join(project, `module${i}.ts`), `export const value${i} = ${i};\n`.repeat(40));
  const { home, cleanup } = makeHome({
    model: { provider: "anthropic", name: "claude-sonnet-4-5", base_url: anthropic.url, api_key: "sk-ant-bench" },
    agent: { max_turns: 20 },
    sessions: { auto_title: false },
  });
  const client = new LineClient(benchEnv({ HERMES_HOME: home }), project);
  try {
    await client.request("initialize", INITIALIZE_PARAMS);
    const { sessionId } = await client.request("session/new", { cwd: project, mcpServers: [] });
    for (let turn = 0; turn < turns; turn++) {
      // Each turn: read a file, search (or save a memory), then answer — three model calls over a growing history.
      const remember = turn % 5 === 2;
      anthropic.enqueue(
        { text: `Turn ${turn}: reading.`, toolCalls: [{ name: "read_file", input: { path: `module${turn % 5}.ts` } }] },
        remember
          ? { toolCalls: [{ name: "memory", input: { action: "add", target: "memory", content: `module${turn % 5}.ts defines value${turn % 5} (turn ${turn})` } }] }
          : { toolCalls: [{ name: "search_files", input: { pattern: `value${turn % 5}`, target: "content" } }] },
        { text: `Turn ${turn} done: module${turn % 5} defines value${turn % 5}.` },
      );
      const result = await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: `Question ${turn}: what does module${turn % 5}.ts define?` }] });
      if (result.stopReason !== "end_turn") throw new Error(`turn ${turn} ended with ${result.stopReason}`);
    }
    // The memory writes must have landed, or the figure would not cover them.
    const memory = readFileSync(path.join(home, "memories", "MEMORY.md"), "utf8");
    const saved = memory.split("\n§\n").filter((entry) => entry.includes("defines value")).length;
    if (saved !== Math.ceil((turns - 2) / 5)) throw new Error(`expected ${Math.ceil((turns - 2) / 5)} memory entries, found ${saved}`);
    const totals = anthropic.cache.totals;
    const share = anthropic.cache.readShare;
    const out = (line: string) => process.stdout.write(`${line}\n`);
    out(`cache: ${turns} turns, ${totals.requests} model calls, ${totals.promptTokens} input tokens, ${saved} memory writes`);
    out(`cache: read from cache ${totals.cacheReadTokens} (${fmt(share * 100)}%), written ${totals.cacheWriteTokens}, uncached ${totals.uncachedTokens} (target read share >= ${TARGET_SHARE * 100}%)`);
    const rows: BenchRow[] = [
      { metric: `cache: input read from cache (${turns} turns, memory writes)`, value: `${fmt(share * 100)}%`, target: `>= ${TARGET_SHARE * 100}%`, ok: share >= TARGET_SHARE },
      { metric: "cache: model calls / input tokens", value: `${totals.requests} / ${totals.promptTokens}`, target: "" },
    ];
    reportRows("cache", rows);
  } finally {
    await client.close();
    await anthropic.close();
    cleanup();
    rmSync(project, { recursive: true, force: true });
  }
}

await main();
