// `hermes -p … --output-format stream-json | json` as a script drives it: every stdout line is an
// event of the declared schema (cli/stream-json-events.ts), in order from init to result; a tool
// call, its permission decision (--allowed-tools, Claude Code's names) and its result are
// events; --disallowed-tools keeps a tool from the model; --max-turns bounds the turn; json
// prints the result alone.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { promisify } from "node:util";
import { stringify as toYaml } from "yaml";
import { StreamJsonEvent } from "../../acp-server/cli/stream-json-events";
import { HERMES_BIN, makeTempDir, scriptedConfig } from "../support/acp-harness";
import { useScriptedModel } from "../support/scripted-model";

const run = promisify(execFile);
const scripted = useScriptedModel();

async function hermes(home: string, cwd: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && !key.startsWith("HERMES_") && !key.endsWith("_API_KEY")) env[key] = value;
  try {
    const { stdout, stderr } = await run(process.execPath, [HERMES_BIN, ...args], { env: { ...env, HERMES_HOME: home }, cwd, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error: any) {
    return { code: error.code as number, stdout: error.stdout as string, stderr: error.stderr as string };
  }
}

function events(stdout: string) {
  return stdout
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const parsed = StreamJsonEvent.safeParse(JSON.parse(line));
      assert.ok(parsed.success, `not a declared event: ${line}\n${parsed.success ? "" : parsed.error.message}`);
      return parsed.data;
    });
}

test("stream-json: init, chunks, a tool call allowed by --allowed-tools Write, its result, then the result event", async () => {
  const model = scripted();
  const home = await makeTempDir("hermes-home-");
  const project = await makeTempDir("hermes-project-");
  writeFileSync(path.join(home, "config.yaml"), toYaml(scriptedConfig(model.url)));
  model.enqueue({ toolCalls: [{ name: "write_file", arguments: { path: "notes.txt", content: "hello\n" } }] }, { text: "Wrote notes.txt." });
  const answer = await hermes(home, project, ["-p", "write the notes", "--output-format", "stream-json", "--allowed-tools", "Write"]);
  assert.equal(answer.code, 0, answer.stderr);
  const all = events(answer.stdout);
  assert.equal(all[0]?.type, "system");
  assert.equal(all.at(-1)?.type, "result");
  const sessionIds = new Set(all.map((event) => event.session_id));
  assert.equal(sessionIds.size, 1, "every event names the one session");
  const call = all.find((event) => event.type === "tool_call");
  assert.ok(call && call.type === "tool_call");
  const permission = all.find((event) => event.type === "permission");
  assert.deepEqual(permission && { tool: permission.type === "permission" && permission.tool, decision: permission.type === "permission" && permission.decision, by: permission.type === "permission" && permission.by }, { tool: "write_file", decision: "allowed", by: "allowed_tools" });
  assert.ok(all.some((event) => event.type === "tool_call_update" && event.tool_call_id === call.tool_call_id && event.status === "completed"));
  const result = all.at(-1)!;
  assert.ok(result.type === "result" && result.subtype === "success" && !result.is_error && /Wrote notes\.txt\./.test(result.result));
  assert.equal(readFileSync(path.join(project, "notes.txt"), "utf8"), "hello\n");
});

test("json: only the result object; an edit not allowed is refused without asking; --disallowed-tools keeps the tool from the model", async () => {
  const model = scripted();
  const home = await makeTempDir("hermes-home-");
  const project = await makeTempDir("hermes-project-");
  mkdirSync(path.join(project, "src"));
  writeFileSync(path.join(home, "config.yaml"), toYaml(scriptedConfig(model.url)));
  model.enqueue({ toolCalls: [{ name: "write_file", arguments: { path: "x.txt", content: "x" } }] }, { text: "Could not write." });
  const refused = await hermes(home, project, ["-p", "write x", "--output-format", "json", "--disallowed-tools", "Bash,web"]);
  assert.equal(refused.code, 0, refused.stderr);
  const lines = refused.stdout.trim().split("\n");
  assert.equal(lines.length, 1, refused.stdout);
  const [result] = events(lines[0]!);
  assert.ok(result?.type === "result" && result.subtype === "success" && /Could not write/.test(result.result));
  const tools = (model.requests.at(-2)!.body.tools as { function: { name: string } }[]).map((tool) => tool.function.name);
  assert.ok(!tools.includes("terminal") && !tools.includes("web_fetch") && tools.includes("read_file"), tools.join(", "));
  assert.match(JSON.stringify(model.requests.at(-1)!.body.messages), /denied|refused|not allowed/i);

  const unknown = await hermes(home, project, ["-p", "hi", "--output-format", "json", "--disallowed-tools", "no_such_tool"]);
  assert.equal(unknown.code, 1);
  const [failed] = events(unknown.stdout.trim());
  assert.ok(failed?.type === "result" && failed.is_error && /no tool or toolset named no_such_tool/.test(failed.error ?? ""), unknown.stdout);
});

test("--max-turns bounds the turn's model calls with tools", async () => {
  const model = scripted();
  const home = await makeTempDir("hermes-home-");
  const project = await makeTempDir("hermes-project-");
  writeFileSync(path.join(home, "config.yaml"), toYaml(scriptedConfig(model.url)));
  writeFileSync(path.join(project, "a.txt"), "a\n");
  const read = { toolCalls: [{ name: "read_file", arguments: { path: "a.txt" } }] };
  model.enqueue(read, read, read, read, { text: "Done reading." });
  const before = model.requests.length;
  // --json is --output-format json, as every command takes --json.
  const answer = await hermes(home, project, ["-p", "read a lot", "--json", "--max-turns", "2"]);
  assert.equal(answer.code, 0, answer.stderr);
  const [result] = events(answer.stdout.trim());
  assert.ok(result?.type === "result", answer.stdout);
  assert.ok(model.requests.length - before <= 3, `${model.requests.length - before} model calls for --max-turns 2`);
});
