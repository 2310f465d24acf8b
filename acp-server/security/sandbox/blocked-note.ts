// When a sandboxed command fails, says what the sandbox probably blocked, so the model does
// not chase a phantom bug ("Read-only file system" is the sandbox, not a broken disk) and
// knows its options: work inside the workspace, or ask the user to run it once outside.
import path from "node:path";
import { isInside } from "../../util/inside-folder";
import type { SandboxPolicy } from "./policy";

type Failure = "read-only" | "denied" | "missing";
/** `cmd: /path: Read-only file system`, `touch: cannot touch '/path': Permission denied`. */
const SHELL_ERROR = /(?<=^|[\s'"`(])([^\s'"`:()]+)['"`]?: (Read-only file system|Permission denied|Operation not permitted|No such file or directory)/g;
/** Node and friends: `EROFS: read-only file system, open '/path'`. */
const ERRNO_ERROR = /\b(EROFS|EACCES|EPERM|ENOENT)\b[^'\n]*'(\/[^'\n]+)'/g;
const KIND: Record<string, Failure> = {
  "Read-only file system": "read-only",
  EROFS: "read-only",
  "Permission denied": "denied",
  "Operation not permitted": "denied",
  EACCES: "denied",
  EPERM: "denied",
  "No such file or directory": "missing",
  ENOENT: "missing",
};

function pathFailures(output: string): { path: string; kind: Failure }[] {
  const found = [...output.matchAll(SHELL_ERROR)]
    .map((match) => ({ path: match[1] as string, kind: KIND[match[2] as string] as Failure }))
    // A relative path ("readme.md: Read-only file system") is clear enough for a write; for
    // reads it cannot be placed against the hidden stores, so only absolute ones count there.
    .filter((failure) => failure.kind === "read-only" || failure.path.startsWith("/"));
  for (const match of output.matchAll(ERRNO_ERROR)) found.push({ path: match[2] as string, kind: KIND[match[1] as string] as Failure });
  return found;
}

const NETWORK =
  /(Could not resolve host|Temporary failure in name resolution|Name or service not known|getaddrinfo E(?:AI_AGAIN|NOTFOUND)|Network is unreachable|ENETUNREACH|Couldn't connect to server|Failed to connect|Connection refused|ECONNREFUSED|Cannot assign requested address|unable to access '[^']*': Could not|CONNECT tunnel failed|Received HTTP code 403 from proxy)/i;
const LOCAL_TARGET = /\b(localhost|127\.0\.0\.1|0\.0\.0\.0|\[?::1\]?)(:\d+)?\b/;
const PROXY_REFUSED = /hermes sandbox: (\S+) is not in terminal\.network\.allowed_domains/;

export function sandboxBlockedNote(output: string, policy: SandboxPolicy): string | undefined {
  const writable = describeWritable(policy);
  const outside = " If it really must run outside the sandbox, call the terminal tool again with unsandboxed: true and a reason; the user is asked.";
  const gitConfig = output.match(/could not (?:write|lock) config file ([^:\n]+)/);
  if (gitConfig && policy.readOnly.some((dir) => dir.endsWith(`${path.sep}config`)))
    return `The sandbox keeps ${gitConfig[1]} (and .git/hooks) read-only: git runs what they say later, outside any sandbox, so a command may not change them.${outside}`;
  // A pinned or read-only mount point cannot be renamed or removed: EBUSY, not EROFS.
  if (policy.pinned?.length && /\.git\b[^\n]*(Device or resource busy|\bEBUSY\b)/.test(output))
    return `The sandbox keeps the repository's .git folder and its hooks, config and gitfiles in place: git runs them later, outside any sandbox, so a command may not move or replace them.${outside}`;
  const failures = pathFailures(output);
  const hidden = failures.find((failure) => failure.kind !== "read-only" && hiddenBy(policy, failure.path));
  if (hidden) return `The sandbox hid ${hidden.path}: credential stores are not readable by commands, nor host daemons' sockets reachable.${outside}`;
  const readOnly = failures.find((failure) => failure.kind === "read-only");
  if (readOnly) return `The sandbox blocked writing ${readOnly.path}: ${writable}.${outside}`;
  // Inside, /tmp is the session's own folder: the host's /tmp (other than the workspace) is not there.
  const hostTmp = failures.find((failure) => failure.kind === "missing" && within("/tmp", failure.path) && !mounted(policy, failure.path));
  if (hostTmp) return `The sandbox does not show ${hostTmp.path}: inside it, /tmp is this session's own temp folder, and the host's /tmp is out of reach; ${writable}.${outside}`;
  const denied = failures.find((failure) => failure.kind === "denied" && !isWritable(policy, failure.path));
  if (denied) return `The sandbox may have blocked ${denied.path}: ${writable}, and credential stores are hidden.${outside}`;
  const proxy = output.match(PROXY_REFUSED);
  if (proxy) return `The sandbox's network allowlist refused ${proxy[1]}: only ${policy.network.kind === "allowlist" ? policy.network.domains.join(", ") : "listed domains"} are reachable (terminal.network.allowed_domains in config.yaml).${outside}`;
  if (policy.network.kind !== "on" && NETWORK.test(output)) {
    const how = policy.network.kind === "off" ? "commands have no network (terminal.network.allowed_domains is empty)" : `only ${policy.network.domains.join(", ")} are reachable, through an HTTP proxy`;
    // Each command has its own loopback: a server another (background) command started is not on it.
    const local = LOCAL_TARGET.test(output)
      ? " Each sandboxed command has its own network namespace, so a server started by another command (e.g. in the background) is not reachable from this one: start the server and its client in the same command, or the user sets terminal.network.allowed_domains: [\"*\"]."
      : "";
    return `The sandbox probably blocked a network connection: ${how}.${local}${outside}`;
  }
  return undefined;
}

function describeWritable(policy: SandboxPolicy): string {
  if (policy.writable.length === 0) return "plan mode is read-only, only /tmp (the session's temp folder) is writable";
  return `only the workspace (${policy.writable.join(", ")}) and /tmp (the session's temp folder) are writable`;
}

function hiddenBy(policy: SandboxPolicy, target: string): boolean {
  return policy.hidden.some((entry) => within(entry.path, target));
}

function isWritable(policy: SandboxPolicy, target: string): boolean {
  return [...policy.writable, "/tmp"].some((dir) => within(dir, target)) && !policy.readOnly.some((dir) => within(dir, target));
}

function mounted(policy: SandboxPolicy, target: string): boolean {
  return [...policy.writable, ...policy.readOnly].some((dir) => within(dir, target));
}

function within(root: string, target: string): boolean {
  return isInside(root, path.resolve(target));
}
