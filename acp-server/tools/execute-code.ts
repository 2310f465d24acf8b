// The `execute_code` tool: runs a short Python or JavaScript program that calls Hermes's tools
// through `hermes_tools` (code-exec/), so many similar steps cost one model call and only the
// program's output enters the context. The program runs like a terminal command (same
// permission ask, OS sandbox, environment allowlist, process group); every tool it calls is a
// nested call through the session's normal tool path (ctx.runNestedTool): no side door.
import * as z from "zod";
import { exposedTools } from "./code-exec/exposed-tools";
import { JAVASCRIPT_BOOTSTRAP, javascriptModule } from "./code-exec/javascript-module";
import { DEFAULT_CODE_EXEC_LIMITS, type CodeExecLimits } from "./code-exec/limits";
import { PYTHON_BOOTSTRAP, pythonModule } from "./code-exec/python-module";
import { ToolRpcServer } from "./code-exec/rpc-server";
import type { RunningCommand, ToolContext } from "./context";
import { defineTool, ToolError, type ToolResult } from "./registry";
import { findExecutable } from "../util/find-executable";
import { withImportedObjects } from "./worktree-objects-check";

const schema = z.object({
  code: z.string().min(1).max(200_000).describe("The program. Import tools from hermes_tools."),
  language: z.enum(["python", "javascript"]).optional().describe("Default python (javascript where python3 is missing)."),
});
type Args = z.infer<typeof schema>;

let python: boolean | undefined;
function hasPython(): boolean {
  python ??= findExecutable("python3", { searchPath: process.env.PATH ?? "" }) !== undefined;
  return python;
}

function languageOf(args: Args): "python" | "javascript" {
  return args.language ?? (hasPython() ? "python" : "javascript");
}

/** POSIX single quotes: the bootstrap goes on a sh command line verbatim. */
function quoted(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function launchLine(language: "python" | "javascript", limits: CodeExecLimits): string {
  // ulimit -d caps the heap (private mappings count on Linux >= 4.7); a shell without it runs on.
  const memory = `ulimit -d ${limits.memory_mb * 1024} 2>/dev/null; `;
  if (language === "python") return `${memory}exec python3 -c ${quoted(PYTHON_BOOTSTRAP)}`;
  return `${memory}exec ${quoted(process.execPath)} -e ${quoted(JAVASCRIPT_BOOTSTRAP)}`;
}

function setupLine(language: "python" | "javascript", code: string): string {
  const tools = exposedTools();
  const setup = language === "python" ? { module: pythonModule(tools), code } : { ...javascriptModule(tools), code };
  return `${JSON.stringify(setup)}\n`;
}

export const executeCodeTool = defineTool({
  name: "execute_code",
  toolset: "code_execution",
  kind: "execute",
  readOnly: false,
  description: [
    "Run a short Python (default) or JavaScript program that calls tools and prints only what you need; only its stdout/stderr come back.",
    "Use it for many similar steps in one go: reading or searching many files, looping over files, filtering a big output.",
    "Python: `from hermes_tools import read_file, search_files, write_file, patch, terminal, web_fetch`; each takes the tool's own arguments and returns its result as a dict; a failed call raises ToolError.",
    'JavaScript: `const { read_file } = require("hermes_tools")` (or import); async functions.',
    "No network; the same permissions apply as for direct calls.",
  ].join("\n"),
  schema,
  title: (args) => `Run ${languageOf(args)} program (${args.code.split("\n").length} lines)`,
  handler: async (args, ctx) => runProgram(args, ctx),
});

async function runProgram(args: Args, ctx: ToolContext): Promise<ToolResult> {
  const call = ctx.runNestedTool;
  if (!call) throw new ToolError("execute_code cannot run here (a program's tools cannot call execute_code).");
  const limits = ctx.codeExecLimits ?? DEFAULT_CODE_EXEC_LIMITS;
  const language = languageOf(args);
  // The program may do anything a command may: asked exactly like a terminal command running it.
  const allowed = await ctx.requestPermission({
    action: "execute",
    title: `Run a ${language} program`,
    command: `${language === "python" ? "python3" : "node"} -c ${quoted(args.code)}`,
    paths: [ctx.cwd],
  });
  if (!allowed) return { output: { error: "The user denied running this program" }, isError: true };
  if (ctx.signal.aborted) return { output: { error: "Cancelled before the program started" }, isError: true };

  let command: RunningCommand;
  try {
    command = await (ctx.localShell ?? ctx.shell).start(launchLine(language, limits), { cwd: ctx.cwd, outputLimit: limits.max_output_chars, rpcPipes: true, offline: true });
  } catch (error) {
    return { output: { error: `Could not start the program: ${(error as Error).message ?? String(error)}` }, isError: true };
  }
  const rpc = command.rpc;
  if (!rpc) {
    await command.release();
    throw new ToolError("execute_code needs Hermes's own processes, and this session runs commands in the editor's terminals. Call the tools directly.");
  }

  const steps: string[] = [];
  const server = new ToolRpcServer(rpc.requests, rpc.replies, {
    maxCalls: limits.max_tool_calls,
    call,
    onCall: (tool, ok) => {
      steps.push(`${ok ? "✓" : "✗"} ${tool}`);
      ctx.progress({ content: [{ type: "text", text: steps.join("\n") }] });
    },
  });
  rpc.replies.write(setupLine(language, args.code));

  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void command.kill();
  }, limits.timeout_seconds * 1000);
  const onAbort = () => void command.kill();
  ctx.signal.addEventListener("abort", onAbort, { once: true });
  try {
    const exit = await command.waitForExit();
    // A call already running finishes (its card ends); one the dead program queued never starts.
    server.close();
    await server.settled();
    const captured = await command.output();
    const output: Record<string, unknown> = { exit_code: exit.code, output: captured.text, tool_calls: server.calls };
    if (exit.signal) output.signal = exit.signal;
    if (captured.truncated) output.note = `Output over ${limits.max_output_chars} characters: its middle was dropped. Print less (filter inside the program).`;
    if (timedOut) output.error = `Killed after ${limits.timeout_seconds} s (code_exec.timeout_seconds).`;
    const note = command.sandboxNote?.(captured.text);
    if (note) output.sandbox = note;
    const text = [steps.join("\n"), captured.text].filter(Boolean).join("\n\n");
    // A worktree chat's program may have run git: its new objects go into the main repository, verified.
    return await withImportedObjects(ctx, { output, content: [{ type: "text", text: text || "(no output)" }], isError: timedOut });
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener("abort", onAbort);
    await command.release();
  }
}
