// What one sandboxed command may touch: the only input of the argv (bwrap) and profile
// (Seatbelt) builders. resolveSandboxPolicy() looks at the disk once (which credential stores
// exist, real paths behind symlinks); everything after it is pure and table-tested.
import { statSync } from "node:fs";
import path from "node:path";
import { credentialStorePaths, realPath } from "../sensitive-paths";

/** `off`: no network at all; `on`: the host's network; `allowlist`: only through the domain proxy. */
export type NetworkPolicy =
  | { kind: "off" }
  | { kind: "on" }
  | { kind: "allowlist"; domains: string[]; /** Unix socket of the host-side proxy (Linux). */ proxySocket?: string; /** Loopback port of the proxy (macOS). */ proxyPort?: number };

export interface HiddenPath {
  path: string;
  /** A folder is covered by an empty read-only folder, a file by an empty unreadable one. */
  kind: "dir" | "file";
}

export interface SandboxPolicy {
  /** Folders commands may change: the workspace roots (unless read-only) and extra roots. Real paths. */
  writable: string[];
  /** Mounted read-only over anything writable: $HERMES_HOME, and the workspace in plan mode. */
  readOnly: string[];
  /** Credential stores: not readable at all. Only ones that exist (nothing to hide otherwise). */
  hidden: HiddenPath[];
  /** The session's own temp folder, writable, seen as /tmp inside (Linux) and $TMPDIR everywhere. */
  tmpDir: string;
  network: NetworkPolicy;
}

export interface PolicyInput {
  /** Workspace roots: the session cwd today; "additionalDirectories" later. */
  roots: string[];
  /** Plan mode: the workspace is mounted read-only. */
  readOnlyWorkspace: boolean;
  home: string;
  hermesHome: string;
  tmpDir: string;
  /** terminal.network.allowed_domains: [] = off, ["*"] = on, else an allowlist. */
  allowedDomains: string[];
}

/** The network policy a configured domain list means. */
export function networkPolicy(allowedDomains: string[]): NetworkPolicy {
  if (allowedDomains.length === 0) return { kind: "off" };
  if (allowedDomains.includes("*")) return { kind: "on" };
  return { kind: "allowlist", domains: [...new Set(allowedDomains.map((domain) => domain.toLowerCase()))] };
}

export function resolveSandboxPolicy(input: PolicyInput): SandboxPolicy {
  const roots = unique(input.roots.map(realPath));
  const hermes = realPath(input.hermesHome);
  const hidden: HiddenPath[] = [];
  for (const store of credentialStorePaths(input.home, input.hermesHome)) {
    const kind = kindOf(realPath(store));
    if (kind) hidden.push({ path: realPath(store), kind });
  }
  return {
    writable: input.readOnlyWorkspace ? [] : roots,
    // Plan mode still mounts the workspace (read-only) because /tmp is replaced inside.
    readOnly: unique([...(input.readOnlyWorkspace ? roots : []), ...(kindOf(hermes) === "dir" ? [hermes] : [])]),
    hidden: uniqueBy(hidden, (entry) => entry.path),
    tmpDir: realPath(input.tmpDir),
    network: networkPolicy(input.allowedDomains),
  };
}

function kindOf(target: string): "dir" | "file" | undefined {
  try {
    const info = statSync(target);
    return info.isDirectory() ? "dir" : "file";
  } catch {
    return undefined;
  }
}

function unique(paths: string[]): string[] {
  return [...new Set(paths.map((entry) => path.resolve(entry)))];
}

function uniqueBy<T>(items: T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => (seen.has(key(item)) ? false : (seen.add(key(item)), true)));
}
