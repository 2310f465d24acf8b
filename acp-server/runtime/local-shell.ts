// A session's local commands and their OS sandbox: writable roots are the workspace's (the
// session cwd and its extra roots) or a delegated task's folder, read-only in plan mode. Used by
// the turn (when the editor's terminals are not), the learning loop's background passes and
// delegation; app/session-shell.ts decides between these and the editor's terminals.
import { childEnv } from "../security/child-env";
import type { HermesConfig } from "../config/schema";
import { CommandSandbox, type SandboxConfig } from "../security/sandbox/command-sandbox";
import { LocalShellRunner } from "../tools/local-shell";
import type { LiveSession } from "./live-session";
import type { AgentRuntime } from "./runtime";

/**
 * The session's sandbox: writable roots are the workspace's (the session cwd and its extra
 * roots) or a delegated task's folder, read-only in plan mode; the mode is read at each command.
 */
export function sessionSandbox(runtime: AgentRuntime, session: LiveSession, roots?: string[]): CommandSandbox {
  return new CommandSandbox(sandboxConfig(runtime.loaded.config.terminal), () => ({
    roots: roots ?? session.agent.workspaceRoots,
    readOnlyWorkspace: session.agent.mode === "plan",
    sessionKey: session.id,
  }));
}

/** The sandbox settings of config.yaml's `terminal` section (also what `hermes doctor` probes with). */
export function sandboxConfig(terminal: HermesConfig["terminal"]): SandboxConfig {
  return { mode: terminal.sandbox, allowedDomains: terminal.network.allowed_domains, readAllow: terminal.sandbox_read_allow, unixSockets: terminal.sandbox_unix_sockets };
}

/**
 * A session's local commands, under its sandbox. They start from a clean environment (no
 * provider keys: the model can run `env`), taken from the runtime's config each time, so a
 * runtime reloaded after sign-in applies its own terminal.env_passthrough.
 */
export function localShellFor(runtime: AgentRuntime, session: LiveSession, roots?: string[]): LocalShellRunner {
  const env = childEnv(process.env, { passthrough: runtime.loaded.config.terminal.env_passthrough });
  return new LocalShellRunner(env, sessionSandbox(runtime, session, roots));
}
