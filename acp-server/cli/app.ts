// The `hermes` command line, loaded by the lean entry (main.ts) as dist/chunks/app.mjs: every
// command, and `hermes acp` once its initialize is answered. Each command is imported when
// chosen, so serving loads only what serving needs.
import { readFileSync } from "node:fs";
import path from "node:path";
import { VERSION } from "../version";
import type { ChatOptions } from "./chat-command";
import { isDirectory } from "../util/path-kind";

export { runAcpServer } from "./acp-command";

const HELP = `hermes ${VERSION}: a self-improving coding agent for editors (Agent Client Protocol)

Usage:
  hermes acp                 Serve ACP on stdin/stdout (for Zed, JetBrains, VS Code, acpx, ...)
  hermes acp --check         Print the resolved model and configuration and probe the model
                             endpoint (--offline skips the probe); exit 1 if unusable
  hermes chat [options]      Chat in this terminal (multi-turn; /help for commands, Ctrl-D quits);
                             a bare \`hermes\` on a terminal does the same
  hermes chat [options] "prompt..."
                             Run one turn and stream the reply (one-shot, for scripts); also
                             \`hermes -p "prompt"\`, and -p alone reads the prompt from stdin
      -c, --continue         Resume the last session in this folder (with a prompt: one turn in it)
      --resume ID            Resume a session (with a prompt: one turn in it)
      --output-format F      One turn's output: text (default), json (one result object at the
                             end) or stream-json (one JSON event per line; docs/cli.md)
      --json                 The same as --output-format json
      --allowed-tools T      Answer these tools' permission questions with yes (Hermes or Claude
                             Code names: "Read,Bash" or "read_file,terminal")
      --disallowed-tools T   Switch these tools (or toolsets) off for the session
      --max-turns N          At most N model calls with tools per turn (agent.max_turns)
      --take-over            Own a resumed session another Hermes process (an editor) has open
      -w, --worktree         A new chat in its own git worktree (its own branch; your checkout is
                             untouched until /worktree apply); --branch NAME names the branch
      --cwd DIR              Working directory (default: the current one)
      -y, --yes              Allow every edit without asking
  hermes setup               Choose provider, key and model (or a running Ollama / LM Studio),
                             make one test call, save config.yaml and .env (key: mode 600)
      --provider P --model M [--api-key-env VAR | --api-key KEY] [--base-url URL]
                             Without questions, for scripts (--no-test skips the test call;
                             --json also prints what was saved as one JSON object)
  hermes logout [--provider P]
                             Remove the API keys stored in $HERMES_HOME/.env (all, or one
                             provider's) and name any key that still comes from elsewhere
  hermes doctor [--json] [--offline]
                             Check the config, key (one real minimal call), endpoint, git,
                             ripgrep, sandbox, Node, HERMES_HOME, session index and MCP servers;
                             print the fix for each problem; exit 1 if any check fails
  hermes sessions [list|show ID|export ID|delete ID|search WORDS]
                             Sessions of this folder (--all: every folder; --cwd DIR; --limit N;
                             export --format markdown|json)
  hermes skills [list|show NAME]
                             The skills a session here gets
  hermes hooks [list|test EVENT]
                             The hooks a session here runs; test EVENT runs the matching ones on
                             the JSON they would receive (--tool NAME --input JSON, --prompt TEXT)
  hermes worktrees [list|prune [--force]]
                             The chats' git worktrees (hermes chat -w, the panel's "New chat in a
                             worktree"); prune removes those whose chat was deleted, keeping any
                             with unapplied work unless --force
  hermes mcp [list|login NAME|logout NAME]
                             MCP servers in config.yaml and their sign-in; login signs in to a
                             remote server with OAuth (opens the browser, waits for it to come
                             back); logout deletes the stored tokens
  hermes plugins [list|install SOURCE|install --project|enable NAME|disable NAME|remove NAME]
                             Plugins in Claude Code's layout (commands, agents, skills, hooks,
                             MCP servers); SOURCE is a folder, a git URL or an npm package
                             (install asks first; --yes for scripts); --project installs what
                             this project's .hermes/plugins.json wants
  hermes model [list|set NAME]
                             The model in use; list adds the endpoint's models; set writes model.name
                             (provider/name switches the provider too)
  hermes config get [KEY] | set KEY VALUE | path
                             Dotted keys (agent.max_turns); set is checked against the schema
  hermes logs [--lines N] [--path]
                             The end of the newest log in $HERMES_HOME/logs
                             All of these take --json for scripts.
  hermes --version           Print the version
  hermes --help              Show this help

Exit codes: 0 done, 1 the turn or command failed, 2 a usage or configuration error, 130 interrupted.

Configuration: $HERMES_HOME/config.yaml and $HERMES_HOME/.env (HERMES_HOME defaults to ~/.hermes).
Environment overrides: HERMES_PROVIDER, HERMES_MODEL, HERMES_BASE_URL, HERMES_API_KEY.
`;

