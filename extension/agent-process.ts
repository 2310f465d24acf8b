// The agent child process behind the panel: what to run, starting it, stopping it cleanly and
// restarting it when it crashes. No vscode import, so it is unit-tested against the real
// dist/hermes.js.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { EventEmitter } from "node:events";
import path from "node:path";
import type { Logger } from "./log";

export interface AgentCommand {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd?: string;
}

export interface AgentSettings {
  /** Empty: the bundled `hermes acp`. */
  command?: string;
  args?: readonly string[];
  env?: Readonly<Record<string, string>>;
}

/**
 * The bundled server runs on VS Code's own runtime (Electron as Node), so users need no Node
 * install; a configured command runs as given, shell-free. `env` goes over the host's env.
 */
export function agentCommand(extensionPath: string, settings: AgentSettings, execPath = process.execPath): AgentCommand {
  const env: NodeJS.ProcessEnv = { ...process.env, ...settings.env };
  if (settings.command?.trim()) return { command: settings.command.trim(), args: [...(settings.args ?? [])], env };
  return {
    command: execPath,
    args: [path.join(extensionPath, "dist", "hermes.js"), "acp"],
    env: { ...env, ELECTRON_RUN_AS_NODE: "1" },
  };
}

export interface BackoffOptions {
  /** First restart delay; doubles per crash. */
  initialMs: number;
  maxMs: number;
  /** A process that ran this long resets the delay. */
  stableMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 1_000, maxMs: 30_000, stableMs: 60_000 };
const KILL_GRACE_MS = 2_000;

export interface AgentExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface AgentProcessEvents {
  /** A (new) child is running: connect to its stdio. */
  started: [child: ChildProcessWithoutNullStreams];
  /** The child died without being asked to: a restart follows after `delayMs`. */
  crashed: [exit: AgentExit, delayMs: number];
  /** The child could not be spawned at all (command not found…): no automatic restart. */
  failed: [error: Error];
}

/** Restart delay after the `crashes`-th crash in a row (1-based): 1 s, 2 s, 4 s… capped. */
export function backoffDelay(crashes: number, options: BackoffOptions = DEFAULT_BACKOFF): number {
  return Math.min(options.maxMs, options.initialMs * 2 ** Math.max(0, crashes - 1));
}

export class AgentProcess extends EventEmitter<AgentProcessEvents> {
  private current: ChildProcessWithoutNullStreams | undefined;
  private startedAt = 0;
  private crashes = 0;
  private restartTimer: NodeJS.Timeout | undefined;
  private stopping = false;

  constructor(
    private readonly command: () => AgentCommand,
    private readonly log: Logger,
    private readonly backoff: BackoffOptions = DEFAULT_BACKOFF,
  ) {
    super();
  }

  get child(): ChildProcessWithoutNullStreams | undefined {
    return this.current;
  }

  get running(): boolean {
    return this.current !== undefined;
  }

  /** Starts the child unless one runs. */
  start(): ChildProcessWithoutNullStreams {
    if (this.current) return this.current;
    this.stopping = false;
    clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
    const { command, args, env, cwd } = this.command();
    this.log.info(`starting agent: ${command} ${args.join(" ")}`);
    // detached: its own process group, so stopping it also stops whatever it started.
    const child = spawn(command, args, { env, cwd, stdio: ["pipe", "pipe", "pipe"], detached: true, shell: false, windowsHide: true });
    this.current = child;
    this.startedAt = Date.now();
    forwardLines(child.stderr, (line) => this.log.info(`[agent] ${line}`));
    child.stdin.on("error", (error) => this.log.warn(`agent stdin: ${error.message}`));
    child.once("error", (error) => {
      // Spawn failures (ENOENT, EACCES) come here and no "exit" follows.
      if (this.current !== child) return;
      this.current = undefined;
      this.log.error(`the agent could not start: ${error.message}`);
      this.emit("failed", error);
    });
    child.once("exit", (code, signal) => this.exited(child, { code, signal }));
    if (child.pid !== undefined) this.emit("started", child);
    return child;
  }

  /** Stops the child and cancels any pending restart; resolves once it is gone. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
    const child = this.current;
    if (!child) return;
    this.current = undefined;
    await terminate(child);
  }

  /** A clean stop followed by a fresh start (the Restart Agent command): resets the backoff. */
  async restart(): Promise<ChildProcessWithoutNullStreams> {
    await this.stop();
    this.crashes = 0;
    return this.start();
  }

  private exited(child: ChildProcessWithoutNullStreams, exit: AgentExit): void {
    if (this.current !== child) return; // stopped on purpose, or already replaced
    this.current = undefined;
    if (this.stopping) return;
    if (Date.now() - this.startedAt >= this.backoff.stableMs) this.crashes = 0;
    this.crashes += 1;
    const delayMs = backoffDelay(this.crashes, this.backoff);
    this.log.error(`the agent exited (code ${exit.code}, signal ${exit.signal}); restarting in ${delayMs} ms`);
    // Whatever it left running in its group goes too.
    killGroup(child, "SIGKILL");
    this.emit("crashed", exit, delayMs);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (!this.stopping) this.start();
    }, delayMs);
  }
}

/** End stdin (the polite way), SIGTERM the group, SIGKILL it if it is still there after 2 s. */
export async function terminate(child: ChildProcessWithoutNullStreams, graceMs = KILL_GRACE_MS): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) {
    killGroup(child, "SIGKILL");
    return;
  }
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.stdin.end();
  killGroup(child, "SIGTERM");
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), graceMs)));
  const outcome = await Promise.race([exited, timeout]);
  clearTimeout(timer);
  // Even after a clean exit, children the agent left in its group must not outlive it.
  killGroup(child, "SIGKILL");
  if (outcome === "timeout") await exited;
}

export function killGroup(child: { pid?: number }, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(process.platform === "win32" ? child.pid : -child.pid, signal);
  } catch {
    // expected: ESRCH, the group is already gone
  }
}

/** Calls `onLine` for every complete line of a text stream (and the last partial one at its end). */
export function forwardLines(stream: NodeJS.ReadableStream, onLine: (line: string) => void): void {
  let pending = "";
  stream.setEncoding("utf8");
  stream.on("data", (chunk: string) => {
    pending += chunk;
    const lines = pending.split(/\r?\n/);
    pending = lines.pop() ?? "";
    for (const line of lines) if (line.trim()) onLine(line);
  });
  stream.on("end", () => {
    if (pending.trim()) onLine(pending);
    pending = "";
  });
}
