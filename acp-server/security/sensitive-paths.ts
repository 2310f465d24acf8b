// Paths that are never touched without the user's say-so (except in dont_ask mode), and the
// workspace boundary. Both compare real paths, so a symlink cannot smuggle a path across.
import { existsSync, lstatSync, readdirSync, readlinkSync, realpathSync, type Dirent } from "node:fs";
import os from "node:os";
import path from "node:path";
import { hermesHome } from "../config/paths";
import { inHermesWorktrees } from "./hermes-worktrees";
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
function realPathSharing(target: string, resolved: Map<string, string | undefined> | undefined, hops = 0): string {
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
    // A dangling symlink is where a write through it lands: its target, resolved the same way
    // (a link loop stops at the kernel's own limit and keeps the last name, which no write follows).
    const dangling = real === undefined && hops < 40 ? danglingTarget(current) : undefined;
    if (dangling !== undefined) return path.join(realPathSharing(dangling, undefined, hops + 1), ...missing.reverse());
    const parent = path.dirname(current);
    if (parent === current) return absolute;
    missing.push(path.basename(current));
    current = parent;
  }
}

/** Where the symlink `file` points (absolute), when `file` is one; undefined otherwise. */
function danglingTarget(file: string): string | undefined {
  // throwIfNoEntry: most names asked about are missing (credential stores), and an exception per name costs more than the call.
  try {
    if (lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink() !== true) return undefined;
    return path.resolve(path.dirname(file), readlinkSync(file));
  } catch {
    // expected: ENOTDIR/EACCES on the way, or the link removed meanwhile: a missing name, resolved through its parent like any other
    return undefined;
  }
}