/** The lines of HELP about `command` (its usage line and the indented lines under it), or undefined. */
export function commandHelp(command: string): string | undefined {
  const lines = HELP.split("\n");
  const start = lines.findIndex((line) => line.startsWith(`  hermes ${command} `) || line === `  hermes ${command}`);
  if (start < 0) return undefined;
  const section = [lines[start]!];
  for (const line of lines.slice(start + 1)) {
    // The next command's block starts another `  hermes` line; the shared note closes the list.
    if (/^ {2}hermes /.test(line) && !line.startsWith(`  hermes ${command} `) && !line.startsWith(`  hermes ${command}\n`)) break;
    if (!line.trim() || /All of these take --json/.test(line)) break;
    section.push(line);
  }
  return `Usage:\n${section.join("\n")}\n`;
}

/** Writing to a closed pipe (`hermes sessions list | head -1`) ends the command quietly, as other tools do. */
function quietOnClosedPipe(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EPIPE") process.exit(0);
      throw error;
    });
  }
}

/** Runs one command line (everything but a bare `hermes acp`, which main.ts serves). */
export async function runCli(argv: string[]): Promise<void> {
  quietOnClosedPipe();
  let [command, ...rest] = argv;
  // `hermes -p "prompt"` is one turn of chat, as `claude -p` is; `hermes` alone opens the chat on a terminal.
  if (command === "-p" || command === "--print") [command, rest] = ["chat", argv];
  else if (command === undefined && process.stdin.isTTY) [command, rest] = ["chat", []];
  // `hermes <command> --help`: that command's part of the help.
  if (command && command !== "--help" && command !== "-h" && command !== "help" && (rest.includes("--help") || rest.includes("-h"))) {
    const help = commandHelp(command);
    if (help) {
      process.stdout.write(help);
      return;
    }
  }
  switch (command) {
    case "acp":
      // An editor's terminal sign-in runs its Hermes command plus the advertised args: `hermes acp --setup`.
      if (rest[0] === "--setup") return runSetupCommand(rest.slice(1));
      if (rest.some((arg) => arg !== "--check" && arg !== "--offline")) return usageError(`unknown option for acp: ${rest.join(" ")}`);
      if (rest.includes("--offline") && !rest.includes("--check")) return usageError("--offline goes with --check: hermes acp --check --offline");
      if (rest.includes("--check")) return process.exit(await (await import("./check-command")).runCheck({ offline: rest.includes("--offline") }));
      return usageError("acp: served by the entry (main.ts)"); // unreachable: main.ts serves a bare `hermes acp`
    case "doctor": {
      const unknown = rest.find((arg) => arg !== "--json" && arg !== "--offline");
      if (unknown) return usageError(`unknown option for doctor: ${unknown}`);
      const { runDoctor } = await import("./doctor-command");
      return process.exit(await runDoctor({ json: rest.includes("--json"), offline: rest.includes("--offline"), cwd: process.cwd() }));
    }
    case "setup":
      return runSetupCommand(rest);
    case "logout":
      return process.exit(await (await import("./logout-command")).runLogout(rest));
    case "sessions":
      return process.exit(await (await import("./sessions-command")).runSessions(rest));
    case "skills":
      return process.exit(await (await import("./skills-command")).runSkills(rest));
    case "hooks":
      return process.exit(await (await import("./hooks-command")).runHooksCli(rest));
    case "plugins":
      return process.exit(await (await import("./plugins-command")).runPlugins(rest));
    case "mcp":
      return process.exit(await (await import("./mcp-command")).runMcpCli(rest));
    case "worktrees":
      return process.exit(await (await import("./worktrees-command")).runWorktrees(rest));
    case "model":
      return process.exit(await (await import("./model-command")).runModel(rest));
    case "config":
      return process.exit(await (await import("./config-command")).runConfig(rest));
    case "logs":
      return process.exit(await (await import("./logs-command")).runLogs(rest));
    case "chat": {
      const options = parseChatArgs(rest);
      return process.exit(await (await import("./chat-command")).runChat(options));
    }
    case "--version":
    case "-v":
    case "version":
      process.stdout.write(`${VERSION}\n`);
      return;
    case undefined:
    case "--help":
    case "-h":
    case "help":
      process.stdout.write(HELP);
      return;
    default:
      return usageError(`unknown command: ${command}`);
  }
}

