// The `terminal` tool: runs a shell command line through the session's ShellRunner
// (an editor terminal when the client offers one, a local process otherwise).
import * as z from "zod";
import type { CommandOutput, ExitStatus, RunningCommand, ShellRunner, ToolContext } from "./context";
import { tailOf, truncateMiddle } from "./output-buffer";
import { OutputSpill } from "./output-spill";
import { resolvePath } from "./paths";
import { startPlantCheck } from "./plant-check";
import { importCommandObjects, withImportedObjects } from "./worktree-objects-check";
import { defineTool, ToolError, type ToolResult } from "./registry";
import { createLogger } from "../util/log";

const log = createLogger("terminal");

/** Characters of command output the model receives (head and tail kept). */
export const OUTPUT_LIMIT = 50_000;
const DEFAULT_TIMEOUT_S = 180;
const MAX_TIMEOUT_S = 3600;
/** How often streamed output refreshes the tool call card, and how much of it is shown. */
const PROGRESS_INTERVAL_MS = 200;
const PREVIEW_CHARS = 4_000;
/** Characters of output left in the finished card (the end matters most there). */
const CARD_CHARS = 20_000;

const schema = z.object({
  command: z.string().min(1).describe("Shell command line (bash -c)."),
  timeout: z
    .number()
    .positive()
    .max(MAX_TIMEOUT_S)
    .optional()
    .describe(`Seconds before it is killed (default ${DEFAULT_TIMEOUT_S}); not with background.`),
  workdir: z.string().optional().describe("Folder to run in, relative to the working directory."),
  background: z.boolean().optional().describe("Return at once with a process_id (see `process`)."),
  unsandboxed: z.boolean().optional().describe("Run once outside the OS sandbox, only after a sandboxed run was blocked (the result says so); the user is asked each time."),
  reason: z.string().optional().describe("With unsandboxed: why, shown to the user."),
});

type Args = z.infer<typeof schema>;

export function commandTitle(command: string): string {
  const line = command.replace(/\s+/g, " ").trim();
  return `$ ${line.length > 80 ? `${line.slice(0, 79)}…` : line}`;
}

export const terminalTool = defineTool({
  name: "terminal",
  toolset: "terminal",
  kind: "execute",
  readOnly: false,
  description: [
    "Run a shell command (bash -c) in the project; returns the exit code and combined stdout+stderr (a non-zero exit is reported, not a failure).",
    "Non-interactive: stdin closed, pagers off (pass --yes / --no-pager where a tool would prompt).",
    `Killed with its children after \`timeout\` s (max ${MAX_TIMEOUT_S}). Output over ${OUTPUT_LIMIT} characters keeps its start and end: filter huge outputs.`,
    "Servers and watchers: background: true, then `process`; never end a command with `&`. Use the file tools to read, search and edit files.",
  ].join("\n"),
  schema,
  title: (args) => commandTitle(args.command),
  handler: async (args, ctx) => {
    const cwd = resolvePath(ctx.cwd, args.workdir ?? ".");
    const unsandboxed = args.unsandboxed === true;
    if (unsandboxed && !args.reason?.trim()) throw new ToolError("unsandboxed: true needs a reason: say why the command cannot run in the sandbox.");
    // The command is screened in the folder it runs in, not the session folder.
    const allowed = await ctx.requestPermission({
      action: "execute",
      title: `${unsandboxed ? "Outside the sandbox: " : ""}${commandTitle(args.command)}`,
      command: args.command,
      paths: [cwd],
      ...(cwd !== ctx.cwd ? { workdir: cwd } : {}),
      ...(unsandboxed ? { unsandboxed, unsandboxedReason: args.reason?.trim() } : {}),
    });
    if (!allowed) return { output: { error: "The user denied running this command" }, isError: true };
    if (ctx.signal.aborted) return { output: { error: "Cancelled before the command started" }, isError: true };

    // What git and the editor run later: recorded now, checked and undone when it ends.
    const checkPlants = startPlantCheck(ctx);
    let handle: RunningCommand;
    try {
      handle = await runnerFor(args, ctx).start(args.command, { cwd, outputLimit: OUTPUT_LIMIT, ...(unsandboxed ? { unsandboxed } : {}), ...(args.background ? { exportPorts: true } : {}) });
    } catch (error) {
      return { output: { error: `Could not run the command: ${(error as Error).message ?? String(error)}` }, isError: true };
    }
    if (handle.terminalId) ctx.progress({ content: [{ type: "terminal", terminalId: handle.terminalId }] });

    if (args.background) return startBackground(args, cwd, handle, ctx, checkPlants);
    try {
      // Then a worktree chat's new git objects go into the main repository, verified.
      return await withImportedObjects(ctx, checkPlants(await runForeground(args, handle, ctx)));
    } finally {
      await handle.release().catch((err: unknown) => log.warn("could not release the command's terminal", { sessionId: ctx.sessionId, terminalId: handle.terminalId, err }));
    }
  },
});

