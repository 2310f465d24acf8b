// A seccomp filter for sandboxed commands, as the compiled classic-BPF program bubblewrap's
// `--seccomp FD` loads. Built here, byte by byte, so no native dependency is needed. It does
// two things:
// - refuse (EPERM) setting the setuid or setgid bit with chmod/fchmod/fchmodat(2). Inside the
//   sandbox the bit is useless (bwrap's mounts are nosuid), but it stays on disk: a command
//   running as root (CI, devcontainers) could leave a setuid-root program in the workspace;
// - unless unix sockets are allowed, refuse (EACCES) `socket(AF_UNIX, …)`. A socket file on a
//   read-only mount still accepts connect(), so any host daemon whose socket the sandbox can
//   see (a database in /run/postgresql, a socket under /opt, an abstract socket with the host
//   network) would be reachable, network off or not. seccomp cannot read the path connect()
//   is given, so the rule is "no new unix sockets at all"; socketpair() (pipes between a
//   program and its children: node, git, make) is another call and keeps working.
// Everything else is allowed. Only x86_64 and aarch64 have tables; on any other architecture
// no filter is installed (the caller skips it).

import { writeFileSync } from "node:fs";
import path from "node:path";

/** struct seccomp_data: nr (u32), arch (u32), ip (u64), args[6] (u64 each). */
const NR = 0;
const ARCH = 4;
/** Low 32 bits of args[i] (little-endian). */
const argLow = (i: number) => 16 + 8 * i;

const BPF_LD_W_ABS = 0x20;
const BPF_JEQ_K = 0x15;
const BPF_JSET_K = 0x45;
const BPF_JGE_K = 0x35;
const BPF_RET_K = 0x06;
const RET_ALLOW = 0x7fff0000;
const RET_EPERM = 0x00050000 | 1;
const RET_EACCES = 0x00050000 | 13;
const AF_UNIX = 1;
const RET_KILL = 0x80000000; // SECCOMP_RET_KILL_PROCESS: a foreign ABI (x32) or architecture
const SET_ID_BITS = 0o6000;

interface ArchTable {
  audit: number;
  /** syscall number → index of its mode argument. */
  chmods: [nr: number, modeArg: number][];
  /** Numbers at or above this belong to another ABI (x32 on x86_64). */
  foreignAbove?: number;
  /** socket(2). */
  socket: number;
}

export const SECCOMP_ARCHES: Record<string, ArchTable> = {
  x64: { audit: 0xc000003e, chmods: [[90, 1], [91, 1], [268, 2], [452, 2]], foreignAbove: 0x40000000, socket: 41 },
  arm64: { audit: 0xc00000b7, chmods: [[52, 1], [53, 2], [452, 2]], socket: 198 },
};

type Insn = [code: number, jt: number, jf: number, k: number];

export interface FilterOptions {
  /** Let commands create unix sockets (terminal.sandbox_unix_sockets, or the allowlist relay). */
  unixSockets: boolean;
}

/** The set-id filter alone (unix sockets allowed), for `arch`. */
export function setIdFilter(arch: string = process.arch): Buffer | undefined {
  return sandboxFilter({ unixSockets: true }, arch);
}

/** The filter for `arch` (node's process.arch), or undefined where there is no table. */
export function sandboxFilter(options: FilterOptions, arch: string = process.arch): Buffer | undefined {
  const table = SECCOMP_ARCHES[arch];
  if (!table) return undefined;
  const prog: Insn[] = [[BPF_LD_W_ABS, 0, 0, ARCH], [BPF_JEQ_K, 1, 0, table.audit], [BPF_RET_K, 0, 0, RET_KILL], [BPF_LD_W_ABS, 0, 0, NR]];
  if (table.foreignAbove !== undefined) prog.push([BPF_JGE_K, 0, 1, table.foreignAbove], [BPF_RET_K, 0, 0, RET_KILL]);
  // Per call: if nr matches, load its mode argument and refuse when a set-id bit is in it.
  for (const [nr, modeArg] of table.chmods) {
    prog.push([BPF_JEQ_K, 0, 4, nr], [BPF_LD_W_ABS, 0, 0, argLow(modeArg)], [BPF_JSET_K, 0, 1, SET_ID_BITS], [BPF_RET_K, 0, 0, RET_EPERM], [BPF_RET_K, 0, 0, RET_ALLOW]);
  }
  if (!options.unixSockets) prog.push([BPF_JEQ_K, 0, 3, table.socket], [BPF_LD_W_ABS, 0, 0, argLow(0)], [BPF_JEQ_K, 0, 1, AF_UNIX], [BPF_RET_K, 0, 0, RET_EACCES]);
  prog.push([BPF_RET_K, 0, 0, RET_ALLOW]);
  const out = Buffer.alloc(prog.length * 8);
  prog.forEach(([code, jt, jf, k], i) => {
    out.writeUInt16LE(code, i * 8);
    out.writeUInt8(jt, i * 8 + 2);
    out.writeUInt8(jf, i * 8 + 3);
    out.writeUInt32LE(k >>> 0, i * 8 + 4);
  });
  return out;
}

/** The descriptor bwrap reads the filter from. One digit: dash reads only single-digit descriptors in a redirection. */
export const SECCOMP_FD = 9;

/**
 * bwrap reads the filter from a descriptor: a tiny sh opens the file on it and execs bwrap
 * (same pid, so the process group and cancel work as before; bwrap closes it after loading).
 */
export function spawnWithFilter(bwrap: string, bwrapArgs: string[], filterFile: string): { file: string; args: string[] } {
  return { file: "/bin/sh", args: ["-c", `exec "$0" "$@" ${SECCOMP_FD}<'${filterFile.replace(/'/g, "'\\''")}'`, bwrap, ...bwrapArgs] };
}

const written = new Map<string, string | null>();

/** The filter's file in `dir` (written once per process, folder and variant), or undefined on an architecture without one. */
export function filterFile(options: FilterOptions, dir: string): string | undefined {
  const file = path.join(dir, options.unixSockets ? "seccomp-setid.bpf" : "seccomp-setid-nounix.bpf");
  if (!written.has(file)) {
    const program = sandboxFilter(options);
    if (program) writeFileSync(file, program, { mode: 0o600 });
    written.set(file, program ? file : null);
  }
  return written.get(file) ?? undefined;
}
