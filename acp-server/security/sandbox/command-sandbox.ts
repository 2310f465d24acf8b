// One session's OS sandbox for local commands: what LocalShellRunner asks before each spawn.
// It turns the session's scope (workspace roots, mode, homes) and the config into a policy,
// and the policy into the program to spawn (bwrap … -- bash -c line, or sandbox-exec -p …).
import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { hermesHome } from "../../config/paths";
import { bwrapArgs, proxyEnv, SANDBOX_PROXY_DIR, SANDBOX_PROXY_PORT } from "./bwrap";
import { FORWARDER_SCRIPT } from "./forwarder";
import { PORT_EXPORTER_SCRIPT } from "./port-exporter-script";
import { allowlistProxy } from "./proxy";
import { runProbe, sandboxStatus, type SandboxSetting, type SandboxStatus } from "./detect";
import { procGuard } from "./proc-guard";
import { resolveSandboxPolicy, type SandboxPolicy } from "./policy";
import { seatbeltProfile } from "./seatbelt";
import { probedStatus, probeShapeOnce, shapeProbeScript } from "./shape-probe";
import { SECCOMP_FD, filterFile, spawnWithFilter } from "./seccomp";
import { sandboxStateDir, sessionTempDir } from "./temp-dir";
import { AgentError } from "../../util/agent-error";

export interface SandboxConfig {
  /** terminal.sandbox */
  mode: SandboxSetting;
  /** terminal.network.allowed_domains */
  allowedDomains: string[];
  /** terminal.sandbox_read_allow: more of the home folder kept readable. */
  readAllow?: string[];
  /** terminal.sandbox_unix_sockets: commands may create unix sockets (reach local daemons). */
  unixSockets?: boolean;
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
  /** Spawn with Node's IPC channel on fd 3: the port exporter inside talks to Hermes on it (port-export.ts). */
  ipc?: boolean;
}

/** Thrown when a command must not run at all (terminal.sandbox: on, and no sandbox here). */
/** sandbox.mode requires a sandbox this machine cannot provide: a configuration to fix. */
export class SandboxUnavailableError extends AgentError<"config"> {
  constructor(message: string) {
    super("config", message, {});
    this.name = "SandboxUnavailableError";
  }
}



export class CommandSandbox {
  /** The last status() and the scope it was found for. */
  private checked?: { key: string; status: SandboxStatus };

  constructor(
    readonly config: SandboxConfig,
    private readonly scope: () => SandboxScope,
  ) {}

  /**
   * Active only once a probe command ran inside the sandbox with this session's mounts (run
   * once per shape, at the first command or /context); otherwise the exact failure.
   */
  status(): SandboxStatus {
    const machine = sandboxStatus(this.config.mode);
    if (!machine.active || !machine.program) return machine;
    // Asked before every command (the permission gate, then the spawn): resolving the policy
    // reads the disk, so the answer is kept while the session's scope stays the same.
    const scope = this.scope();
    const key = JSON.stringify(scope);
    if (this.checked?.key === key) return this.checked.status;
    const policy: SandboxPolicy = { ...this.policy(), network: { kind: "off" } };
    const probe = probeShapeOnce(policy, () => {
      const plan = this.spawnPlan(machine, policy, "/bin/sh", shapeProbeScript(policy), scope.roots[0] ?? "/", false);
      return runProbe(plan.file, plan.args, { ...process.env, ...plan.env });
    });
    const status = probedStatus(machine, probe, this.config.mode);
    if (!probe.transient) this.checked = { key, status };
    return status;
  }

