// The bubblewrap command line for one sandboxed command (Linux). Pure: policy in, argv out.
// Mount order matters, later mounts cover earlier ones: the whole host read-only, then the
// writable places (and .git pinned as its own mount), then what must stay read-only even inside them ($HERMES_HOME, a plan-mode
// workspace), then the credential stores hidden last so nothing can uncover them.
// This module has no server dependencies: the VS Code extension imports it too.
import type { HiddenPath, SandboxPolicy } from "./policy";
import type { ProcGuard } from "./proc-guard";

/**
 * Where the host proxy's socket folder appears inside (read-only, so a command cannot remove
 * the socket; under /tmp because bwrap cannot create a mount point in the read-only host tree).
 */
export const SANDBOX_PROXY_DIR = "/tmp/.hermes-proxy";
/** The loopback port the in-sandbox forwarder listens on (HTTP(S)_PROXY points here). */
export const SANDBOX_PROXY_PORT = 3128;

export interface BwrapOptions {
  /** Running as root: drop every capability, or the command could remount / read-write. */
  root: boolean;
  cwd: string;
  /** The program and its arguments to run inside (e.g. ["/bin/bash", "-c", line]). */
  command: string[];
  /** What of /proc to lock and mask: procGuard() (required, so no caller forgets it). */
  proc: ProcGuard;
  /** A descriptor bwrap reads a seccomp program from (seccomp.ts); the caller opens it. */
  seccompFd?: number;
}

export function bwrapArgs(policy: SandboxPolicy, options: BwrapOptions): string[] {
  const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--unshare-pid", "--proc", "/proc", "--unshare-ipc", "--die-with-parent"];
  // No --new-session: the command must stay in the process group Hermes kills on cancel.
  // Right after the new /proc (see proc-guard.ts: as root, /proc/sys reaches the host kernel).
  // The sources are the host's procfs entries, bound read-only over the sandbox's.
  for (const entry of options.proc.readOnly) args.push("--ro-bind", entry, entry);
  for (const masked of options.proc.masked) pushHidden(args, masked);
  if (options.root) args.push("--cap-drop", "ALL");
  if (policy.network.kind !== "on") args.push("--unshare-net");
  // The home folder becomes an empty tmpfs with only the allowed entries bound back (read-only,
  // through their links); the workspace and the rest are mounted over it below, then it is
  // made read-only last (non-recursive, so the writable workspace inside stays writable).
  // /tmp before the home: a HOME under /tmp (CI, containers) mounted first was buried under
  // the session's /tmp, and bwrap then failed every command remounting a home no longer there.
  // A HOME that is /tmp itself is hidden by that replacement already.
  const home = policy.home && policy.home.path !== "/tmp" ? policy.home : undefined;
  args.push("--bind", policy.tmpDir, "/tmp");
  // What of the host's /tmp must show through the session's (a chat worktree's main .git), read-only.
  for (const entry of policy.tmpVisible ?? []) args.push("--ro-bind-try", entry, entry);
  if (home) {
    args.push("--tmpfs", home.path);
    for (const entry of home.visible) args.push("--ro-bind-try", entry, entry);
  }
  // A read-only folder that holds a writable root ($HERMES_HOME holding a chat's worktree under
  // worktrees/) goes first: mounted after, it would cover the root and make it read-only.
  const covering = policy.readOnly.filter((dir) => policy.writable.some((root) => root.startsWith(`${dir}/`)));
  for (const dir of covering) args.push("--ro-bind", dir, dir);
  // Writable roots after /tmp: a workspace under the host's /tmp shows through the session's.
  for (const dir of policy.writable) args.push("--bind", dir, dir);
  // A repository's .git onto itself: a mount point, so it cannot be renamed aside (git-mounts.ts).
  for (const dir of policy.pinned ?? []) args.push("--bind", dir, dir);
  for (const dir of policy.readOnly) if (!covering.includes(dir)) args.push("--ro-bind", dir, dir);
  for (const hidden of policy.hidden) pushHidden(args, hidden);
  if (policy.network.kind === "allowlist" && policy.network.proxySocket) {
    args.push("--ro-bind", dirname(policy.network.proxySocket), SANDBOX_PROXY_DIR);
  }
  if (home) args.push("--remount-ro", home.path);
  if (options.seccompFd !== undefined) args.push("--seccomp", String(options.seccompFd));
  // Git's object folders of a chat worktree (worktree-commit-mounts.ts); unset, a commit fails (read-only).
  for (const [name, value] of Object.entries(policy.env ?? {})) args.push("--setenv", name, value);
  args.push("--setenv", "TMPDIR", "/tmp", "--chdir", options.cwd, "--", ...options.command);
  return args;
}

/** A folder is covered by an empty read-only tmpfs, anything else by /dev/null. */
function pushHidden(args: string[], hidden: HiddenPath): void {
  if (hidden.kind === "dir") args.push("--tmpfs", hidden.path, "--remount-ro", hidden.path);
  else args.push("--ro-bind", "/dev/null", hidden.path);
}

/** The folder part of an absolute path (no node:path: this module is shared with the extension). */
function dirname(file: string): string {
  return file.slice(0, file.lastIndexOf("/")) || "/";
}

/** Environment variables that send HTTP(S) clients inside the sandbox through the allowlist proxy. */
export function proxyEnv(url: string): Record<string, string> {
  return { HTTP_PROXY: url, HTTPS_PROXY: url, http_proxy: url, https_proxy: url, NO_PROXY: "", no_proxy: "" };
}
