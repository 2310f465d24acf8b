// The `process` tool: inspects and stops commands the terminal tool started with
// background: true (kept per session in ctx.state.processes).
import * as z from "zod";
import type { BackgroundProcess, CommandOutput, SessionToolState } from "./context";
import { truncateMiddle } from "./output-buffer";
import { defineTool, ToolError } from "./registry";
import { OUTPUT_LIMIT } from "./terminal";
import { createLogger } from "../util/log";

const log = createLogger("process-tool");

/** Polling a server is about its latest lines, so keep most of the budget for the tail. */
const POLL_HEAD_RATIO = 0.2;

const schema = z.object({
  action: z
    .enum(["list", "poll", "kill"])
    .describe("list: all background processes; poll: status and output of one; kill: stop one (with its children) and forget it."),
  id: z.string().optional().describe("Process id from the terminal tool (e.g. proc_1). Required for poll and kill."),
});

export const processTool = defineTool({
  name: "process",
  toolset: "terminal",
  kind: "execute",
  readOnly: false,
  description: [
    "Manage commands started by the terminal tool with background: true.",
    "list: every background process with its status and uptime.",
    `poll: status, exit code once exited, and output so far (capped at ${OUTPUT_LIMIT} characters, mostly the latest).`,
    "kill: stop the process and its children, return its final output, and remove it from the list.",
    "Exited processes stay listed until killed, so their output can still be read.",
  ].join("\n"),
  schema,
  title: (args) => `process ${args.action}${args.id ? ` ${args.id}` : ""}`,
  handler: async (args, ctx) => {
    const { processes } = ctx.state;
    if (args.action === "list") {
      const list = await Promise.all([...processes.values()].map((entry) => describe(entry, ctx.sessionId)));
      return { output: list.length ? { processes: list } : { processes: [], note: "No background processes." } };
    }

    const entry = lookup(ctx.state, args.id, args.action);
    if (args.action === "poll") {
      const captured = await entry.handle.output();
      return { output: { id: entry.id, ...status(captured), ...portsField(entry), ...outputFields(captured), ...sandboxNote(entry, captured) } };
    }

    // kill
    // Unreadable output before the kill leaves "was it running?" open: taken as running, as before.
    const before = await readOutput(entry, ctx.sessionId);
    const wasRunning = !("captured" in before) || !before.captured.exit;
    await entry.handle.kill();
    const captured = await entry.handle.output();
    await entry.handle.release().catch((err: unknown) => log.warn("could not release a killed background process", { sessionId: ctx.sessionId, id: entry.id, err }));
    processes.delete(entry.id);
    const final = status(captured);
    return {
      output: {
        id: entry.id,
        ...final,
        status: wasRunning ? "killed" : final.status,
        ...outputFields(captured),
      },
    };
  },
});

function lookup(state: SessionToolState, id: string | undefined, action: string): BackgroundProcess {
  const known = [...state.processes.keys()];
  const knownText = known.length ? `Known ids: ${known.join(", ")}.` : "There are no background processes.";
  if (!id) throw new ToolError(`The ${action} action needs an id. ${knownText}`);
  const entry = state.processes.get(id);
  if (!entry) throw new ToolError(`No background process "${id}". ${knownText}`);
  return entry;
}

async function describe(entry: BackgroundProcess, sessionId: string): Promise<Record<string, unknown>> {
  const read = await readOutput(entry, sessionId);
  return {
    id: entry.id,
    command: entry.command,
    cwd: entry.cwd,
    // Unreadable output is no evidence of a running (or exited) process: say that it could not be read.
    ...("captured" in read ? status(read.captured) : { status: "unknown", output_error: read.error }),
    uptime_s: Math.round((Date.now() - entry.startedAt) / 1000),
  };
}

/** The process's output so far, or why it could not be read (logged). */
async function readOutput(entry: BackgroundProcess, sessionId: string): Promise<{ captured: CommandOutput } | { error: string }> {
  try {
    return { captured: await entry.handle.output() };
  } catch (err) {
    log.warn("could not read a background process's output", { sessionId, id: entry.id, err });
    return { error: `Could not read the process's output: ${err instanceof Error ? err.message : String(err)}` };
  }
}

function status(captured: CommandOutput): { status: string; exit_code?: number | null; signal?: string } {
  if (!captured.exit) return { status: "running" };
  const result: { status: string; exit_code?: number | null; signal?: string } = {
    status: "exited",
    exit_code: captured.exit.code,
  };
  if (captured.exit.signal) result.signal = captured.exit.signal;
  return result;
}

/** A background command the sandbox stopped says so, like a foreground one. */
/** A sandboxed server's ports as the host (and the browser) reaches them. */
function portsField(entry: BackgroundProcess): { ports?: string } {
  const ports = entry.handle.exportedPorts?.();
  if (!ports || ports.listening.length === 0) return {};
  const parts = [
    `listening in the sandbox on ${ports.listening.join(", ")}: browser_navigate to http://127.0.0.1:PORT/ reaches it (Hermes forwards the port on demand)`,
    ...(ports.exported.length ? [`forwarded now: ${ports.exported.join(", ")}`] : []),
    ...(ports.taken.length ? [`not forwarded, another program holds it on this machine: ${ports.taken.join(", ")}`] : []),
  ];
  return { ports: parts.join("; ") };
}

function sandboxNote(entry: BackgroundProcess, captured: CommandOutput): { sandbox?: string } {
  if (!captured.exit || captured.exit.code === 0) return {};
  const note = entry.handle.sandboxNote?.(captured.text);
  return note ? { sandbox: note } : {};
}

function outputFields(captured: CommandOutput): { output: string; truncated?: string } {
  const capped = truncateMiddle(captured.text, OUTPUT_LIMIT, POLL_HEAD_RATIO);
  return captured.truncated || capped.truncated
    ? { output: capped.text, truncated: "Output was too long; the middle was dropped." }
    : { output: capped.text };
}