async function runSetupCommand(args: string[]): Promise<never> {
  const values: Record<string, string> = {};
  let test = true;
  let nonInteractive = false;
  let json = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!; // i < args.length
    const [flag, inline] = arg.startsWith("--") && arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
    if (flag === "--no-test") test = false;
    else if (flag === "--non-interactive") nonInteractive = true;
    else if (flag === "--json") json = true;
    else if (["--provider", "--model", "--api-key", "--api-key-env", "--base-url"].includes(flag)) {
      const value = inline ?? args[++i];
      if (value === undefined || value === "") usageError(`${flag} needs a value`);
      values[flag.slice(2)] = value;
    } else usageError(`unknown option for setup: ${arg}`);
  }
  const { runSetup } = await import("./setup-command");
  return process.exit(
    await runSetup({
      provider: values.provider,
      model: values.model,
      apiKey: values["api-key"],
      apiKeyEnv: values["api-key-env"],
      baseUrl: values["base-url"],
      test,
      interactive: process.stdin.isTTY === true && !nonInteractive && !values.provider,
      json,
    }),
  );
}

function parseChatArgs(args: string[]): ChatOptions {
  let cwd = process.cwd();
  let yes = false;
  let continueLast = false;
  let takeOver = false;
  let resume: string | undefined;
  let print = false;
  let outputFormat: "text" | "json" | "stream-json" = "text";
  let maxTurns: number | undefined;
  let worktree = false;
  let branch: string | undefined;
  const allowedTools: string[] = [];
  const disallowedTools: string[] = [];
  const list = (value: string | undefined, flag: string) => (value ?? usageError(`${flag} needs tool names, e.g. ${flag} "Read,Grep"`)).split(/[\s,]+/).filter(Boolean);
  const words: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!; // i < args.length
    if (arg === "--yes" || arg === "-y") yes = true;
    else if (arg === "-p" || arg === "--print") print = true;
    else if (arg === "--continue" || arg === "-c") continueLast = true;
    else if (arg === "--take-over") takeOver = true;
    // As every other command's --json: the one result object (--output-format json).
    else if (arg === "--json") outputFormat = "json";
    else if (arg === "-w" || arg === "--worktree") worktree = true;
    else if (arg === "--branch") branch = args[++i] ?? usageError("--branch needs a branch name");
    else if (arg === "--output-format") {
      const value = args[++i];
      if (value !== "text" && value !== "json" && value !== "stream-json") usageError("--output-format is text, json or stream-json");
      outputFormat = value;
    } else if (arg === "--max-turns") {
      const value = Number(args[++i]);
      if (!Number.isInteger(value) || value < 1) usageError("--max-turns needs a whole number of at least 1");
      maxTurns = value;
    } else if (arg === "--allowed-tools" || arg === "--allowedTools") allowedTools.push(...list(args[++i], "--allowed-tools"));
    else if (arg === "--disallowed-tools" || arg === "--disallowedTools") disallowedTools.push(...list(args[++i], "--disallowed-tools"));
    else if (arg === "--resume") resume = args[++i] ?? usageError("--resume needs a session id (hermes sessions list)");
    else if (arg === "--cwd") cwd = args[++i] ?? usageError("--cwd needs a directory");
    else if (arg === "--") {
      words.push(...args.slice(i + 1));
      break;
    }
    else if (arg.startsWith("-") && words.length === 0) usageError(`unknown option for chat: ${arg}`);
    else words.push(arg);
  }
  let prompt = words.join(" ").trim();
  // `-p` with no prompt words reads the prompt from a pipe (`git diff | hermes -p`).
  if (print && !prompt) prompt = process.stdin.isTTY ? usageError("-p needs a prompt, as words or on stdin") : readFileSync(0, "utf8").trim();
  if (print && !prompt) usageError("-p got an empty prompt");
  if (continueLast && resume) usageError("--continue or --resume, not both");
  if (takeOver && !continueLast && !resume) usageError("--take-over goes with --continue or --resume");
  if (branch && !worktree) usageError("--branch goes with -w (a new chat in its own worktree)");
  if (worktree && (continueLast || resume)) usageError("-w starts a new chat in a worktree; a resumed chat keeps the folder it had");
  if (outputFormat !== "text" && !prompt) usageError(`--output-format ${outputFormat} is for one turn: give a prompt (hermes -p "..." --output-format ${outputFormat})`);
  const folder = path.resolve(cwd);
  if (!isDirectory(folder)) fail(`--cwd ${folder}: no such folder`);
  return {
    prompt,
    cwd: folder,
    yes,
    continueLast,
    takeOver,
    ...(resume ? { resume } : {}),
    outputFormat,
    ...(maxTurns !== undefined ? { maxTurns } : {}),
    ...(allowedTools.length > 0 ? { allowedTools } : {}),
    ...(disallowedTools.length > 0 ? { disallowedTools } : {}),
    ...(worktree ? { worktree: branch ? { branch } : {} } : {}),
  };
}

/** A one-line usage error (exit 2) where the help text would add nothing. */
function fail(message: string): never {
  process.stderr.write(`hermes: ${message}\n`);
  process.exit(2);
}

function usageError(message: string): never {
  process.stderr.write(`hermes: ${message}\nRun "hermes --help" for usage.\n`);
  process.exit(2);
}
