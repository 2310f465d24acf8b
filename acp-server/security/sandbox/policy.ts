// What one sandboxed command may touch: the only input of the argv (bwrap) and profile
// (Seatbelt) builders. resolveSandboxPolicy() looks at the disk once (which credential stores
// exist, real paths behind symlinks); everything after it is pure and table-tested.
import path from "node:path";
import { isInside } from "../../util/inside-folder";
import { credentialStorePaths, realPath } from "../sensitive-paths";
import { gitMounts } from "./git-mounts";
import { pathKind } from "../../util/path-kind";

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

/** The home folder replaced by an empty read-only one, with only `visible` (read-only) shown through. */
export interface HiddenHome {
  /** The home folder (real path). */
  path: string;
  /** Folders and files under it that stay readable: toolchains, git's config. Existing ones only. */
  visible: string[];
}

export interface SandboxPolicy {
  /** Folders commands may change: the workspace roots (unless read-only) and extra roots. Real paths. */
  writable: string[];
  /**
   * Bound onto themselves, writable, before the read-only mounts: a workspace repository's `.git`,
   * so no command can rename it aside (a mount point cannot be moved). Absent in plan mode.
   */
  pinned?: string[];
  /** Mounted read-only over anything writable: $HERMES_HOME, the workspace in plan mode, and what git runs later (sandbox/git-mounts.ts). */
  readOnly: string[];
  /** Credential stores: not readable at all. Only ones that exist (nothing to hide otherwise). */
  hidden: HiddenPath[];
  /** The session's own temp folder, writable, seen as /tmp inside (Linux) and $TMPDIR everywhere. */
  tmpDir: string;
  network: NetworkPolicy;
  /** Commands may create unix sockets (terminal.sandbox_unix_sockets); otherwise seccomp refuses them. */
  unixSockets: boolean;
  /**
   * Set when the rest of the home folder is hidden: other projects' `.env`, unlisted tools'
   * tokens. The workspace, $HERMES_HOME (read-only) and the writable roots show through.
   */
  home?: HiddenHome;
  /**
   * Under the host's /tmp, which the session's replaces inside: shown read-only right after that
   * replacement (before the writable mounts): a chat worktree's main repository `.git` in /tmp,
   * or git cannot read its config and HEAD there. Linux only, and not sent to editor terminals
   * (their commits there fail, as before: the safe side).
   */
  tmpVisible?: string[];
  /** Set in the command's environment: a chat worktree's private git object folder (worktree-commit-mounts.ts). */
  env?: Record<string, string>;
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
  /**
   * terminal.sandbox_read_allow: more of the home folder to keep readable, on top of
   * HOME_READ_ALLOW (`~/x`, a path relative to the home, or an absolute one). `~` keeps the
   * whole home readable (credential stores stay hidden).
   */
  readAllow?: string[];
  /** terminal.sandbox_unix_sockets (default false). */
  unixSockets?: boolean;
}

/**
 * What stays readable of the home folder inside the sandbox: toolchains and package caches a
 * build needs, and git's own settings (identity, ignores). Nothing here holds credentials:
 * the credential stores (HOME_CREDENTIAL_STORES, e.g. ~/.cargo/credentials.toml, ~/.m2/
 * settings.xml) are hidden again on top of these. Deliberately absent: ~/.npmrc, ~/.yarnrc,
 * ~/.config/pip (registry tokens), ~/.config at large (apps' tokens), shell rc files.
 */
