// A real third-party client that offers terminals but cannot sandbox them: acpx 0.1.15, which
// serves terminal/* and approves everything (--approve-all). Its HOME and the project are
// under /tmp, as on a CI runner. Commands no longer go to its terminals: Hermes runs them
// itself inside the sandbox, so an approved write outside the workspace is still blocked.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { after, before, test } from "node:test";
import { stringify as toYaml } from "yaml";
import { HERMES_BIN, makeTempDir, ROOT, scriptedConfig } from "../support/acp-harness";
import { sandboxSkip } from "../support/sandbox";
import { startScriptedModel, type ScriptedModel } from "../support/scripted-model";

const ACPX = path.join(ROOT, "node_modules", ".bin", "acpx");
const skip = sandboxSkip();

let model: ScriptedModel;
before(async () => {
  assert.ok(existsSync(HERMES_BIN), "dist/hermes.js is missing: run `npm run build` first");
  model = await startScriptedModel();
});
after(async () => {
  await model.close();
});

test("acpx offers terminals: commands run in Hermes's sandbox instead; an approved write outside the workspace is blocked", { skip }, async () => {
  const project = path.join(await makeTempDir("hermes-acpx-sandbox-"), "project");
  await mkdir(project);
  const home = await makeTempDir("hermes-acpx-sandbox-home-");
  const hermesHome = path.join(home, ".hermes");
  await mkdir(hermesHome);
  await writeFile(path.join(hermesHome, "config.yaml"), toYaml(scriptedConfig(model.url)));
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && !key.startsWith("HERMES_") && !key.endsWith("_API_KEY") && !key.startsWith("NODE_TEST")) env[key] = value;
  Object.assign(env, { HOME: home, HERMES_HOME: hermesHome });

  const line = `echo in-sandbox > made.txt; echo planted > ${home}/planted.txt; cp made.txt ../acpx-outside.txt; echo end`;
  model.enqueue({ toolCalls: [{ id: "t1", name: "terminal", arguments: { command: line } }] }, { text: "ACPX-SANDBOX-OK" });
  const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(ACPX, ["--agent", `${process.execPath} ${HERMES_BIN} acp`, "--cwd", project, "--approve-all", "--format", "json", "--json-strict", "exec", "run it"], { cwd: project, env, timeout: 60_000, killSignal: "SIGKILL", maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === "number" ? error.code : null) : 0, stdout, stderr }),
    );
  });
  const explain = `acpx exit ${run.code}\n--- stdout ---\n${run.stdout}\n--- stderr ---\n${run.stderr}`;
  assert.equal(run.code, 0, explain);
  const frames = run.stdout.split("\n").filter((text) => text.trim() !== "").map((text) => JSON.parse(text));
  assert.equal(frames.filter((frame) => frame.method === "terminal/create").length, 0, "acpx's terminals were not used");
  const streamed = frames.filter((frame) => frame.method === "session/update" && frame.params.update.sessionUpdate === "tool_call_update" && frame.params.update.toolCallId === "t1");
  assert.ok(streamed.some((frame) => JSON.stringify(frame.params.update.content ?? []).includes("end")), `the output reached the tool card\n${explain}`);

  assert.equal(await readFile(path.join(project, "made.txt"), "utf8"), "in-sandbox\n");
  assert.equal(existsSync(path.join(home, "planted.txt")), false, "the write outside the workspace was blocked");
  assert.equal(existsSync(path.join(path.dirname(project), "acpx-outside.txt")), false, "so was the copy next to the project");
  const result = model.requests.at(-1)!.body.messages.find((m: any) => m.role === "tool" && m.tool_call_id === "t1");
  assert.match(String(result?.content), /Read-only file system|Permission denied/);
});
