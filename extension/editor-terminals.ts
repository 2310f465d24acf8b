// terminal/* for the agent: each command is a real child process (terminal-process.ts) whose
// output shows live in a VS Code terminal through a Pseudoterminal. Kill and release stop its
// process group; so does closing that terminal, and deactivating the extension. Its output and
// exit also go to `events` (the chat's tool cards show them), until the process has exited.
import type * as acp from "@agentclientprotocol/sdk/unstable";
import * as vscode from "vscode";
import type { TerminalEvents } from "./terminal-feed";
import { TerminalProcess } from "./terminal-process";

interface Entry {
  process: TerminalProcess;
  terminal: vscode.Terminal;
  dispose(): void;
}

export class EditorTerminals {
  private readonly entries = new Map<string, Entry>();
  private next = 1;

  constructor(private readonly events?: TerminalEvents) {}

  /** `events`: where this command's output goes (the chat that ran it); default: the constructor's. */
  create(params: acp.CreateTerminalRequest, events: TerminalEvents | undefined = this.events): acp.CreateTerminalResponse {
    const id = `term-${this.next++}`;
    const child = new TerminalProcess(params);
    const write = new vscode.EventEmitter<string>();
    let opened = false;
    const show = (text: string) => {
      // A terminal wants CRLF; keep output written before the terminal opened for its open().
      if (opened) write.fire(text.replace(/\r?\n/g, "\r\n"));
    };
    const commandLine = [params.command, ...(params.args ?? [])].join(" ");
    const pty: vscode.Pseudoterminal = {
      onDidWrite: write.event,
      open: () => {
        opened = true;
        write.fire(`\x1b[2m$ ${commandLine}\x1b[0m\r\n`);
        show(child.output.value);
        if (child.exitStatus) show(exitLine(child.exitStatus));
      },
      // The user closed the terminal: the command stops with it.
      close: () => child.kill(),
    };
    const stopData = child.onData(show);
    void child.exited.then((status) => show(exitLine(status)));
    // Reported to the chat even after release: a released command is killed, and its card says so.
    events?.started(id);
    const stopEvents = child.onData((text) => events?.output(id, text));
    void child.exited.then((status) => {
      stopEvents();
      events?.exited(id, status);
    });
    const terminal = vscode.window.createTerminal({ name: `Hermes: ${truncate(commandLine, 40)}`, pty, iconPath: new vscode.ThemeIcon("hubot") });
    this.entries.set(id, {
      process: child,
      terminal,
      dispose: () => {
        stopData();
        write.dispose();
        terminal.dispose();
      },
    });
    return { terminalId: id };
  }

  output(params: acp.TerminalOutputRequest): acp.TerminalOutputResponse {
    return this.get(params.terminalId).process.snapshot();
  }

  async waitForExit(params: acp.WaitForTerminalExitRequest): Promise<acp.WaitForTerminalExitResponse> {
    return this.get(params.terminalId).process.exited;
  }

  kill(params: acp.KillTerminalRequest): acp.KillTerminalResponse {
    this.get(params.terminalId).process.kill();
    return {};
  }

  release(params: acp.ReleaseTerminalRequest): acp.ReleaseTerminalResponse {
    const entry = this.get(params.terminalId);
    entry.process.kill();
    this.entries.delete(params.terminalId);
    entry.dispose();
    return {};
  }

  /** Reveals the command's VS Code terminal without taking focus; false once it was released or closed. */
  show(terminalId: string): boolean {
    const entry = this.entries.get(terminalId);
    if (!entry || entry.terminal.exitStatus !== undefined) return false;
    entry.terminal.show(true);
    return true;
  }

  /** Agent gone or extension deactivating: every command stops now. */
  disposeAll(): void {
    for (const entry of this.entries.values()) {
      entry.process.kill("SIGKILL");
      entry.dispose();
    }
    this.entries.clear();
  }

  private get(id: string): Entry {
    const entry = this.entries.get(id);
    if (!entry) throw new Error(`Unknown terminal ${id}`);
    return entry;
  }
}

function exitLine(status: acp.TerminalExitStatus): string {
  return status.signal ? `\n[killed by ${status.signal}]\n` : `\n[exit code ${status.exitCode}]\n`;
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
