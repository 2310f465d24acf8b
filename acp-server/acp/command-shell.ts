// Where a session's commands run, and inside which sandbox: the editor's terminals when the
// client offers them, else local processes; both under the session's OS sandbox when they can.
// `terminal.sandbox: on` is a promise that every command is sandboxed, so a client whose
// terminals cannot be sandboxed (any editor but Hermes's own) is not used for commands then.
import type * as acp from "@agentclientprotocol/sdk/unstable";
import { childEnv } from "../security/child-env";
import { CommandSandbox } from "../security/sandbox/command-sandbox";
import { clientSandboxesTerminals } from "../security/sandbox/wire";
import type { ShellRunner } from "../tools/context";
import { LocalShellRunner } from "../tools/local-shell";
import type { AcpSession } from "./acp-session";
import type { AgentRuntime } from "../runtime/runtime";
import { ClientShellRunner } from "./client-shell";

/**
 * The session's sandbox: writable roots are the workspace's (the session cwd and its extra
 * roots) or a delegated task's folder, read-only in plan mode; the mode is read at each command.
 */
export function sessionSandbox(runtime: AgentRuntime, session: AcpSession, roots?: string[]): CommandSandbox {
  const terminal = runtime.loaded.config.terminal;
  return new CommandSandbox({ mode: terminal.sandbox, allowedDomains: terminal.network.allowed_domains, readAllow: terminal.sandbox_read_allow, unixSockets: terminal.sandbox_unix_sockets }, () => ({
    roots: roots ?? session.agent.workspaceRoots,
    readOnlyWorkspace: session.agent.mode === "plan",
    sessionKey: session.id,
  }));
}

/**
 * A session's local commands, under its sandbox. They start from a clean environment (no
 * provider keys: the model can run `env`), taken from the runtime's config each time, so a
 * runtime reloaded after sign-in applies its own terminal.env_passthrough.
 */
export function localShellFor(runtime: AgentRuntime, session: AcpSession, roots?: string[]): LocalShellRunner {
  const env = childEnv(process.env, { passthrough: runtime.loaded.config.terminal.env_passthrough });
  return new LocalShellRunner(env, sessionSandbox(runtime, session, roots));
}

/** Editor terminals are used unless the sandbox is required and the client cannot apply it. */
function usesEditorTerminals(runtime: AgentRuntime, capabilities: acp.ClientCapabilities): boolean {
  if (!capabilities.terminal) return false;
  return clientSandboxesTerminals(capabilities._meta) || runtime.loaded.config.terminal.sandbox !== "on";
}

export function sessionShell(runtime: AgentRuntime, session: AcpSession, client: acp.AgentContext, capabilities: acp.ClientCapabilities): ShellRunner {
  if (!usesEditorTerminals(runtime, capabilities)) return localShellFor(runtime, session);
  return new ClientShellRunner(client, session.id, clientSandboxesTerminals(capabilities._meta) ? sessionSandbox(runtime, session) : undefined, runtime.loaded.config.terminal.env_passthrough);
}

/** One paragraph for /context: is the sandbox on for this session's commands, and where do they run. */
export function describeCommandSandbox(runtime: AgentRuntime, session: AcpSession, capabilities: acp.ClientCapabilities): string {
  const status = sessionSandbox(runtime, session).status();
  const network = runtime.loaded.config.terminal.network.allowed_domains;
  const reach = network.length === 0 ? "no network" : network.includes("*") ? "full network" : `network only to ${network.join(", ")} (through Hermes's proxy; editor terminals get none)`;
  const folders = session.agent.extraRoots.length > 0 ? `the workspace (${session.agent.workspaceRoots.length} folders)` : "the workspace";
  const writable = session.agent.mode === "plan" ? "nothing but its temp folder (plan mode)" : `${folders} and its temp folder`;
  if (usesEditorTerminals(runtime, capabilities) && !clientSandboxesTerminals(capabilities._meta)) {
    return `Sandbox: NOT applied. Commands run in this editor's terminals, which Hermes cannot sandbox; command screening is the only layer. (Set terminal.sandbox: on to run commands locally inside the sandbox instead.)`;
  }
  if (!status.active) return `Sandbox: NOT active. ${status.reason}`;
  const where = usesEditorTerminals(runtime, capabilities) ? "in the editor's terminals, wrapped by the Hermes extension" : "as local processes";
  return `Sandbox: active (${status.kind}). Commands run ${where}; they may write ${writable}, credential stores are hidden, ${reach}.`;
}
