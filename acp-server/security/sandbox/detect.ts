// Whether commands can run in an OS sandbox here, found once per process and only when the
// first command (or /context) asks: never at `initialize`. Linux: a bubblewrap that really
// starts a sandbox (a probe run, since user namespaces may be disabled); macOS: sandbox-exec.
import { spawnSync } from "node:child_process";
import { accessSync, constants } from "node:fs";
import path from "node:path";
import { SANDBOX_EXEC } from "./seatbelt";

export type SandboxSetting = "auto" | "on" | "off";
export type SandboxKind = "bwrap" | "seatbelt" | "none";

export interface SandboxDetection {
  kind: SandboxKind;
  /** The program to run (bwrap's path, sandbox-exec). */
  program?: string;
  /** Why there is none, when kind is "none". */
  problem?: string;
}

export interface SandboxStatus {
  /** A sandbox exists on this machine. */
  available: boolean;
  /** Commands run inside it (available and not turned off). */
  active: boolean;
  kind: SandboxKind;
  /** One sentence for /context and refusals. */
  reason: string;
  /** `on` with no sandbox: commands are refused rather than run bare. */
  refuse: boolean;
  program?: string;
}

let detected: SandboxDetection | undefined;

export function detectSandbox(): SandboxDetection {
  detected ??= probe();
  return detected;
}

export function sandboxStatus(setting: SandboxSetting, detection: SandboxDetection = setting === "off" ? { kind: "none" } : detectSandbox()): SandboxStatus {
  if (setting === "off") return { available: detection.kind !== "none", active: false, kind: "none", refuse: false, reason: "terminal.sandbox is off: commands run without an OS sandbox." };
  if (detection.kind === "none") {
    const problem = detection.problem ?? "no OS sandbox on this platform";
    return setting === "on"
      ? { available: false, active: false, kind: "none", refuse: true, reason: `terminal.sandbox is on but ${problem}, so commands are refused. Install it, or set terminal.sandbox: auto (run without) in config.yaml.` }
      : { available: false, active: false, kind: "none", refuse: false, reason: `No OS sandbox: ${problem}; commands run without one (command screening is the only layer).` };
  }
  const name = detection.kind === "bwrap" ? "bubblewrap" : "Seatbelt (sandbox-exec)";
  return { available: true, active: true, kind: detection.kind, refuse: false, program: detection.program, reason: `Commands run in an OS sandbox (${name}).` };
}

function probe(): SandboxDetection {
  if (process.platform === "darwin") {
    return executable(SANDBOX_EXEC) ? { kind: "seatbelt", program: SANDBOX_EXEC } : { kind: "none", problem: `${SANDBOX_EXEC} is missing` };
  }
  if (process.platform !== "linux") return { kind: "none", problem: `no OS sandbox is supported on ${process.platform}` };
  const bwrap = findOnPath("bwrap");
  if (!bwrap) return { kind: "none", problem: "bubblewrap (bwrap) is not installed (apt-get install bubblewrap, dnf install bubblewrap)" };
  // The same namespaces real commands use: a kernel without unprivileged user namespaces fails here.
  const root = process.getuid?.() === 0;
  const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--unshare-pid", "--proc", "/proc", "--unshare-net", ...(root ? ["--cap-drop", "ALL"] : []), "--", "true"];
  const run = spawnSync(bwrap, args, { stdio: ["ignore", "ignore", "pipe"], timeout: 5000 });
  if (run.status === 0) return { kind: "bwrap", program: bwrap };
  const detail = run.error?.message ?? run.stderr?.toString().trim() ?? `exit ${run.status}`;
  return { kind: "none", problem: `bubblewrap cannot start a sandbox here (${detail || `exit ${run.status}`})` };
}

function findOnPath(name: string): string | undefined {
  const dirs = (process.env.PATH ?? "").split(path.delimiter).filter(Boolean);
  for (const dir of [...dirs, "/usr/bin", "/usr/local/bin"]) {
    const candidate = path.join(dir, name);
    if (executable(candidate)) return candidate;
  }
  return undefined;
}

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    // expected: not there or not executable: that sandbox tool is not available
    return false;
  }
}
