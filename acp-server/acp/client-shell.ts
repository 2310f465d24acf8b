// ShellRunner on the editor's terminals (terminal/create, output, wait_for_exit, kill,
// release): the user watches the command live in the editor.
import type * as acp from "@agentclientprotocol/sdk/unstable";
import type { CommandOutput, ExitStatus, RunningCommand, ShellRunner, StartCommandOptions } from "../tools/context";

export class ClientShellRunner implements ShellRunner {
  constructor(
    private readonly client: acp.AgentContext,
    private readonly sessionId: string,
  ) {}

  async start(command: string, options: StartCommandOptions): Promise<RunningCommand> {
    const handle = await this.client.createTerminal({
      sessionId: this.sessionId,
      // Clients spawn command + args directly (no shell), so the shell is explicit.
      command: "/bin/sh",
      args: ["-c", command],
      cwd: options.cwd,
      outputByteLimit: options.outputLimit,
      ...(options.env ? { env: Object.entries(options.env).map(([name, value]) => ({ name, value })) } : {}),
    });
    return new ClientCommand(handle);
  }
}

class ClientCommand implements RunningCommand {
  private released = false;
  private exit?: ExitStatus;

  constructor(private readonly handle: acp.TerminalHandle) {}

  get terminalId(): string {
    return this.handle.id;
  }

  async output(): Promise<CommandOutput> {
    const response = await this.handle.currentOutput();
    const status = response.exitStatus;
    return {
      text: response.output,
      truncated: response.truncated,
      ...(status ? { exit: { code: status.exitCode ?? null, signal: status.signal ?? null } } : {}),
    };
  }

  async waitForExit(): Promise<ExitStatus> {
    const response = await this.handle.waitForExit();
    this.exit = { code: response.exitCode ?? null, signal: response.signal ?? null };
    return this.exit;
  }

  async kill(): Promise<void> {
    if (this.released || this.exit) return;
    await this.handle.kill();
  }

  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    await this.handle.release();
  }
}
