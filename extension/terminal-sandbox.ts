// The OS sandbox for commands the agent runs in VS Code terminals: Hermes sends its session's
// policy in terminal/create `_meta["hermes/sandbox"]`, and the command is spawned through the
// same bwrap argv / Seatbelt profile the agent uses for its own commands (shared pure modules).
// Fails closed: a policy that does not validate, or no sandbox on this machine, refuses the
// command instead of running it bare. No vscode import (unit-tested under node).
import type * as acp from "@agentclientprotocol/sdk/unstable";
import { bwrapArgs } from "../acp-server/security/sandbox/bwrap";
import { detectSandbox } from "../acp-server/security/sandbox/detect";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { procGuard } from "../acp-server/security/sandbox/proc-guard";
import { SECCOMP_FD, filterFile, spawnWithFilter } from "../acp-server/security/sandbox/seccomp";
import { seatbeltProfile } from "../acp-server/security/sandbox/seatbelt";
import { SANDBOX_META_KEY, WireSandboxPolicySchema } from "../acp-server/security/sandbox/wire";

/** What to advertise in initialize's clientCapabilities._meta: "I wrap terminal/create in the sandbox". */
export const SANDBOX_CAPABILITY = { [SANDBOX_META_KEY]: { version: 1 } };

export interface SandboxedSpawn {
  file: string;
  args: string[];
  env: Record<string, string>;
  /** terminal.env_passthrough: kept on top of the child-environment allowlist. */
  passthrough: string[];
}

let privateDir: string | undefined;

/** A folder only this process writes, for the filter's file (bwrap reads it on a descriptor). */
function filterDir(): string {
  privateDir ??= mkdtempSync(path.join(os.tmpdir(), "hermes-terminal-sandbox-"));
  return privateDir;
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
  const policy = { ...parsed.data, unixSockets: parsed.data.unixSockets ?? false };
  if (detection.kind === "bwrap" && detection.program) {
    const cwd = params.cwd ?? process.cwd();
    // The same seccomp filter as the agent's own commands: no set-id bits, no unix sockets unless allowed.
    const filter = filterFile({ unixSockets: policy.unixSockets }, filterDir());
    const args = bwrapArgs(policy, { root: process.getuid?.() === 0, cwd, command: argv, proc: procGuard(), ...(filter ? { seccompFd: SECCOMP_FD } : {}) });
    return { ...(filter ? spawnWithFilter(detection.program, args, filter) : { file: detection.program, args }), env: {}, passthrough: policy.envPassthrough ?? [] };
  }
  if (detection.kind === "seatbelt" && detection.program) {
    return { file: detection.program, args: ["-p", seatbeltProfile(policy), ...argv], env: { ...policy.env, TMPDIR: policy.tmpDir }, passthrough: policy.envPassthrough ?? [] };
  }
  throw new Error(`Refused: Hermes asked for this command to run in the OS sandbox, but ${detection.problem ?? "there is none here"}.`);
}
