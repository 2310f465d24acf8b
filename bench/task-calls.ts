// Model calls and input tokens for one multi-step task, with execute_code allowed and without.
// The task: survey 30 files for a pattern, read the 10 that match, write a summary file. The
// scripted model plays each strategy as a capable model would: without execute_code, a search,
// then the 10 reads in one parallel batch, then the write, then the answer (every call resends
// the grown conversation); with it, one program that does all of it and prints a short report,
// then the answer. Input tokens are counted from each request as sent (messages and tool
// schemas, ~4 characters a token), so the fixed cost of the tools is in both figures.
// Target: with execute_code <= 3 model calls and >= 60% fewer input tokens.
//   node --import tsx bench/task-calls.ts
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { startScriptedModel, type ScriptedModel, type ScriptedReply } from "../test/support/scripted-model";
import { benchEnv, type BenchRow, ensureBuilt, fmt, INITIALIZE_PARAMS, LineClient, makeHome, makeTempDir, modelConfig, reportRows } from "./lib";

const FILES = 30;
const MATCHING = 10;
const MAX_CALLS = 3;
const MIN_SAVING = 0.6;

/** 30 modules of ~3 KB; every third one holds a `deprecated(` call the task looks for. */
function writeProject(dir: string): void {
  for (let i = 0; i < FILES; i++) {
    const lines = [`// module ${i}: request handlers`];
    for (let line = 0; line < 70; line++) lines.push(`export function handler${i}_${line}(input: string): string { return input.trim() + "${i}-${line}"; }`);
    if (i % 3 === 0) lines.splice(35, 0, `export const legacy${i} = deprecated("handler${i}_old", { until: "v${i % 7}.0" });`);
    writeFileSync(path.join(dir, `module${String(i).padStart(2, "0")}.ts`), `${lines.join("\n")}\n`);
  }
}

const matching = Array.from({ length: FILES }, (_, i) => i).filter((i) => i % 3 === 0).map((i) => `module${String(i).padStart(2, "0")}.ts`);

const SUMMARY = matching.map((file, n) => `- ${file}: deprecated handler (until v${(n * 3) % 7}.0)`).join("\n");

/** Without execute_code: search, read the matches in one batch, write, answer. */
function stepwise(): ScriptedReply[] {
  return [
    { text: "Searching for deprecated calls.", toolCalls: [{ id: "s", name: "search_files", arguments: { pattern: "deprecated\\(", target: "content" } }] },
    { text: "Reading the matching files.", toolCalls: matching.map((file, n) => ({ id: `r${n}`, name: "read_file", arguments: { path: file } })) },
    { toolCalls: [{ id: "w", name: "write_file", arguments: { path: "DEPRECATIONS.md", content: `# Deprecations\n\n${SUMMARY}\n` } }] },
    { text: `Wrote DEPRECATIONS.md: ${MATCHING} modules use deprecated().` },
  ];
}

const PROGRAM = `
import re
from hermes_tools import search_files, read_file, write_file
files = sorted({m["path"] for m in search_files(pattern=r"deprecated\\(")["matches"]})
lines = []
for name in files:
    text = read_file(path=name, limit=2000)["content"]
    found = re.search(r'deprecated\\("(\\w+)", \\{ until: "([^"]+)"', text)
    lines.append(f"- {name}: {found.group(1) if found else '?'} (until {found.group(2) if found else '?'})")
write_file(path="DEPRECATIONS.md", content="# Deprecations\\n\\n" + "\\n".join(lines) + "\\n")
print(len(files), "files use deprecated():")
print("\\n".join(lines))
`;

/** With execute_code: one program, then the answer. */
function scripted(): ScriptedReply[] {
  return [
    { text: "One program: search, read the matches, write the summary.", toolCalls: [{ id: "p", name: "execute_code", arguments: { code: PROGRAM, language: "python" } }] },
    { text: `Wrote DEPRECATIONS.md: ${MATCHING} modules use deprecated().` },
  ];
}

interface Figures {
  calls: number;
  inputTokens: number;
  summaryLines: number;
}

async function runTask(model: ScriptedModel, replies: ScriptedReply[], extraConfig: Record<string, unknown>): Promise<Figures> {
  const project = makeTempDir("hermes-bench-task-");
  writeProject(project);
  // dont_ask: nothing waits for a person; the sandboxed program and in-workspace edits run, as they would for a user who allowed them.
  const { home, cleanup } = makeHome(modelConfig(model.url, { learning: { review: "off", curator: "off", session_hint: false }, agent: { default_mode: "dont_ask" }, ...extraConfig }));
  const client = new LineClient(benchEnv({ HERMES_HOME: home }), project);
  const before = model.requests.length;
  try {
    await client.request("initialize", INITIALIZE_PARAMS);
    const { sessionId } = await client.request("session/new", { cwd: project, mcpServers: [] });
    model.enqueue(...replies);
    const result = await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "Find every module that calls deprecated(, and write a summary of them to DEPRECATIONS.md." }] });
    if (result.stopReason !== "end_turn") throw new Error(`the task ended with ${result.stopReason}`);
    const summary = readFileSync(path.join(project, "DEPRECATIONS.md"), "utf8");
    const requests = model.requests.slice(before);
    const inputTokens = requests.reduce((sum, r) => sum + Math.ceil(JSON.stringify({ messages: r.body?.messages, tools: r.body?.tools }).length / 4), 0);
    return { calls: requests.length, inputTokens, summaryLines: summary.split("\n").filter((l) => l.startsWith("- ")).length };
  } finally {
    await client.close();
    cleanup();
    rmSync(project, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  ensureBuilt();
  const model = await startScriptedModel();
  try {
    const without = await runTask(model, stepwise(), { tools: { disabled: ["execute_code"] } });
    const withCode = await runTask(model, scripted(), {});
    for (const [name, f] of [["without execute_code", without], ["with execute_code", withCode]] as const) {
      if (f.summaryLines !== MATCHING) throw new Error(`${name}: the summary lists ${f.summaryLines} modules, not ${MATCHING}`);
    }
    const saving = 1 - withCode.inputTokens / without.inputTokens;
    const out = (line: string) => process.stdout.write(`${line}\n`);
    out(`task-calls: survey ${FILES} files, read the ${MATCHING} that match, write a summary`);
    out(`task-calls: without execute_code: ${without.calls} model calls, ${without.inputTokens} input tokens`);
    out(`task-calls: with execute_code:    ${withCode.calls} model calls, ${withCode.inputTokens} input tokens (${fmt(saving * 100)}% fewer; targets <= ${MAX_CALLS} calls, >= ${MIN_SAVING * 100}% fewer)`);
    const rows: BenchRow[] = [
      { metric: "task-calls: model calls with execute_code", value: String(withCode.calls), target: `<= ${MAX_CALLS}`, ok: withCode.calls <= MAX_CALLS },
      { metric: "task-calls: input tokens saved by execute_code", value: `${fmt(saving * 100)}%`, target: `>= ${MIN_SAVING * 100}%`, ok: saving >= MIN_SAVING },
      { metric: "task-calls: calls / input tokens without", value: `${without.calls} / ${without.inputTokens}`, target: "" },
    ];
    reportRows("task-calls", rows);
  } finally {
    await model.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});
