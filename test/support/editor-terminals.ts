// terminal/* served the way an editor does (like acpx: spawn command + args, no shell),
// for tests of the agent's client-terminal path.
import type * as acp from "@agentclientprotocol/sdk";
import { spawn, type ChildProcess } from "node:child_process";

interface Terminal {
  process: ChildProcess;
  command: string;
  output: string;
  /** Output was dropped from the front (past outputByteLimit). */
  truncated: boolean;
  exit?: { exitCode: number | null; signal: string | null };
  exited: Promise<void>;
  released: boolean;
}

export class EditorTerminals {
  readonly created: acp.CreateTerminalRequest[] = [];
  readonly killed: string[] = [];
  readonly released: string[] = [];
  /** Set: a truncated output response names this file of the whole output (as Hermes's VS Code extension does). */
  fullOutput?: { path: string; bytes: number };
  private readonly terminals = new Map<string, Terminal>();
  private next = 1;

  create(params: acp.CreateTerminalRequest): acp.CreateTerminalResponse {
    this.created.push(params);
    const child = spawn(params.command, params.args ?? [], { cwd: params.cwd ?? undefined, stdio: ["ignore", "pipe", "pipe"], detached: true });
    const id = `term-${this.next++}`;
    let markExited!: () => void;
    const terminal: Terminal = { process: child, command: [params.command, ...(params.args ?? [])].join(" "), output: "", truncated: false, exited: new Promise((r) => (markExited = r)), released: false };
    const append = (chunk: Buffer) => {
      terminal.output += chunk.toString("utf8");
      const limit = params.outputByteLimit ?? Infinity;
      if (terminal.output.length > limit) {
        terminal.output = terminal.output.slice(terminal.output.length - limit);
        terminal.truncated = true;
      }
    };
    child.stdout.on("data", append);
    child.stderr.on("data", append);
    // "close", not "exit": an editor reports the exit once the command's output is in, and after
    // "exit" the last chunks may still be in the pipe (under load the output came back empty).
    child.on("close", (exitCode, signal) => {
      terminal.exit = { exitCode, signal };
      markExited();
    });
    child.on("error", (error) => {
      terminal.output += String(error);
      terminal.exit = { exitCode: 127, signal: null };
      markExited();
    });
    this.terminals.set(id, terminal);
    return { terminalId: id };
  }

  output(id: string): acp.TerminalOutputResponse {
    const terminal = this.get(id);
    const full = terminal.truncated && this.fullOutput ? { _meta: { "hermes/fullOutput": this.fullOutput } } : {};
    return { output: terminal.output, truncated: terminal.truncated, ...(terminal.exit ? { exitStatus: terminal.exit } : {}), ...full };
  }

  async waitForExit(id: string): Promise<acp.WaitForTerminalExitResponse> {
    const terminal = this.get(id);
    await terminal.exited;
    return terminal.exit!;
  }

  kill(id: string): acp.KillTerminalResponse {
    this.killed.push(id);
    this.signal(this.get(id));
    return {};
  }

  release(id: string): acp.ReleaseTerminalResponse {
    this.released.push(id);
    const terminal = this.get(id);
    this.signal(terminal);
    terminal.released = true;
    return {};
  }

  killAll(): void {
    for (const terminal of this.terminals.values()) this.signal(terminal);
  }

  private signal(terminal: Terminal): void {
    if (terminal.exit || terminal.process.pid === undefined) return;
    try {
      process.kill(-terminal.process.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }

  private get(id: string): Terminal {
    const terminal = this.terminals.get(id);
    if (!terminal || terminal.released) throw new Error(`unknown terminal ${id}`);
    return terminal;
  }
}
