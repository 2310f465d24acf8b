// One session's OS sandbox for local commands: what LocalShellRunner asks before each spawn.
// It turns the session's scope (workspace roots, mode, homes) and the config into a policy,
// and the policy into the program to spawn (bwrap … -- bash -c line, or sandbox-exec -p …).
import os from "node:os";
import { hermesHome } from "../../config/paths";
import { bwrapArgs, proxyEnv, SANDBOX_PROXY_PORT } from "./bwrap";
import { sandboxStatus, type SandboxSetting, type SandboxStatus } from "./detect";
import { resolveSandboxPolicy, type SandboxPolicy } from "./policy";
import { seatbeltProfile } from "./seatbelt";
import { sessionTempDir } from "./temp-dir";

export interface SandboxConfig {
  /** terminal.sandbox */
  mode: SandboxSetting;
  /** terminal.network.allowed_domains */
  allowedDomains: string[];
}

/** What a session lets its commands touch; read at each command (the mode can change mid-session). */
export interface SandboxScope {
  /** Writable workspace roots: the session cwd (a delegated task: its folder). */
  roots: string[];
  /** Plan mode: the workspace is read-only too. */
  readOnlyWorkspace: boolean;
  /** Names the session's temp folder. */
  sessionKey: string;
  home?: string;
  hermesHome?: string;
}

export interface SpawnPlan {
  file: string;
  args: string[];
  /** Added to the command's environment. */
  env: Record<string, string>;
  /** The policy it runs under; undefined when it runs unsandboxed. */
  policy?: SandboxPolicy;
}

/** Thrown when a command must not run at all (terminal.sandbox: on, and no sandbox here). */
export class SandboxUnavailableError extends Error {}

export class CommandSandbox {
  constructor(
    readonly config: SandboxConfig,
    private readonly scope: () => SandboxScope,
  ) {}

  status(): SandboxStatus {
    return sandboxStatus(this.config.mode);
  }

  /** The policy commands of this session run under right now. */
  policy(): SandboxPolicy {
    const scope = this.scope();
    return resolveSandboxPolicy({
      roots: scope.roots,
      readOnlyWorkspace: scope.readOnlyWorkspace,
      home: scope.home ?? os.homedir(),
      hermesHome: scope.hermesHome ?? hermesHome(),
      tmpDir: sessionTempDir(scope.sessionKey),
      // The allowlist proxy is not wired yet: a list without "*" means no network (fails closed).
      allowedDomains: this.config.allowedDomains.includes("*") ? ["*"] : [],
    });
  }

  /** How to spawn `shell -c line` in `cwd` under this session's sandbox; throws when refused. */
  plan(shell: string, line: string, cwd: string): SpawnPlan {
    const status = this.status();
    if (status.refuse) throw new SandboxUnavailableError(status.reason);
    if (!status.active || !status.program) return { file: shell, args: ["-c", line], env: {} };
    const policy = this.policy();
    const env: Record<string, string> = policy.network.kind === "allowlist" ? proxyEnv(`http://127.0.0.1:${SANDBOX_PROXY_PORT}`) : {};
    if (status.kind === "seatbelt") {
      return { file: status.program, args: ["-p", seatbeltProfile(policy), shell, "-c", line], env: { ...env, TMPDIR: policy.tmpDir }, policy };
    }
    const args = bwrapArgs(policy, { root: process.getuid?.() === 0, cwd, command: [shell, "-c", line] });
    return { file: status.program, args, env, policy };
  }
}
