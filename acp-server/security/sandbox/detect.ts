// Whether commands can run in an OS sandbox here, found once per process and only when the
// first command (or /context) asks: never at `initialize`. Linux: a bubblewrap that really
// starts a sandbox (a probe run, since user namespaces may be disabled); macOS: sandbox-exec
// that really applies a profile (a probe run: the program existing proves nothing, it is
// deprecated and may refuse every profile). This is the machine's half of the answer; the
// session's half (the real mounts of a real command) is shape-probe.ts.
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

/** How detection reaches the machine: injected by tests of the decision (macOS cannot run here). */
export interface DetectionProbes {
  platform: NodeJS.Platform;
  executable(file: string): boolean;
  findOnPath(name: string): string | undefined;
  run(file: string, args: string[]): ProbeRun;
  root: boolean;
}

/** One probe run: its exit status and what it said on stderr (or why it could not start). */
export interface ProbeRun {
  status: number | null;
  stderr: string;
  error?: string;
}

/** The smallest profile that still makes sandbox-exec compile and apply one. */
const SEATBELT_PROBE_PROFILE = "(version 1)(allow default)(deny file-write* (subpath \"/System\"))";

export function detectWith(probes: DetectionProbes): SandboxDetection {
  if (probes.platform === "darwin") {
    if (!probes.executable(SANDBOX_EXEC)) return { kind: "none", problem: `${SANDBOX_EXEC} is missing` };
    const run = probes.run(SANDBOX_EXEC, ["-p", SEATBELT_PROBE_PROFILE, "/usr/bin/true"]);
    if (run.status === 0) return { kind: "seatbelt", program: SANDBOX_EXEC };
    return { kind: "none", problem: `${SANDBOX_EXEC} cannot apply a profile here (${failureText(run)})` };
  }
  if (probes.platform !== "linux") return { kind: "none", problem: `no OS sandbox is supported on ${probes.platform}` };
  const bwrap = probes.findOnPath("bwrap");
  if (!bwrap) return { kind: "none", problem: "bubblewrap (bwrap) is not installed (apt-get install bubblewrap, dnf install bubblewrap)" };
  // The same namespaces real commands use: a kernel without unprivileged user namespaces fails here.
  const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--unshare-pid", "--proc", "/proc", "--unshare-net", ...(probes.root ? ["--cap-drop", "ALL"] : []), "--", "true"];
  const run = probes.run(bwrap, args);
  if (run.status === 0) return { kind: "bwrap", program: bwrap };
  return { kind: "none", problem: `bubblewrap cannot start a sandbox here (${failureText(run)})` };
}

/** The exact failure of a probe run, as the program put it. */
export function failureText(run: ProbeRun): string {
  return run.error ?? (run.stderr.trim() || `exit ${run.status ?? "by signal"}`);
}

/** Runs a probe with no input, a time limit, and its stderr kept. */
export function runProbe(file: string, args: string[], env?: NodeJS.ProcessEnv): ProbeRun {
  const run = spawnSync(file, args, { stdio: ["ignore", "ignore", "pipe"], timeout: 5000, ...(env ? { env } : {}) });
  return { status: run.status, stderr: run.stderr?.toString() ?? "", ...(run.error ? { error: run.error.message } : {}) };
}

function probe(): SandboxDetection {
  return detectWith({ platform: process.platform, executable, findOnPath, run: runProbe, root: process.getuid?.() === 0 });
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