  /**
   * Whether commands get a network namespace of their own (bubblewrap without the host network):
   * a server they start is then invisible from the host unless its ports are forwarded.
   * Seatbelt shares the host's loopback.
   */
  isolatesNetwork(): boolean {
    const status = this.status();
    return status.active && status.kind !== "seatbelt" && this.policy().network.kind !== "on";
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
      allowedDomains: this.config.allowedDomains,
      unixSockets: this.config.unixSockets ?? false,
      ...(this.config.readAllow ? { readAllow: this.config.readAllow } : {}),
    });
  }

  /** How to spawn `shell -c line` in `cwd` under this session's sandbox; throws when refused. */
  async plan(shell: string, line: string, cwd: string, options: { offline?: boolean; exportPorts?: boolean } = {}): Promise<SpawnPlan> {
    const status = this.status();
    if (status.refuse) throw new SandboxUnavailableError(status.reason);
    if (!status.active || !status.program) return { file: shell, args: ["-c", line], env: {} };
    const policy = this.policy();
    // execute_code's programs reach out only through their tool channel, whatever commands may reach.
    if (options.offline) policy.network = { kind: "off" };
    const network = policy.network;
    if (network.kind === "allowlist") {
      if (status.kind === "seatbelt") {
        const proxy = await allowlistProxy(network.domains, { loopback: true });
        network.proxyPort = proxy.address as number;
      } else {
        // The socket's folder is named after the domain list: one proxy per list, reused.
        const folder = path.join(sandboxStateDir(), `.proxy-${createHash("sha256").update(network.domains.join(",")).digest("hex").slice(0, 12)}`);
        mkdirSync(folder, { recursive: true, mode: 0o700 });
        const proxy = await allowlistProxy(network.domains, { socket: path.join(folder, "proxy.sock") });
        network.proxySocket = proxy.address as string;
      }
    }
    return this.spawnPlan(status, policy, shell, line, cwd, options.exportPorts === true);
  }

  /** The program to spawn for `policy` (its allowlist proxy, if any, already started). */
  private spawnPlan(status: SandboxStatus, policy: SandboxPolicy, shell: string, line: string, cwd: string, exportPorts: boolean): SpawnPlan {
    const program = status.program as string;
    const network = policy.network;
    if (status.kind === "seatbelt") {
      let env: Record<string, string> = { ...policy.env, TMPDIR: policy.tmpDir };
      if (network.kind === "allowlist" && network.proxyPort) env = { ...env, ...proxyEnv(`http://127.0.0.1:${network.proxyPort}`) };
      return { file: program, args: ["-p", seatbeltProfile(policy), shell, "-c", line], env, policy };
    }
    let command = [shell, "-c", line];
    let env: Record<string, string> = {};
    if (network.kind === "allowlist") {
      command = [process.execPath, "-e", FORWARDER_SCRIPT, `${SANDBOX_PROXY_DIR}/proxy.sock`, String(SANDBOX_PROXY_PORT), ...command];
      env = proxyEnv(`http://127.0.0.1:${SANDBOX_PROXY_PORT}`);
    }
    // A background command's servers live on the sandbox's own loopback: exported to the host's.
    const ipc = exportPorts && network.kind !== "on";
    if (ipc) command = [process.execPath, "-e", PORT_EXPORTER_SCRIPT, ...command];
    // The relays are Node programs run with Hermes's own runtime: in VS Code that is Electron,
    // which runs as Node only when told (the relays drop it again for the command).
    if ((ipc || network.kind === "allowlist") && process.versions.electron) env = { ...env, ELECTRON_RUN_AS_NODE: "1" };
    // The allowlist's relay reaches Hermes's proxy through a unix socket: it needs them.
    const filter = filterFile({ unixSockets: policy.unixSockets || network.kind === "allowlist" }, sandboxStateDir());
    const args = bwrapArgs(policy, { root: process.getuid?.() === 0, cwd, command, proc: procGuard(), ...(filter ? { seccompFd: SECCOMP_FD } : {}) });
    if (filter) return { ...spawnWithFilter(program, args, filter), env, policy, ...(ipc ? { ipc } : {}) };
    return { file: program, args, env, policy, ...(ipc ? { ipc } : {}) };
  }
}
