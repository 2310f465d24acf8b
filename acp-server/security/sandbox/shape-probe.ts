// The session's half of "is the sandbox active": a probe command run inside the sandbox with
// the very mounts a real command of this session gets (home hidden, /tmp replaced, workspace
// bound, $HERMES_HOME read-only), checking from inside that the walls stand where they should.
// detect.ts only proves the machine can start a sandbox; a mount that fails for this session's
// paths (a HOME under /tmp made every command fail while the status said "active") shows up
// here, and the status then says exactly what failed instead of "active".
import type { ProbeRun } from "./detect";
import { failureText, type SandboxStatus } from "./detect";
import type { SandboxPolicy } from "./policy";

/** Lines the probe prints on stderr for a wall that is not where it should be. */
const MARK = "hermes-probe:";

export interface ShapeProbeResult {
  ok: boolean;
  /** The exact failure: the sandbox program's own message, or which wall the probe found wrong. */
  problem?: string;
  /** The run could not start or timed out: not kept, the next command probes again. */
  transient?: boolean;
}

/** The probe's shell script: the session's /tmp and each writable root writable, each read-only place refusing a write. */
export function shapeProbeScript(policy: SandboxPolicy): string {
  const fail = (what: string) => `{ echo ${quote(`${MARK} ${what}`)} >&2; failed=1; }`;
  const checks = [`test -w "\${TMPDIR:-/tmp}" || ${fail("the temp folder is not writable")}`];
  for (const dir of policy.writable) checks.push(`test -w ${quote(dir)} || ${fail(`${dir} is not writable`)}`);
  // A real write attempt, not `test -w`: access(2) need not consult Seatbelt's rules. A folder
  // gets a new file (removed at once if it was created: the wall is missing); a file is opened
  // for appending and nothing written, which leaves its content as it was.
  for (const entry of policy.readOnly) {
    const q = quote(entry);
    const probeFile = quote(`${entry}/.hermes-probe`);
    checks.push(`if [ -d ${q} ]; then ( : > ${probeFile} ) 2>/dev/null && { rm -f ${probeFile}; ${fail(`${entry} is writable`)}; }; else ( : >> ${q} ) 2>/dev/null && ${fail(`${entry} is writable`)}; fi`);
  }
  return `failed=0; ${checks.join("; ")}; exit $failed`;
}

/** What one probe run says: fine, or the exact failure. */
export function readShapeProbe(run: ProbeRun): ShapeProbeResult {
  if (run.status === 0 && !run.error) return { ok: true };
  const walls = run.stderr.split("\n").filter((line) => line.startsWith(MARK)).map((line) => line.slice(MARK.length).trim());
  return { ok: false, problem: walls.length > 0 ? `inside the sandbox ${walls.join("; ")}` : failureText(run), ...(run.error ? { transient: true } : {}) };
}

/** The machine's status after this session's probe: not active (refused with `on`) when the probe failed. */
export function probedStatus(status: SandboxStatus, probe: ShapeProbeResult, setting: "auto" | "on" | "off"): SandboxStatus {
  if (!status.active || probe.ok) return status;
  const failed = `the sandbox failed its probe run (a command with this session's mounts): ${probe.problem ?? "unknown failure"}`;
  return setting === "on"
    ? { ...status, active: false, refuse: true, reason: `terminal.sandbox is on but ${failed}, so commands are refused. Fix the cause, or set terminal.sandbox: auto (run without) in config.yaml.` }
    : { ...status, active: false, refuse: false, reason: `No OS sandbox: ${failed}; commands run without one.` };
}

const results = new Map<string, ShapeProbeResult>();

/**
 * The probe's result for one shape (the policy's mounts), run once per process. A run that
 * could not start or timed out (a loaded machine) is not kept: the next command probes again.
 */
export function probeShapeOnce(policy: SandboxPolicy, run: () => ProbeRun): ShapeProbeResult {
  const key = JSON.stringify([policy.writable, policy.readOnly, policy.hidden, policy.home, policy.tmpDir, policy.unixSockets, policy.tmpVisible]);
  const known = results.get(key);
  if (known) return known;
  const result = readShapeProbe(run());
  if (!result.transient) results.set(key, result);
  return result;
}

/** A single-quoted shell word. */
function quote(text: string): string {
  return `'${text.replace(/'/g, "'\\''")}'`;
}
