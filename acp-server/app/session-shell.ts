// Where a session's commands run, and inside which sandbox. The OS sandbox goes under every
// command wherever it works: an editor's terminals are used only when Hermes's sandbox applies
// inside them (our VS Code extension), when no sandbox works here anyway, or when the user
// opted into them (terminal.editor_terminals: always). Otherwise commands run as local
// processes inside the sandbox and their output streams into the tool card, even in editors
// that offer terminals (Zed, JetBrains, acpx). `terminal.sandbox: on` is a promise that every
// command is sandboxed, so it overrides the opt-in.
import type { ShellRunner } from "../tools/context";
import { localShellFor, sessionSandbox } from "../runtime/local-shell";
import type { LiveSession } from "../runtime/live-session";
import type { AgentRuntime } from "../runtime/runtime";
import type { ClientChannel } from "../runtime/client-channel";
import { chosenOnFirstUse } from "./chosen-on-first-use";

type Placement = "editor-sandboxed" | "editor-bare" | "local";

/** Where commands run; asks the sandbox's status (a probe run) only when the answer depends on it. */
function placement(runtime: AgentRuntime, session: LiveSession, client: ClientChannel): Placement {
  if (!client.terminals) return "local";
  if (client.terminals.sandboxes) return "editor-sandboxed";
  const terminal = runtime.loaded.config.terminal;
  if (terminal.sandbox === "on") return "local";
  if (terminal.sandbox === "off" || terminal.editor_terminals === "always") return "editor-bare";
  return sessionSandbox(runtime, session).status().active ? "local" : "editor-bare";
}

/** The session's command runner, decided at its first use (never at session start: the decision may run a probe). */
export function sessionShell(runtime: AgentRuntime, session: LiveSession, client: ClientChannel): ShellRunner {
  return chosenOnFirstUse(() => {
    const terminals = client.terminals;
    const where = placement(runtime, session, client);
    if (!terminals || where === "local") return localShellFor(runtime, session);
    return terminals.runner(where === "editor-sandboxed" ? sessionSandbox(runtime, session) : undefined, runtime.loaded.config.terminal.env_passthrough);
  });
}

/** One paragraph for /context: is the sandbox on for this session's commands, and where do they run. */
export function describeCommandSandbox(runtime: AgentRuntime, session: LiveSession, client: ClientChannel): string {
  const status = sessionSandbox(runtime, session).status();
  const network = runtime.loaded.config.terminal.network.allowed_domains;
  const reach = network.length === 0 ? "no network" : network.includes("*") ? "full network" : `network only to ${network.join(", ")} (through Hermes's proxy; editor terminals get none)`;
  const folders = session.agent.extraRoots.length > 0 ? `the workspace (${session.agent.workspaceRoots.length} folders)` : "the workspace";
  const writable = session.agent.mode === "plan" ? "nothing but its temp folder (plan mode)" : `${folders} and its temp folder`;
  const where = placement(runtime, session, client);
  const bare = "Default mode asks before every command not known to be read-only.";
  if (where === "editor-bare" && status.active) {
    return `Sandbox: NOT applied. Commands run in this editor's terminals, which Hermes cannot sandbox (terminal.editor_terminals: always); command screening is the only layer. ${bare} (Remove that setting to run commands locally inside the sandbox, output in the tool card.)`;
  }
  if (!status.active) return `Sandbox: NOT active. ${status.reason}${where === "editor-bare" ? " Commands run in this editor's terminals." : ""} ${status.refuse ? "" : bare}`.trim();
  const place = where === "editor-sandboxed" ? "in the editor's terminals, wrapped by the Hermes extension" : client.terminals ? "as local processes (this editor's terminals cannot be sandboxed), their output streamed into the tool card" : "as local processes";
  return `Sandbox: active (${status.kind}). Commands run ${place}; they may write ${writable}, credential stores are hidden, ${reach}.`;
}
