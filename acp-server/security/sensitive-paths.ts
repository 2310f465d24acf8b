// Paths that are never touched without the user's say-so (except in dont_ask mode), and the
// workspace boundary. Both compare real paths, so a symlink cannot smuggle a path across.
import { realpathSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { hermesHome } from "../config/paths";

/** The real path of `target`, resolving symlinks of its nearest existing ancestor. */
export function realPath(target: string): string {
  const absolute = path.resolve(target);
  const missing: string[] = [];
  let current = absolute;
  for (;;) {
    try {
      return path.join(realpathSync(current), ...missing.reverse());
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return absolute;
      missing.push(path.basename(current));
      current = parent;
    }
  }
}

export function isInside(root: string, target: string): boolean {
  const relative = path.relative(root, target);
  return relative === "" || (!relative.startsWith(`..${path.sep}`) && relative !== ".." && !path.isAbsolute(relative));
}

/** Inside the workspace after resolving `..` and symlinks on both sides. */
export function insideWorkspace(cwd: string, target: string): boolean {
  return isInside(realPath(cwd), realPath(target));
}

const SENSITIVE_NAMES = [
  /^\.env(\..*)?$/, // .env, .env.local, ...
  /\.env$/,
  /^id_(rsa|dsa|ecdsa|ed25519)(\.pub)?$/,
  /\.(pem|key|p12|pfx|keystore|jks)$/,
  /^\.netrc$/,
  /^\.pypirc$/,
  /^\.npmrc$/,
  /^credentials(\.json)?$/,
];
const SENSITIVE_DIRS = [".git", ".ssh", ".aws", ".gnupg", ".kube", ".docker"];

/**
 * Why a file tool must ask before it even looks at `target`: outside the workspace (after
 * resolving symlinks) or a credential. Empty when the path is an ordinary workspace file.
 * Reading first would leak: a refused patch's "not found" answer is an oracle on the content.
 */
export function guardedPathReasons(cwd: string, target: string): string[] {
  const reasons: string[] = [];
  const sensitive = sensitiveReason(target);
  if (sensitive) reasons.push(`sensitive path: ${sensitive}`);
  if (!insideWorkspace(cwd, target)) reasons.push(`outside the workspace: ${target}`);
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
];

/** Absolute credential-store paths for `home`, plus Hermes's own secrets ($HERMES_HOME/.env). */
export function credentialStorePaths(home: string, hermesHomeDir: string = hermesHome()): string[] {
  return [...HOME_CREDENTIAL_STORES.map((relative) => path.join(home, relative)), path.join(hermesHomeDir, ".env")];
}

/** Why `target` is sensitive, or undefined. */
export function sensitiveReason(target: string): string | undefined {
  const real = realPath(target);
  const parts = real.split(path.sep);
  const dir = parts.find((part) => SENSITIVE_DIRS.includes(part));
  if (dir) return `it is inside a ${dir}/ folder`;
  const name = path.basename(real);
  if (SENSITIVE_NAMES.some((pattern) => pattern.test(name))) return `${name} may hold credentials`;
  const store = credentialStorePaths(os.homedir()).find((candidate) => isInside(realPath(candidate), real));
  if (store) return `${store} is a credential store`;
  if (isInside(realPath(hermesHome()), real) && /^(config\.yaml|\.env)$/.test(name)) return "it is Hermes's own configuration";
  return undefined;
}