/**
 * Where a command runs: the session's shell (the editor's terminal, where it offers them), except
 * a background command in a sandbox with a network of its own, which runs as Hermes's own process
 * so the browser tools can have its servers' ports forwarded (port-export.ts); its output is read
 * with the process tool.
 */
function runnerFor(args: Args, ctx: ToolContext): ShellRunner {
  if (!args.background || args.unsandboxed || !ctx.localShell || ctx.localShell === ctx.shell) return ctx.shell;
  return ctx.shell.isolatesNetwork?.() ? ctx.localShell : ctx.shell;
}

function startBackground(args: Args, cwd: string, handle: RunningCommand, ctx: ToolContext, checkPlants: ReturnType<typeof startPlantCheck>): ToolResult {
  const id = `proc_${ctx.state.nextProcessNumber++}`;
  // Checked (and undone) when it ends (the log says what); while it runs, before each command.
  checkPlants.background();
  void handle
    .waitForExit()
    .then(
      () => checkPlants({ output: {} }),
      (err: unknown) => {
        log.warn("lost track of a background command; its plant check runs now", { sessionId: ctx.sessionId, id, err });
        checkPlants({ output: {} });
      },
    )
    // Its problems are logged; the next command or worktree operation imports (and reports) again.
    .then(() => importCommandObjects(ctx));
  ctx.state.processes.set(id, { id, command: args.command, cwd, startedAt: Date.now(), handle });
  const output = {
    process_id: id,
    status: "running",
    note: `Started in the background. Use the process tool: {"action":"poll","id":"${id}"} for output, {"action":"kill","id":"${id}"} to stop it.`,
  };
  const content = handle.terminalId
    ? [{ type: "terminal" as const, terminalId: handle.terminalId }]
    : [{ type: "text" as const, text: `Started ${id} in the background` }];
  return { output, content };
}

type Outcome = { kind: "exited"; status: ExitStatus } | { kind: "timeout" } | { kind: "cancelled" } | { kind: "failed"; error: unknown };

