// `hermes` as scripts drive it: every subcommand answers --help, a closed pipe ends a command
// quietly, `hermes -p` runs one turn (the prompt as words or on stdin), and --continue / --resume
// take a prompt to run one turn in an earlier session.
import assert from "node:assert/strict";
import { once } from "node:events";
import { execFileSync, spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
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

const SUBCOMMANDS = ["acp", "chat", "setup", "logout", "doctor", "sessions", "skills", "hooks", "plugins", "mcp", "worktrees", "model", "config", "logs"];

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

test("hermes -p -w: one turn in a new worktree, the checkout untouched; worktrees list names it; deleting the chat with work keeps it, prune --force removes it", async () => {
  const model = scripted();
  const home = await makeTempDir("hermes-home-");
  writeFileSync(path.join(home, "config.yaml"), toYaml(scriptedConfig(model.url)));
  const repo = await makeTempDir("hermes-wt-cli-");
  const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, encoding: "utf8", env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" } });
  git("init", "-q", "-b", "main");
  writeFileSync(path.join(repo, "readme.md"), "# demo\n");
  git("add", ".");
  git("commit", "-q", "-m", "start");

  model.enqueue({ toolCalls: [{ name: "write_file", arguments: { path: "notes.md", content: "from the worktree\n" } }] }, { text: "WT-OK" });
  const run = await hermes(home, ["-p", "write notes", "-w", "--branch", "try/notes", "--yes"], { cwd: repo });
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /WT-OK/);
  assert.ok(!existsSync(path.join(repo, "notes.md")), "the checkout is untouched");
  assert.match(git("worktree", "list"), /\[try\/notes\]/);

  const listed = JSON.parse((await hermes(home, ["worktrees", "list", "--json"])).stdout) as { folder: string; branch: string; session: boolean; unapplied: boolean }[];
  assert.equal(listed.length, 1);
  assert.deepEqual([listed[0]!.branch, listed[0]!.session, listed[0]!.unapplied], ["try/notes", true, true]);
  assert.equal(readFileSync(path.join(listed[0]!.folder, "notes.md"), "utf8"), "from the worktree\n");

  const sessions = JSON.parse((await hermes(home, ["sessions", "list", "--json", "--cwd", repo])).stdout) as { sessionId?: string; id?: string }[];
  const id = sessions[0]!.sessionId ?? sessions[0]!.id!;
  assert.equal((await hermes(home, ["sessions", "delete", id])).code, 0);
  assert.ok(existsSync(listed[0]!.folder), "work never applied is kept");
  const kept = await hermes(home, ["worktrees", "prune"]);
  assert.match(kept.stdout, /kept .*its branch try\/notes has work that was never applied/);
  const forced = await hermes(home, ["worktrees", "prune", "--force"]);
  assert.match(forced.stdout, /removed .* \(branch try\/notes\)/);
  assert.ok(!existsSync(listed[0]!.folder));
  assert.doesNotMatch(git("branch", "--list"), /try\/notes/);
});
