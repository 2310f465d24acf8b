// `hermes` as scripts drive it: every subcommand answers --help, a closed pipe ends a command
// quietly, `hermes -p` runs one turn (the prompt as words or on stdin), and --continue / --resume
// take a prompt to run one turn in an earlier session.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { stripVTControlCharacters } from "node:util";
import { stringify as toYaml } from "yaml";
import { useScriptedModel } from "../support/scripted-model";
import { HERMES_BIN, makeTempDir, scriptedConfig } from "../support/acp-harness";

const scripted = useScriptedModel();

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built hermes on `home`, with `input` on stdin (closed after), or with stdout closed at once. */
async function hermes(home: string, args: string[], options: { input?: string; closeStdout?: boolean; cwd?: string } = {}): Promise<Run> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && !key.startsWith("HERMES_") && !key.endsWith("_API_KEY")) env[key] = value;
  const child = spawn(process.execPath, [HERMES_BIN, ...args], { env: { ...env, HERMES_HOME: home }, cwd: options.cwd, stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += String(chunk)));
  if (options.closeStdout) child.stdout.destroy();
  else child.stdout.on("data", (chunk) => (stdout += String(chunk)));
  child.stdin.end(options.input ?? "");
  const [code] = (await once(child, "exit")) as [number | null];
  return { code, stdout, stderr };
}

const SUBCOMMANDS = ["acp", "chat", "setup", "logout", "doctor", "sessions", "skills", "hooks", "plugins", "model", "config", "logs"];

test("every subcommand answers --help with its own usage, exit 0", async () => {
  const home = await makeTempDir("hermes-home-");
  for (const command of SUBCOMMANDS) {
    const answer = await hermes(home, [command, "--help"]);
    assert.equal(answer.code, 0, `${command} --help: ${answer.stderr}`);
    assert.match(answer.stdout, new RegExp(`^Usage:\\n {2}hermes ${command}\\b`), `${command} --help:\n${answer.stdout}`);
    const others = answer.stdout.split("\n").filter((line) => line.startsWith("  hermes ") && !line.startsWith(`  hermes ${command}`));
    assert.deepEqual(others, [], `${command} --help shows only its own part`);
  }
});

test("a closed stdout ends a command quietly: no EPIPE stack trace", async () => {
  const home = await makeTempDir("hermes-home-");
  for (const args of [["--help"], ["config", "get", "--json"], ["sessions", "list", "--all"]]) {
    const answer = await hermes(home, args, { closeStdout: true });
    assert.doesNotMatch(answer.stderr, /EPIPE|Error:|at /, `${args.join(" ")}: ${answer.stderr}`);
    assert.ok(answer.code === 0 || answer.code === 1, `${args.join(" ")} exited ${answer.code}`);
  }
});

test("hermes -p runs one turn (prompt as words or on stdin); --continue and --resume take a prompt for one turn in an earlier session", async () => {
  const model = scripted();
  const home = await makeTempDir("hermes-home-");
  const project = await makeTempDir("hermes-project-");
  writeFileSync(path.join(home, "config.yaml"), toYaml(scriptedConfig(model.url)));

  model.enqueue({ text: "First answer." });
  const first = await hermes(home, ["-p", "remember the word pelican"], { cwd: project });
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stdout, /First answer\./);

  model.enqueue({ text: "From stdin." });
  const piped = await hermes(home, ["-p"], { cwd: project, input: "a prompt from a pipe\n" });
  assert.equal(piped.code, 0, piped.stderr);
  assert.match(JSON.stringify(model.requests.at(-1)!.body.messages), /a prompt from a pipe/);

  model.enqueue({ text: "Continued." });
  const continued = await hermes(home, ["chat", "--continue", "what word?"], { cwd: project });
  assert.equal(continued.code, 0, continued.stderr);
  const messages = JSON.stringify(model.requests.at(-1)!.body.messages);
  assert.match(messages, /a prompt from a pipe/, "the last session's history came along");
  assert.match(messages, /what word\?/);

  const missing = await hermes(home, ["chat", "--resume", "no-such-session", "hello"], { cwd: project });
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /cannot start a session/);
});

test("in a terminal (a real pty through script(1)) the reply is rendered markdown; through a pipe it is the model's text as is", async () => {
  const model = scripted();
  const home = await makeTempDir("hermes-home-");
  const project = await makeTempDir("hermes-project-");
  writeFileSync(path.join(home, "config.yaml"), toYaml(scriptedConfig(model.url)));
  const reply = "# Result\n\nAll **tests** pass.\n\n```js\nconst ok = true;\n```\n";

  model.enqueue({ text: reply });
  const piped = await hermes(home, ["-p", "report"], { cwd: project });
  assert.equal(piped.code, 0, piped.stderr);
  assert.equal(piped.stdout.trim(), reply.trim(), "a pipe gets the text unchanged");

  model.enqueue({ text: reply });
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && !key.startsWith("HERMES_") && !key.endsWith("_API_KEY")) env[key] = value;
  const quoted = [process.execPath, HERMES_BIN, "-p", "report"].map((word) => `'${word}'`).join(" ");
  const child = spawn("script", ["-qfec", quoted, "/dev/null"], { cwd: project, env: { ...env, HERMES_HOME: home, COLUMNS: "80", TERM: "xterm-256color" }, stdio: ["pipe", "pipe", "pipe"] });
  let screen = "";
  child.stdout.on("data", (chunk) => (screen += String(chunk)));
  child.stdin.end();
  const [code] = (await once(child, "exit")) as [number | null];
  assert.equal(code, 0, screen);
  const text = stripVTControlCharacters(screen).replace(/\r/g, "");
  assert.match(text, /Result/);
  assert.doesNotMatch(text, /# Result|\*\*tests\*\*|```/, `rendered, not raw:\n${text}`);
  assert.match(text, /All tests pass\./);
  assert.match(text, /const ok = true;/);
  assert.notEqual(stripVTControlCharacters(screen), screen, "with colour on a terminal");
});
