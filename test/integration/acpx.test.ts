// Hermes driven by a real third-party ACP client: acpx 0.1.15 (node_modules/.bin/acpx), which
// spawns `dist/hermes.js acp` itself, serves fs/* and terminal/* for it and approves
// permissions (--approve-all). The model is the in-process scripted server.
import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, readdirSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { after, before, test, type TestContext } from "node:test";
import { stringify as toYaml } from "yaml";
import { startScriptedModel, type ScriptedModel } from "../support/scripted-model";
import { HERMES_BIN, makeTempDir, ROOT, scriptedConfig } from "../support/acp-harness";
import { waitForChangeIn } from "../support/wait";
import { followLikeABrowser, startOAuthWorld } from "../support/oauth-servers";

const ACPX = path.join(ROOT, "node_modules", ".bin", "acpx");
const AGENT_COMMAND = `${process.execPath} ${HERMES_BIN} acp`;
const TIMEOUT_MS = 60_000;

let model: ScriptedModel;
before(async () => {
  assert.ok(existsSync(HERMES_BIN), "dist/hermes.js is missing: run `npm run build` first");
  assert.ok(!/\s/.test(process.execPath + HERMES_BIN), "acpx splits --agent on whitespace: paths must not contain any");
  model = await startScriptedModel();
});
after(async () => {
  await model.close();
});

interface AcpxRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

interface Sandbox {
  /** The project acpx runs in (its cwd, and the session cwd). */
  project: string;
  /** HOME for acpx's own state (~/.acpx). */
  home: string;
  env: NodeJS.ProcessEnv;
}

/** Temp project + HOME (holding .hermes/config.yaml for the scripted model), removed after the test. */
async function sandbox(t: TestContext): Promise<Sandbox> {
  const project = await makeTempDir("hermes-acpx-project-");
  const home = await makeTempDir("hermes-acpx-home-");
  t.after(async () => {
    await rm(project, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  });
  const hermesHome = path.join(home, ".hermes");
  await mkdir(hermesHome);
  await writeFile(path.join(hermesHome, "config.yaml"), toYaml(scriptedConfig(model.url)));
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    // Hermetic: no real keys or Hermes settings, and nothing of the test runner's own wiring.
    if (value === undefined || key.startsWith("HERMES_") || key.endsWith("_API_KEY") || key.startsWith("NODE_TEST")) continue;
    env[key] = value;
  }
  Object.assign(env, { HOME: home, HERMES_HOME: hermesHome });
  return { project, home, env };
}

function acpx(box: Sandbox, args: string[]): Promise<AcpxRun> {
  return new Promise((resolve) => {
    execFile(
      ACPX,
      ["--agent", AGENT_COMMAND, "--cwd", box.project, ...args],
      { cwd: box.project, env: box.env, timeout: TIMEOUT_MS, killSignal: "SIGKILL", maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : null) : 0;
        resolve({ code, signal: error?.signal ?? null, stdout, stderr });
      },
    );
  });
}

function explain(run: AcpxRun): string {
  return `acpx exit ${run.code}${run.signal ? ` (signal ${run.signal})` : ""}\n--- stdout ---\n${run.stdout}\n--- stderr ---\n${run.stderr}`;
}

/** Every stdout line of `--format json --json-strict`, parsed (each must be JSON). */
function jsonLines(run: AcpxRun): any[] {
  return run.stdout
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      try {
        return JSON.parse(line);
      } catch {
        assert.fail(`non-JSON line on stdout under --json-strict: ${line}\n${explain(run)}`);
      }
    });
}

/** acpx's queue owner (spawned detached by `prompt`) exits once idle for --ttl; wait for it. */
async function waitForQueueOwners(home: string, timeoutMs = 15_000): Promise<void> {
  const queues = path.join(home, ".acpx", "queues");
  if (!existsSync(queues)) return;
  const locks = () => readdirSync(queues).filter((name) => name.endsWith(".lock"));
  // An owner removes its lock file as it exits.
  await waitForChangeIn(queues, () => locks().length === 0, timeoutMs, `the acpx queue owners to exit (lock files in ${queues})`).catch((error: Error) =>
    assert.fail(`acpx queue owner still running after ${timeoutMs} ms: ${error.message}`),
  );
}

