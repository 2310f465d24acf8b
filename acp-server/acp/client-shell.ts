// ShellRunner on the editor's terminals (terminal/create, output, wait_for_exit, kill,
// release): the user watches the command live in the editor. A client that advertised
// `_meta["hermes/sandbox"]` (Hermes's own VS Code extension) gets the session's sandbox policy
// with each command and runs it inside; other clients run it as they see fit.
import type * as acp from "@agentclientprotocol/sdk/unstable";
import { sandboxBlockedNote } from "../security/sandbox/blocked-note";
import { type CommandSandbox, SandboxUnavailableError } from "../security/sandbox/command-sandbox";
import type { SandboxPolicy } from "../security/sandbox/policy";
import { SANDBOX_META_KEY, type WireSandboxPolicy } from "../security/sandbox/wire";
import type { CommandOutput, ExitStatus, RunningCommand, ShellRunner, StartCommandOptions } from "../tools/context";

export class ClientShellRunner implements ShellRunner {
  constructor(
    private readonly client: acp.AgentContext,
    private readonly sessionId: string,
    /** Set when the client sandboxes its terminals: the session's sandbox to send along. */
    private readonly sandbox?: CommandSandbox,
    /** terminal.env_passthrough, sent with the policy: the extension cleans the editor's environment like ours. */
    private readonly envPassthrough: readonly string[] = [],
  ) {}

  sandboxed(): boolean {
    return this.sandbox?.status().active ?? false;
  }

  isolatesNetwork(): boolean {
    return this.sandbox?.isolatesNetwork() ?? false;
  }

  async start(command: string, options: StartCommandOptions): Promise<RunningCommand> {
    const policy = this.policyFor(options);
    const handle = await this.client.createTerminal({
      sessionId: this.sessionId,
      // Clients spawn command + args directly (no shell), so the shell is explicit.
      command: "/bin/sh",
      args: ["-c", command],
      cwd: options.cwd,
      outputByteLimit: options.outputLimit,
      ...(options.env ? { env: Object.entries(options.env).map(([name, value]) => ({ name, value })) } : {}),
      ...(policy ? { _meta: { [SANDBOX_META_KEY]: { ...toWire(policy), envPassthrough: [...this.envPassthrough] } } } : {}),
    });
    return new ClientCommand(handle, policy);
  }

  /** The policy to send, or none (no sandboxing client, sandbox off, or approved to run outside). */
  private policyFor(options: StartCommandOptions): SandboxPolicy | undefined {
    if (!this.sandbox || options.unsandboxed) return undefined;
    const status = this.sandbox.status();
    if (status.refuse) throw new SandboxUnavailableError(status.reason);
    return status.active ? this.sandbox.policy() : undefined;
  }
}

/** An allowlist needs Hermes's proxy, which editor terminals cannot reach: they get no network. */
function toWire(policy: SandboxPolicy): WireSandboxPolicy {
  const network = policy.network.kind === "on" ? { kind: "on" as const } : { kind: "off" as const };
  return { writable: policy.writable, ...(policy.pinned?.length ? { pinned: policy.pinned } : {}), readOnly: policy.readOnly, hidden: policy.hidden, tmpDir: policy.tmpDir, network, unixSockets: policy.unixSockets, ...(policy.home ? { home: policy.home } : {}), ...(policy.env ? { env: policy.env } : {}) };
}

class ClientCommand implements RunningCommand {
  private released = false;
  private exit?: ExitStatus;

  constructor(
    private readonly handle: acp.TerminalHandle,
    private readonly policy?: SandboxPolicy,
  ) {}

  sandboxNote(output: string): string | undefined {
    return this.policy ? sandboxBlockedNote(output, this.policy) : undefined;
  }

  get ownNetwork(): boolean {
    return this.policy !== undefined && this.policy.network.kind !== "on";
  }

  get terminalId(): string {
    return this.handle.id;
  }

  async output(): Promise<CommandOutput> {
    const response = await this.handle.currentOutput();
    const status = response.exitStatus;
    const full = fullOutputOf(response._meta);
    return {
      text: response.output,
      truncated: response.truncated,
      ...(status ? { exit: { code: status.exitCode ?? null, signal: status.signal ?? null } } : {}),
      ...(full ? { fullOutput: full } : {}),
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

/**
 * Hermes's VS Code extension keeps each terminal's whole output in a file and names it in the
 * output response's `_meta["hermes/fullOutput"]`: passed on in the card (and the journal), so
 * "Show all" still finds it after a window reload.
 */
function fullOutputOf(meta: Record<string, unknown> | null | undefined): { path: string; bytes: number } | undefined {
  const full = meta?.["hermes/fullOutput"] as { path?: unknown; bytes?: unknown } | undefined;
  if (typeof full?.path !== "string" || !full.path || typeof full.bytes !== "number") return undefined;
  return { path: full.path, bytes: full.bytes };
}