async function runForeground(args: Args, handle: RunningCommand, ctx: ToolContext): Promise<ToolResult> {
  const timeoutS = args.timeout ?? DEFAULT_TIMEOUT_S;
  const started = Date.now();
  const stopStreaming = handle.terminalId ? () => {} : streamProgress(handle, ctx);
  // A local command's whole output goes to a file too (an editor terminal's stays with the editor).
  const spill = handle.onOutput ? OutputSpill.open(ctx.sessionId, ctx.toolCallId) : undefined;
  const stopSpill = spill && handle.onOutput ? handle.onOutput((chunk) => spill.write(chunk)) : undefined;

  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const outcome = await new Promise<Outcome>((resolve) => {
    timer = setTimeout(() => resolve({ kind: "timeout" }), timeoutS * 1000);
    onAbort = () => resolve({ kind: "cancelled" });
    ctx.signal.addEventListener("abort", onAbort, { once: true });
    if (ctx.signal.aborted) onAbort();
    handle.waitForExit().then(
      (status) => resolve({ kind: "exited", status }),
      (error: unknown) => resolve({ kind: "failed", error }),
    );
  });
  clearTimeout(timer);
  if (onAbort) ctx.signal.removeEventListener("abort", onAbort);
  if (outcome.kind !== "exited") {
    await handle.kill().catch((err: unknown) => log.warn("could not kill the command", { sessionId: ctx.sessionId, outcome: outcome.kind, err }));
  }

  // Output that cannot be read is told to the model as such: empty text would read as "printed nothing".
  const read = await handle.output().then(
    (captured): { captured: CommandOutput; readError?: string } => ({ captured }),
    (err: unknown): { captured: CommandOutput; readError?: string } => {
      log.warn("could not read the command's output", { sessionId: ctx.sessionId, terminalId: handle.terminalId, err });
      return { captured: { text: "", truncated: false }, readError: `Could not read the command's output: ${errorText(err)}` };
    },
  );
  const { captured, readError } = read;
  stopStreaming();
  stopSpill?.();
  const capped = truncateMiddle(captured.text, OUTPUT_LIMIT);
  const truncated = captured.truncated || capped.truncated;
  const duration_ms = Date.now() - started;
  const output: Record<string, unknown> = {};

  let isError = false;
  let summary: string;
  if (outcome.kind === "exited") {
    output.exit_code = outcome.status.code;
    if (outcome.status.signal) output.signal = outcome.status.signal;
    const note = outcome.status.code !== 0 ? handle.sandboxNote?.(captured.text) : undefined;
    if (note) output.sandbox = note;
    summary = outcome.status.code !== null ? `exit code ${outcome.status.code}` : `killed by ${outcome.status.signal}`;
  } else if (outcome.kind === "timeout") {
    isError = true;
    output.timed_out = true;
    output.error = `Command timed out after ${timeoutS}s and was killed. For long-running programs use background: true.`;
    summary = `timed out after ${timeoutS}s`;
  } else if (outcome.kind === "cancelled") {
    isError = true;
    output.cancelled = true;
    output.error = "The user cancelled; the command was killed.";
    summary = "cancelled";
  } else {
    isError = true;
    output.error = `Lost track of the command: ${(outcome.error as Error)?.message ?? String(outcome.error)}`;
    summary = "failed";
  }
  if (readError) output.output_error = readError;
  else output.output = capped.text;
  if (truncated) output.truncated = "Output was too long; the middle was dropped. Filter it (grep, head, tail) to see specific parts.";
  output.duration_ms = duration_ms;

  if (handle.terminalId) {
    // The editor keeps the whole output: named in the card when the model's copy lost some.
    const fullOutput = truncated ? captured.fullOutput : undefined;
    return { output, content: [{ type: "terminal", terminalId: handle.terminalId }], isError, ...(fullOutput ? { fullOutput } : {}) };
  }
  const card = readError ? { text: `(${readError})`, truncated: false } : truncateMiddle(captured.text, CARD_CHARS, 0.2);
  // Kept only when the card could not show it all; the card's footer says where it is.
  const fullOutput = spill && (card.truncated || truncated) ? spill.finish() : undefined;
  if (spill && !fullOutput) spill.discard();
  const footer = fullOutput ? `${summary} · whole output (${sizeText(fullOutput.bytes)}): ${fullOutput.path}` : summary;
  return { output, content: [{ type: "text", text: fenced(card.text, footer) }], isError, ...(fullOutput ? { fullOutput } : {}) };
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Mirrors live output into the tool call card, at most every PROGRESS_INTERVAL_MS. */
function streamProgress(handle: RunningCommand, ctx: ToolContext): () => void {
  if (!handle.onOutput) return () => {};
  let recent = "";
  let dirty = false;
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    timer = undefined;
    if (!dirty) return;
    dirty = false;
    ctx.progress({ content: [{ type: "text", text: fenced(recent) }] });
  };
  const unsubscribe = handle.onOutput((chunk) => {
    recent = tailOf(recent + chunk, PREVIEW_CHARS);
    dirty = true;
    timer ??= setTimeout(flush, PROGRESS_INTERVAL_MS);
  });
  return () => {
    unsubscribe();
    if (timer) clearTimeout(timer);
    flush();
  };
}

function sizeText(bytes: number): string {
  return bytes >= 1048576 ? `${(bytes / 1048576).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** A markdown code block whose fence is longer than any backtick run inside the text. */
export function fenced(text: string, footer?: string): string {
  const longestRun = (text.match(/`+/g) ?? []).reduce((longest, run) => Math.max(longest, run.length), 0);
  const fence = "`".repeat(Math.max(3, longestRun + 1));
  const body = text.endsWith("\n") || text === "" ? text : `${text}\n`;
  return `${fence}\n${body}${fence}${footer ? `\n${footer}` : ""}`;
}