test("acpx exec --format quiet: a write_file tool call runs and the final text is printed", async (t) => {
  const box = await sandbox(t);
  const before = model.requests.length;
  model.enqueue(
    { text: "Writing it.", toolCalls: [{ id: "w1", name: "write_file", arguments: { path: "notes/hello.txt", content: "hello from acpx\n" } }] },
    { text: "ACPX-OK: done" },
  );
  const run = await acpx(box, ["--approve-all", "--format", "quiet", "exec", "Create notes/hello.txt"]);
  assert.equal(run.code, 0, explain(run));
  assert.match(run.stdout, /ACPX-OK: done/, explain(run));
  assert.equal(await readFile(path.join(box.project, "notes", "hello.txt"), "utf8"), "hello from acpx\n");

  const requests = model.requests.slice(before);
  assert.equal(requests.length, 2, "one model request per step");
  const toolResult = requests[1].body.messages.find((m: any) => m.role === "tool" && m.tool_call_id === "w1");
  assert.ok(toolResult, "the write_file result went back to the model");
  assert.equal(model.pending, 0);
});

test("acpx exec --format json --json-strict: raw frames show a tool_call and an end_turn result", async (t) => {
  const box = await sandbox(t);
  await writeFile(path.join(box.project, "input.txt"), "the secret word is PELICAN\n");
  model.enqueue({ toolCalls: [{ id: "r1", name: "read_file", arguments: { path: "input.txt" } }] }, { text: "ACPX-JSON-OK: PELICAN" });
  const run = await acpx(box, ["--approve-all", "--format", "json", "--json-strict", "exec", "What is the secret word?"]);
  assert.equal(run.code, 0, explain(run));
  const frames = jsonLines(run);

  const init = frames.find((f) => f.method === undefined && f.result?.agentInfo?.name === "hermes");
  assert.ok(init, `an initialize result from hermes\n${explain(run)}`);
  // Requests of both sides share the id space: tell them apart by method vs result.
  const promptRequest = frames.find((f) => f.method === "session/prompt");
  assert.ok(promptRequest, "acpx sent session/prompt");
  const sessionId = promptRequest.params.sessionId;
  const updates = frames.filter((f) => f.method === "session/update" && f.params.sessionId === sessionId).map((f) => f.params.update);
  const toolCall = updates.find((u) => u.sessionUpdate === "tool_call" && u.toolCallId === "r1");
  assert.ok(toolCall, `a tool_call update for r1\n${explain(run)}`);
  assert.equal(toolCall.kind, "read");
  assert.ok(
    updates.some((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "r1" && u.status === "completed"),
    "the read completed",
  );
  const text = updates
    .filter((u) => u.sessionUpdate === "agent_message_chunk" && u.content.type === "text")
    .map((u) => u.content.text)
    .join("");
  assert.equal(text, "ACPX-JSON-OK: PELICAN");
  const promptResult = frames.find((f) => f.method === undefined && f.id === promptRequest.id && f.result?.stopReason !== undefined);
  assert.ok(promptResult, `a session/prompt result\n${explain(run)}`);
  assert.equal(promptResult.result.stopReason, "end_turn");
  assert.equal(frames.at(-1), promptResult, "the prompt result is the last frame");
  assert.ok(!frames.some((f) => f.error !== undefined && f.id === promptRequest.id), "the prompt did not fail");

  // The file content really reached the model (served by acpx's fs/read_text_file or locally).
  const last = model.requests.at(-1)!.body;
  const toolResult = last.messages.find((m: any) => m.role === "tool" && m.tool_call_id === "r1");
  assert.match(String(toolResult?.content), /PELICAN/);
});

test("acpx saved session: each prompt respawns the agent, which loads the session with its history", async (t) => {
  const box = await sandbox(t);
  try {
    const created = await acpx(box, ["--format", "json", "--json-strict", "sessions", "new"]);
    assert.equal(created.code, 0, explain(created));

    const before = model.requests.length;
    model.enqueue({ text: "FIRST-OK" }, { text: "SECOND-OK" });
    const first = await acpx(box, ["--ttl", "1", "--approve-all", "--format", "json", "--json-strict", "prompt", "first question"]);
    assert.equal(first.code, 0, explain(first));
    const second = await acpx(box, ["--ttl", "1", "--approve-all", "--format", "json", "--json-strict", "prompt", "second question"]);
    assert.equal(second.code, 0, explain(second));

    for (const [run, expected] of [[first, "FIRST-OK"], [second, "SECOND-OK"]] as const) {
      const frames = jsonLines(run);
      const init = frames.find((f) => f.result?.agentInfo?.name === "hermes");
      assert.ok(init, "a fresh agent process answered initialize");
      assert.equal(init.result.agentCapabilities?.loadSession, true);
      // Each prompt runs in a new agent process: the session made by `sessions new` is loaded.
      assert.ok(frames.some((f) => f.method === "session/load"), explain(run));
      assert.ok(!frames.some((f) => f.method === "session/new"), explain(run));
      const text = frames
        .filter((f) => f.method === "session/update" && f.params.update.sessionUpdate === "agent_message_chunk")
        .map((f) => f.params.update.content.text)
        .join("");
      assert.ok(text.endsWith(expected), `${text}\n${explain(run)}`);
      assert.ok(frames.some((f) => f.result?.stopReason === "end_turn"), explain(run));
    }
    // The second process's model call carries the first exchange, read back from the journal.
    const secondCall = model.requests.at(-1)!.body.messages.map((m: any) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content))).join("\n");
    assert.match(secondCall, /first question/);
    assert.match(secondCall, /FIRST-OK/);
    assert.equal(model.requests.length - before, 2);
  } finally {
    await waitForQueueOwners(box.home);
  }
});