export const HOME_READ_ALLOW = [
  ".gitconfig", ".config/git/config", ".config/git/ignore", ".config/git/attributes", ".gitignore_global", ".gitignore",
  ".cargo", ".rustup", ".nvm", ".volta", ".fnm", ".local/share/fnm", ".local/bin", ".local/lib", ".local/share/pnpm", ".pnpm-store",
  ".npm", ".yarn", ".bun", ".deno", ".cache", "go", ".pyenv", ".rbenv", ".rvm", ".gem", ".sdkman", ".asdf", ".tool-versions",
  ".local/share/mise", ".m2", ".gradle", ".ivy2", ".sbt", ".nuget/packages", ".dotnet", ".ghcup", ".cabal", ".stack",
  ".opam", ".elan", ".julia", ".conda", "miniconda3", "anaconda3", "miniforge3", ".virtualenvs", ".local/share/virtualenvs",
];

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
    const kind = pathKind(realPath(store));
    if (kind) hidden.push({ path: realPath(store), kind });
  }
  const mountedInside = [...roots, hermes];
  for (const socket of [...HOST_SOCKET_PATHS, ...HOME_SOCKET_PATHS.map((relative) => path.join(input.home, relative))]) {
    const real = realPath(socket);
    const kind = pathKind(real);
    // Never over a folder the command works in (a workspace under /run/user would vanish).
    if (kind && !mountedInside.some((dir) => isInside(real, dir))) hidden.push({ path: real, kind });
  }
  const git = roots.map(gitMounts);
  const home = withVisible(hiddenHome(input, roots), git.flatMap((mounts) => mounts.visible ?? []));
  const hostTmp = realPath("/tmp");
  const tmpVisible = unique(git.flatMap((mounts) => mounts.visible ?? []).filter((entry) => isInside(hostTmp, entry) && entry !== hostTmp));
  const pinned = input.readOnlyWorkspace ? [] : unique(git.flatMap((mounts) => mounts.pinned));
  const env = Object.assign({}, ...git.map((mounts) => mounts.env ?? {})) as Record<string, string>;
  return {
    ...(Object.keys(env).length > 0 ? { env } : {}),
    ...(pinned.length > 0 ? { pinned } : {}),
    ...(home ? { home } : {}),
    ...(tmpVisible.length > 0 ? { tmpVisible } : {}),
    writable: input.readOnlyWorkspace ? [] : roots,
    // Plan mode still mounts the workspace (read-only) because /tmp is replaced inside.
    readOnly: unique([...(input.readOnlyWorkspace ? roots : []), ...(pathKind(hermes) === "dir" ? [hermes] : []), ...git.flatMap((mounts) => mounts.readOnly)]),
    // Still every store, also under a hidden home: the second lock if the home is shown (["~"]).
    hidden: uniqueBy(hidden, (entry) => entry.path),
    tmpDir: realPath(input.tmpDir),
    network: networkPolicy(input.allowedDomains),
    unixSockets: input.unixSockets ?? false,
  };
}

/** A chat worktree's main repository .git under the hidden home: shown read-only, or git cannot run there (worktree-commit-mounts.ts). */
function withVisible(home: HiddenHome | undefined, extra: string[]): HiddenHome | undefined {
  const inside = home ? extra.filter((entry) => isInside(home.path, entry)) : [];
  return home && inside.length > 0 ? { ...home, visible: unique([...home.visible, ...inside]) } : home;
}

/** The home folder to hide, unless the config keeps it readable or a workspace root holds it. */
function hiddenHome(input: PolicyInput, roots: string[]): HiddenHome | undefined {
  const home = realPath(input.home);
  if (home === "/" || pathKind(home) !== "dir" || roots.some((root) => isInside(root, home))) return undefined;
  const wanted = [...HOME_READ_ALLOW, ...(input.readAllow ?? [])].map((entry) => (entry === "~" ? home : entry.startsWith("~/") ? path.join(home, entry.slice(2)) : path.resolve(home, entry)));
  if (wanted.some((entry) => path.resolve(entry) === home)) return undefined;
  // Relative to the real home (a /home/you symlink into /data), existing, inside it (the rest is visible anyway).
  const visible = wanted.map((entry) => (isInside(input.home, entry) ? path.join(home, path.relative(input.home, entry)) : entry)).filter((entry) => isInside(home, entry) && entry !== home && pathKind(entry) !== undefined);
  return { path: home, visible: unique(visible) };
}

/**
 * Daemons' unix sockets: a read-only mount still lets a command connect() to a socket, and the
 * network namespace does not cover unix sockets on the file system. docker/podman/containerd
 * give root on the host; the session bus (in $XDG_RUNTIME_DIR, which the child environment
 * keeps) runs `systemd-run --user` outside the sandbox; gpg/ssh agents sign as you. Hidden like
 * credential stores, where present. A socket elsewhere stays reachable: see docs/security.md.
 */
export const HOST_SOCKET_PATHS = [
  "/run/user",
  "/run/docker.sock",
  "/run/docker",
  "/run/containerd",
  "/run/podman",
  "/run/crio",
  "/run/buildkit",
  "/run/dbus",
  "/run/systemd/private",
  "/run/systemd/userdb",
  "/run/snapd.socket",
  "/run/snapd-snap.socket",
  "/run/libvirt",
  "/run/k3s",
  "/var/snap/lxd/common/lxd",
  "/var/lib/lxd/unix.socket",
  "/var/lib/incus/unix.socket",
];
/** The same under the home folder: Docker Desktop, Colima, Rancher Desktop. */
export const HOME_SOCKET_PATHS = [".docker/run", ".colima", ".rd/docker.sock"];

function unique(paths: string[]): string[] {
  return [...new Set(paths.map((entry) => path.resolve(entry)))];
}

function uniqueBy<T>(items: T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => (seen.has(key(item)) ? false : (seen.add(key(item)), true)));
}
