// Paths that are never touched without the user's say-so (except in dont_ask mode), and the
// workspace boundary. Both compare real paths, so a symlink cannot smuggle a path across.
import { existsSync, realpathSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { hermesHome } from "../config/paths";
import { isInside } from "../util/inside-folder";

/**
 * The real path of `target`, resolving symlinks of its nearest existing ancestor. Every file
 * tool call resolves ~60 credential-store paths, most of them missing: existsSync answers a
 * missing one without building an exception, and the native realpath is one syscall instead
 * of an lstat per component.
 */
export function realPath(target: string): string {
  return realPathSharing(target, undefined);
}

/** realPath, with the folders already resolved during one check shared through `resolved`. */
function realPathSharing(target: string, resolved: Map<string, string | undefined> | undefined): string {
  const absolute = path.resolve(target);
  const missing: string[] = [];
  let current = absolute;
  for (;;) {
    let real: string | undefined;
    if (resolved?.has(current)) real = resolved.get(current);
    else {
      real = resolveExisting(current);
      resolved?.set(current, real);
    }
    if (real !== undefined) return path.join(real, ...missing.reverse());
    const parent = path.dirname(current);
    if (parent === current) return absolute;
    missing.push(path.basename(current));
    current = parent;
  }
}

/** The real path of `file` if it exists and resolves, else undefined. */
function resolveExisting(file: string): string | undefined {
  if (!existsSync(file)) return undefined;
  try {
    return realpathSync.native(file);
  } catch {
    return undefined; // exists but cannot be resolved (a permission on the way): its parent is tried, as for a missing one
  }
}

/**
 * A session's workspace: its folder (cwd), or its roots in order, the cwd first and then the
 * extra roots the client declared (ACP `additionalDirectories`). A path in any root is inside.
 */
export type Workspace = string | readonly string[];

/** The workspace's roots, the cwd first. */
export function workspaceRoots(workspace: Workspace): readonly string[] {
  return typeof workspace === "string" ? [workspace] : workspace;
}

/**
 * Inside one of the workspace's roots after resolving `..` and symlinks on both sides
 * (util/inside-folder.ts is the lexical check; the real paths are what keep a symlink from
 * leading out of every root).
 */
export function insideWorkspace(workspace: Workspace, target: string): boolean {
  const real = realPath(target);
  return workspaceRoots(workspace).some((root) => isInside(realPath(root), real));
}

/**
 * THE list of credential files (basename globs: `*` any run of characters, `?` one), shared
 * by read/edit policy and search_files (its own filter and ripgrep's ignore file). Templates
 * of env files are meant to be shared and hold no secrets, so they are exceptions.
 */
export const SENSITIVE_FILE_GLOBS: readonly string[] = [
  ".env", ".env.*", "*.env", ".envrc",
  "id_rsa*", "id_dsa*", "id_ecdsa*", "id_ed25519*", "*.pem", "*.key", "*.p12", "*.pfx", "*.keystore", "*.jks", "*.kdbx",
  ".netrc", "_netrc", ".pypirc", ".npmrc", ".yarnrc.yml", ".git-credentials", ".htpasswd", ".pgpass", ".my.cnf",
  "credentials", "credentials.json", "credentials.*", "secrets.*", "secret.*", "*.tfvars", "*.tfvars.json", "*.tfstate", "*.tfstate.*",
  "kubeconfig", "*.kubeconfig", "service-account*.json", "client_secret*.json",
];
/** Env templates (`.env.example`, `config.env.sample`, …): checked before the list above. */
export const SENSITIVE_EXCEPTION_GLOBS: readonly string[] = ["*.example", "*.sample", "*.template", "*.dist", "*.defaults"];
/** Folders whose whole content is sensitive. */
export const SENSITIVE_DIRS: readonly string[] = [".git", ".ssh", ".aws", ".gnupg", ".kube", ".docker", ".azure", ".gcloud", ".password-store"];

const toRegex = (glob: string) => new RegExp(`^${glob.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".")}$`, "i");
const NAME_PATTERNS = SENSITIVE_FILE_GLOBS.map(toRegex);
const EXCEPTION_PATTERNS = SENSITIVE_EXCEPTION_GLOBS.map(toRegex);

/** Whether a file name is on the credential list. */
export function isSensitiveName(name: string): boolean {
  return !EXCEPTION_PATTERNS.some((pattern) => pattern.test(name)) && NAME_PATTERNS.some((pattern) => pattern.test(name));
}

/**
 * Whether a path, relative to a folder being searched, is a credential file or lies in a
 * credential folder. Pure (no file system): search_files calls it for every file it lists.
 */
export function isSensitiveRelative(relative: string): boolean {
  const parts = relative.split(/[\\/]/);
  return isSensitiveName(parts.at(-1) ?? "") || parts.slice(0, -1).some((part) => SENSITIVE_DIRS.includes(part));
}

/**
 * Why a file tool must ask before it even looks at `target`: outside the workspace (after
 * resolving symlinks) or a credential. Empty when the path is an ordinary workspace file.
 * Reading first would leak: a refused patch's "not found" answer is an oracle on the content.
 */
export function guardedPathReasons(workspace: Workspace, target: string): string[] {
  const reasons: string[] = [];
  const sensitive = sensitiveReason(target);
  if (sensitive) reasons.push(`sensitive path: ${sensitive}`);
  if (!insideWorkspace(workspace, target)) reasons.push(`outside the workspace: ${target}`);
  return reasons;
}

/**
 * Credential stores under the home folder, relative to it. The OS sandbox hides every one that
 * exists (a command cannot even read them), and the same list is what the policy treats as
 * credentials: ONE list, so a store added here is covered everywhere.
 */
export const HOME_CREDENTIAL_STORES = [
  ".ssh",
  ".aws",
  ".gnupg",
  ".kube",
  ".docker/config.json",
  ".config/gh",
  ".config/gcloud",
  ".config/hub",
  ".config/op",
  ".config/doctl",
  ".azure",
  ".oci",
  ".npmrc",
  ".yarnrc.yml",
  ".pypirc",
  ".netrc",
  ".git-credentials",
  ".config/git/credentials",
  ".cargo/credentials",
  ".cargo/credentials.toml",
  ".gem/credentials",
  ".terraform.d/credentials.tfrc.json",
  ".vault-token",
  ".pgpass",
  ".my.cnf",
  ".password-store",
  ".local/share/keyrings",
  // Cloud and service CLIs' tokens.
  ".boto",
  ".s3cfg",
  ".config/rclone",
  ".m2/settings.xml",
  ".gradle/gradle.properties",
  ".config/configstore",
  ".config/stripe",
  ".fly",
  ".databrickscfg",
  ".config/ngrok",
  ".ngrok2",
  ".config/composer/auth.json",
  ".composer/auth.json",
  // Shell and REPL histories: tokens typed on a command line end up there.
  ".bash_history",
  ".zsh_history",
  ".local/share/fish/fish_history",
  ".python_history",
  ".node_repl_history",
  ".psql_history",
  ".mysql_history",
  ".sqlite_history",
  // Browser profiles: cookies and saved passwords are live sessions.
  ".mozilla",
  "snap/firefox",
  "snap/chromium",
  ".config/google-chrome",
  ".config/chromium",
  ".config/BraveSoftware",
  ".config/microsoft-edge",
  // Editors' secret storage (extension tokens, signed-in accounts).
  ".config/Code/User/globalStorage",
  ".config/Code - OSS/User/globalStorage",
  ".config/VSCodium/User/globalStorage",
  ".config/Cursor/User/globalStorage",
];

/** Absolute credential-store paths for `home`, plus Hermes's own secrets ($HERMES_HOME/.env). */
export function credentialStorePaths(home: string, hermesHomeDir: string = hermesHome()): string[] {
  return [...HOME_CREDENTIAL_STORES.map((relative) => path.join(home, relative)), path.join(hermesHomeDir, ".env")];
}

/** Why `target` is sensitive, or undefined. Both the path as given and its real path count. */
export function sensitiveReason(target: string): string | undefined {
  const real = realPath(target);
  for (const candidate of new Set([real, path.resolve(target)])) {
    const dir = candidate.split(path.sep).find((part) => SENSITIVE_DIRS.includes(part));
    if (dir) return `it is inside a ${dir}/ folder`;
    const name = path.basename(candidate);
    if (isSensitiveName(name)) return `${name} may hold credentials`;
  }
  // The stores share their ancestors (~, ~/.config, ~/.local/share): each folder is resolved once
  // per check, not once per store. Nothing is kept between checks: a symlink made later counts.
  const resolved = new Map<string, string | undefined>();
  const store = credentialStorePaths(os.homedir()).find((candidate) => isInside(realPathSharing(candidate, resolved), real));
  if (store) return `${store} is a credential store`;
  if (isInside(realPath(hermesHome()), real) && /^(config\.yaml|\.env)$/.test(path.basename(real))) return "it is Hermes's own configuration";
  return undefined;
}