/** The real path of `file` if it exists and resolves, else undefined. */
function resolveExisting(file: string): string | undefined {
  if (!existsSync(file)) return undefined;
  try {
    return realpathSync.native(file);
  } catch {
    // expected: exists but cannot be resolved (a permission on the way): its parent is tried, as for a missing one
    return undefined;
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
  return !hasOtherNames(real) && workspaceRoots(workspace).some((root) => isInside(realPath(root), real));
}

/**
 * A regular file with more than one hard link: its other name may be anywhere on the file
 * system (`ln ~/.bashrc notes.txt`), so reading or changing it is reading or changing outside.
 */
export function hasOtherNames(real: string): boolean {
  try {
    const info = lstatSync(real, { throwIfNoEntry: false });
    return info !== undefined && info.isFile() && info.nlink > 1;
  } catch {
    // expected: ENOTDIR/EACCES on the way: nothing there to have other names
    return false;
  }
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

/** HOME_CREDENTIAL_STORES as a tree of names, each node the stores (by index) ending there. */
interface StoreNode {
  children: Map<string, StoreNode>;
  stores: number[];
}

let storeTree: StoreNode | undefined;

function homeStoreTree(): StoreNode {
  if (storeTree) return storeTree;
  const root: StoreNode = { children: new Map(), stores: [] };
  HOME_CREDENTIAL_STORES.forEach((relative, index) => {
    let node = root;
    for (const name of relative.split("/")) {
      let child = node.children.get(name);
      if (!child) node.children.set(name, (child = { children: new Map(), stores: [] }));
      node = child;
    }
    node.stores.push(index);
  });
  return (storeTree = root);
}

/**
 * The real paths of credentialStorePaths(home), each exactly as realPath gives it, resolved
 * together. A file tool's every call checks all ~60 stores, most of them missing: one by one
 * that is an existence check per store and per missing parent (~110 system calls, and as many
 * path joins). The home folder's stores share a few folders (~, ~/.config, ~/.local/share), so on
 * Linux each of those is listed once instead: an entry that is a plain file or folder resolves
 * to its folder's real path plus its name, a missing one the same way (as realPath resolves a
 * missing path: its nearest existing ancestor's real path plus the rest), and only a symlink is
 * resolved by the system. Anything else (a folder that cannot be listed, a name there only in
 * another case, another system) takes realPath's own way.
 */
export function credentialStoreRealPaths(home: string, hermesHomeDir: string = hermesHome()): string[] {
  const resolved = new Map<string, string | undefined>();
  const oneByOne = (store: string) => realPathSharing(store, resolved);
  const own = HERMES_CREDENTIAL_STORES.map((relative) => realPathSharing(path.join(hermesHomeDir, relative), resolved));
  const homeReal = process.platform === "linux" && path.isAbsolute(home) ? resolveExisting(home) : undefined;
  if (homeReal === undefined) return [...HOME_CREDENTIAL_STORES.map((relative) => oneByOne(path.join(home, relative))), ...own];
  const reals: string[] = new Array<string>(HOME_CREDENTIAL_STORES.length);
  // `lexical`: the folder as named under home; `real`: its real path; `listable`: an existing
  // folder (not a symlink) whose entries say what exists below it.
  const walk = (node: StoreNode, lexical: string, real: string, listable: boolean) => {
    const entries = listable ? listFolder(lexical) : undefined;
    for (const [name, child] of node.children) {
      const childLexical = `${lexical}/${name}`;
      let childReal = real === "/" ? `/${name}` : `${real}/${name}`; // missing, or a plain entry
      let childListable = false;
      if (listable) {
        const entry = entries?.byName.get(name);
        if (entries === undefined || (entry === undefined && entries.folded.has(name.toLowerCase()))) {
          resolveOneByOne(child, childLexical, oneByOne, reals);
          continue;
        }
        if (entry?.isSymbolicLink()) {
          const target = resolveExisting(childLexical);
          if (target !== undefined) {
            if (child.children.size > 0) {
              resolveOneByOne(child, childLexical, oneByOne, reals);
              continue;
            }
            childReal = target;
          } else {
            // dangling: where a write through it would land, realPath's own way
            resolveOneByOne(child, childLexical, oneByOne, reals);
            continue;
          }
        } else childListable = entry?.isDirectory() ?? false;
      }
      for (const index of child.stores) reals[index] = childReal;
      if (child.children.size > 0) walk(child, childLexical, childReal, childListable);
    }
  };
  walk(homeStoreTree(), home.length > 1 && home.endsWith("/") ? home.slice(0, -1) : home, homeReal, true);
  return [...reals, ...own];
}

/** Every store at or below `node` (named `lexical`), through realPath's own way. */
function resolveOneByOne(node: StoreNode, lexical: string, oneByOne: (store: string) => string, reals: string[]): void {
  for (const index of node.stores) reals[index] = oneByOne(lexical);
  for (const [name, child] of node.children) resolveOneByOne(child, `${lexical}/${name}`, oneByOne, reals);
}

interface Listing {
  byName: Map<string, Dirent>;
  /** The names in lower case. */
  folded: Set<string>;
}

/** A folder's entries, or undefined when it cannot be listed (not a folder after all, or not readable). */
function listFolder(folder: string): Listing | undefined {
  try {
    const dirents = readdirSync(folder, { withFileTypes: true });
    return { byName: new Map(dirents.map((entry) => [entry.name, entry])), folded: new Set(dirents.map((entry) => entry.name.toLowerCase())) };
  } catch {
    // expected: a folder that cannot be listed gives no case-insensitive match; the path is checked as written
    return undefined;
  }
}

/** Hermes's own secrets under $HERMES_HOME: the API keys, and MCP servers' OAuth tokens (mcp/oauth/auth-store.ts). */
const HERMES_CREDENTIAL_STORES = [".env", "mcp-auth"];

/** Absolute credential-store paths for `home`, plus Hermes's own secrets ($HERMES_HOME/.env, mcp-auth/). */
export function credentialStorePaths(home: string, hermesHomeDir: string = hermesHome()): string[] {
  return [...HOME_CREDENTIAL_STORES.map((relative) => path.join(home, relative)), ...HERMES_CREDENTIAL_STORES.map((relative) => path.join(hermesHomeDir, relative))];
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
  // Nothing is kept between checks: a symlink made later counts.
  const home = os.homedir();
  const reals = credentialStoreRealPaths(home);
  // Both sides are normalized absolute paths, so only a store `real` starts with can hold it.
  const at = reals.findIndex((storeReal) => real.startsWith(storeReal) && isInside(storeReal, real));
  if (at >= 0) return `${credentialStorePaths(home)[at]} is a credential store`;
  if (isInside(realPath(hermesHome()), real) && /^(config\.yaml|\.env)$/.test(path.basename(real)) && !inHermesWorktrees(real, hermesHome(), realPath)) return "it is Hermes's own configuration";
  return undefined;
}
