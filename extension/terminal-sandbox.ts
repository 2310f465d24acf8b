// The OS sandbox for commands the agent runs in VS Code terminals: Hermes sends its session's
// policy in terminal/create `_meta["hermes/sandbox"]`, and the command is spawned through the
// same bwrap argv / Seatbelt profile the agent uses for its own commands (shared pure modules).
// Fails closed: a policy that does not validate, or no sandbox on this machine, refuses the
// command instead of running it bare. No vscode import (unit-tested under node).
import type * as acp from "@agentclientprotocol/sdk/unstable";
import { bwrapArgs } from "../acp-server/security/sandbox/bwrap";
import { detectSandbox } from "../acp-server/security/sandbox/detect";
import { procGuard } from "../acp-server/security/sandbox/proc-guard";
import { seatbeltProfile } from "../acp-server/security/sandbox/seatbelt";
import { SANDBOX_META_KEY, WireSandboxPolicySchema } from "../acp-server/security/sandbox/wire";

/** What to advertise in initialize's clientCapabilities._meta: "I wrap terminal/create in the sandbox". */
export const SANDBOX_CAPABILITY = { [SANDBOX_META_KEY]: { version: 1 } };

export interface SandboxedSpawn {
  file: string;
  args: string[];
  env: Record<string, string>;
}

/**
 * `argv`: the program and arguments the terminal would run. Returns it wrapped in the sandbox
 * the request asks for, undefined when the request asks for none, and throws when it cannot comply.
 */
export function sandboxedSpawn(params: acp.CreateTerminalRequest, argv: string[]): SandboxedSpawn | undefined {
  const requested = params._meta?.[SANDBOX_META_KEY];
  if (requested === undefined) return undefined;
  const parsed = WireSandboxPolicySchema.safeParse(requested);
  if (!parsed.success) throw new Error(`Refused: the sandbox policy in terminal/create is invalid (${parsed.error.issues[0]?.message ?? "unknown"}).`);
  const detection = detectSandbox();
  const policy = parsed.data;
  if (detection.kind === "bwrap" && detection.program) {
    const cwd = params.cwd ?? process.cwd();
    return { file: detection.program, args: bwrapArgs(policy, { root: process.getuid?.() === 0, cwd, command: argv, proc: procGuard() }), env: {} };
  }
  if (detection.kind === "seatbelt" && detection.program) {
    return { file: detection.program, args: ["-p", seatbeltProfile(policy), ...argv], env: { TMPDIR: policy.tmpDir } };
  }
  throw new Error(`Refused: Hermes asked for this command to run in the OS sandbox, but ${detection.problem ?? "there is none here"}.`);
}
