// Where a session's commands run, and inside which sandbox: the editor's terminals when the
// client offers them, else local processes; both under the session's OS sandbox when they can.
// `terminal.sandbox: on` is a promise that every command is sandboxed, so a client whose
// terminals cannot be sandboxed (any editor but Hermes's own) is not used for commands then.
import type { ShellRunner } from "../tools/context";
import { localShellFor, sessionSandbox } from "../runtime/local-shell";
import type { LiveSession } from "../runtime/live-session";
import type { AgentRuntime } from "../runtime/runtime";
import type { ClientChannel } from "../runtime/client-channel";

/** Editor terminals are used unless the sandbox is required and the client cannot apply it. */
function usesEditorTerminals(runtime: AgentRuntime, client: ClientChannel): boolean {
  if (!client.terminals) return false;
  return client.terminals.sandboxes || runtime.loaded.config.terminal.sandbox !== "on";
}

export function sessionShell(runtime: AgentRuntime, session: LiveSession, client: ClientChannel): ShellRunner {
  const terminals = client.terminals;
  if (!terminals || !usesEditorTerminals(runtime, client)) return localShellFor(runtime, session);
  return terminals.runner(terminals.sandboxes ? sessionSandbox(runtime, session) : undefined, runtime.loaded.config.terminal.env_passthrough);
}

/** One paragraph for /context: is the sandbox on for this session's commands, and where do they run. */
export function describeCommandSandbox(runtime: AgentRuntime, session: LiveSession, client: ClientChannel): string {
  const status = sessionSandbox(runtime, session).status();
  const network = runtime.loaded.config.terminal.network.allowed_domains;
  const reach = network.length === 0 ? "no network" : network.includes("*") ? "full network" : `network only to ${network.join(", ")} (through Hermes's proxy; editor terminals get none)`;
  const folders = session.agent.extraRoots.length > 0 ? `the workspace (${session.agent.workspaceRoots.length} folders)` : "the workspace";
  const writable = session.agent.mode === "plan" ? "nothing but its temp folder (plan mode)" : `${folders} and its temp folder`;
  if (usesEditorTerminals(runtime, client) && !client.terminals?.sandboxes) {
    return `Sandbox: NOT applied. Commands run in this editor's terminals, which Hermes cannot sandbox; command screening is the only layer. (Set terminal.sandbox: on to run commands locally inside the sandbox instead.)`;
  }
  if (!status.active) return `Sandbox: NOT active. ${status.reason}`;
  const where = usesEditorTerminals(runtime, client) ? "in the editor's terminals, wrapped by the Hermes extension" : "as local processes";
  return `Sandbox: active (${status.kind}). Commands run ${where}; they may write ${writable}, credential stores are hidden, ${reach}.`;
}