test("acpx without a key sees auth-required; with a credential for openai-api-key it signs in, and the key is kept", async (t) => {
  const box = await sandbox(t);
  const hermesHome = box.env.HERMES_HOME!;
  await writeFile(
    path.join(hermesHome, "config.yaml"),
    toYaml({ model: { provider: "openai", name: "fake-model", base_url: model.url, api_mode: "chat_completions" }, sessions: { auto_title: false } }),
  );
  const refused = await acpx(box, ["--approve-all", "--format", "json", "--json-strict", "exec", "hello"]);
  assert.notEqual(refused.code, 0, explain(refused));
  const error = jsonLines(refused).find((f) => f.error?.code === -32000);
  assert.ok(error, `an auth-required error frame\n${explain(refused)}`);

  // acpx's convention: a credential for method "openai-api-key" goes to the agent as ACPX_AUTH_OPENAI_API_KEY,
  // and acpx calls authenticate with that method.
  model.enqueue({ text: "ACPX-SIGNED-IN" });
  const signedIn = await acpx({ ...box, env: { ...box.env, ACPX_AUTH_OPENAI_API_KEY: "sk-acpx-credential" } }, ["--approve-all", "--format", "quiet", "exec", "hello"]);
  assert.equal(signedIn.code, 0, explain(signedIn));
  assert.match(signedIn.stdout, /ACPX-SIGNED-IN/);
  // The loopback server is OpenAI at an overridden base_url: the key is stored under that endpoint's own name.
  assert.match(await readFile(path.join(hermesHome, ".env"), "utf8"), new RegExp(`^HERMES_127_0_0_1_${new URL(model.url).port}_API_KEY=sk-acpx-credential$`, "m"));

  // The next run needs no credential: the key comes from $HERMES_HOME/.env.
  model.enqueue({ text: "ACPX-STILL-IN" });
  const later = await acpx(box, ["--approve-all", "--format", "quiet", "exec", "hello again"]);
  assert.equal(later.code, 0, explain(later));
  assert.match(later.stdout, /ACPX-STILL-IN/);
  assert.equal(model.requests.at(-1)!.headers.authorization, "Bearer sk-acpx-credential");
});

test("acpx: a remote MCP server behind OAuth signs in with /mcp login (the link in the reply, the browser back on the loopback) and its tools work in the next session", async (t) => {
  const box = await sandbox(t);
  const world = await startOAuthWorld();
  t.after(() => world.close());
  await writeFile(path.join(box.env.HERMES_HOME!, "config.yaml"), toYaml(scriptedConfig(model.url, { mcp_servers: { protected: { url: world.mcpUrl } } })));
  const login = spawn(ACPX, ["--agent", AGENT_COMMAND, "--cwd", box.project, "--format", "json", "--json-strict", "exec", "/mcp login protected"], { cwd: box.project, env: box.env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  const link = await new Promise<string>((resolve, reject) => {
    login.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const found = /Open this link to sign in to \*\*protected\*\*: (http:\/\/127\.0\.0\.1:\d+\/auth\?[^\s"\\]+)/.exec(stdout)?.[1];
      if (found) resolve(found);
    });
    login.once("exit", (code) => reject(new Error(`acpx exited ${code} before the link: ${stdout}`)));
  });
  await followLikeABrowser(link);
  const [code] = (await once(login, "exit")) as [number | null];
  assert.equal(code, 0, stdout);
  assert.match(stdout, /Signed in to \*\*protected\*\*: 2 tools available\./);

  const before = model.requests.length;
  model.enqueue({ toolCalls: [{ id: "m1", name: "mcp_protected_whoami", arguments: {} }] }, { text: "ACPX-OAUTH-OK" });
  const run = await acpx(box, ["--approve-all", "--format", "quiet", "exec", "Who am I on the protected server?"]);
  assert.equal(run.code, 0, explain(run));
  assert.match(run.stdout, /ACPX-OAUTH-OK/);
  assert.match(JSON.stringify(model.requests.slice(before)), /account alice/);
});
