// One `terminal/create` command as a real child process: its own process group (so kill
// stops everything it started), output kept up to the agent's byte limit (dropping the
// oldest output at a character boundary), and its exit status. No vscode import; the
// editor terminal that shows the output live subscribes through `onData`.
import type * as acp from "@agentclientprotocol/sdk/unstable";
import { spawn, type ChildProcess } from "node:child_process";
import { killGroup } from "./agent-process";
import { sandboxedSpawn } from "./terminal-sandbox";
import { childEnv } from "../acp-server/security/child-env";

/** Output kept under a byte limit by dropping from the start, never splitting a character. */
export class OutputBuffer {
  private text = "";
  private bytes = 0;
  truncated = false;

  constructor(private readonly limit: number | undefined) {}

  append(chunk: string): void {
    this.text += chunk;
    this.bytes += Buffer.byteLength(chunk, "utf8");
    if (this.limit === undefined || this.bytes <= this.limit) return;
    const buffer = Buffer.from(this.text, "utf8");
    let start = buffer.length - this.limit;
    // Skip UTF-8 continuation bytes (10xxxxxx) so the kept text starts on a character.
    while (start < buffer.length && (buffer[start] & 0xc0) === 0x80) start++;
    this.text = buffer.subarray(start).toString("utf8");
    this.bytes = buffer.length - start;
    this.truncated = true;
  }

  get value(): string {
    return this.text;
  }
}

/** Shell semantics: `command` alone may be a whole command line; with args it is one program. */
export function spawnSpec(params: acp.CreateTerminalRequest): { file: string; args: string[]; shell: boolean } {
  const args = params.args ?? [];
  if (args.length === 0 && /[\s|&;<>()$`"'*?~]/.test(params.command.trim())) return { file: params.command, args: [], shell: true };
  return { file: params.command, args, shell: false };
}

export class TerminalProcess {
  readonly output: OutputBuffer;
  exitStatus: acp.TerminalExitStatus | undefined;
  readonly exited: Promise<acp.TerminalExitStatus>;
  private readonly child: ChildProcess;
  private readonly listeners = new Set<(text: string) => void>();

  constructor(
    readonly params: acp.CreateTerminalRequest,
    baseEnv: NodeJS.ProcessEnv = process.env,
  ) {
    this.output = new OutputBuffer(params.outputByteLimit ?? undefined);
    const spec = spawnSpec(params);
    // Throws (the agent gets an error for terminal/create) when the requested sandbox is unavailable.
    const sandboxed = sandboxedSpawn(params, spec.shell ? ["/bin/sh", "-c", params.command] : [spec.file, ...spec.args]);
    // Sandboxed: the editor's environment is cleaned like the agent's own commands' (an
    // allowlist plus terminal.env_passthrough), so `env` cannot print the editor's tokens.
    const env: NodeJS.ProcessEnv = sandboxed ? childEnv(baseEnv, { passthrough: sandboxed.passthrough }) : { ...baseEnv };
    for (const variable of params.env ?? []) env[variable.name] = variable.value;
    Object.assign(env, sandboxed?.env);
    this.child = spawn(sandboxed?.file ?? spec.file, sandboxed?.args ?? spec.args, {
      cwd: params.cwd ?? undefined,
      env,
      shell: sandboxed ? false : spec.shell,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
      windowsHide: true,
    });
    let markExited!: (status: acp.TerminalExitStatus) => void;
    this.exited = new Promise((resolve) => (markExited = resolve));
    const onData = (chunk: Buffer | string) => {
      const text = chunk.toString();
      this.output.append(text);
      for (const listener of this.listeners) listener(text);
    };
    this.child.stdout?.setEncoding("utf8");
    this.child.stderr?.setEncoding("utf8");
    this.child.stdout?.on("data", onData);
    this.child.stderr?.on("data", onData);
    const finish = (status: acp.TerminalExitStatus) => {
      if (this.exitStatus) return;
      this.exitStatus = status;
      markExited(status);
    };
    // "close" (not "exit") so all output has been read when the status is reported.
    this.child.on("close", (exitCode, signal) => finish({ exitCode, signal }));
    this.child.on("error", (error) => {
      onData(`${error.message}\n`);
      finish({ exitCode: 127, signal: null });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  onData(listener: (text: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  snapshot(): acp.TerminalOutputResponse {
    return { output: this.output.value, truncated: this.output.truncated, ...(this.exitStatus ? { exitStatus: this.exitStatus } : {}) };
  }

  /** Kills the command and everything it started (its process group). */
  kill(signal: NodeJS.Signals = "SIGTERM"): void {
    if (this.exitStatus) return;
    killGroup(this.child, signal);
    const timer = setTimeout(() => killGroup(this.child, "SIGKILL"), 1_000);
    timer.unref();
    void this.exited.then(() => clearTimeout(timer));
  }
}
