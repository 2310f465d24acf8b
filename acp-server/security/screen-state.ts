// Where Hermes's own state and the user's credentials live, as the command screen sees
// paths. Hermes's state ($HERMES_HOME: config.yaml, .env, memories, skills, sessions) is
// matched on the resolved path and on its real path (symlinks followed where the path
// exists), so no spelling of it — `$HOME/.hermes`, `~me/.hermes`, `../../.hermes`, a link —
// escapes the match. Globs are matched by pattern.
import path from "node:path";
import { HOME_CREDENTIAL_STORES, isSensitiveName, realPath } from "./sensitive-paths";
import { isWithin, type State } from "./screen-paths";
import { inHermesWorktrees } from "./hermes-worktrees";

const GLOB = /[*?[]/;

/** A path glob as bash matches it: `*`, `?` and `[...]` stay within a segment and never match a leading dot. */
function globToRegExp(glob: string): RegExp {
  let source = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob.charAt(i);
    if ((i === 0 || glob[i - 1] === "/") && (c === "*" || c === "?" || c === "[")) source += "(?!\\.)";
    if (c === "*") source += "[^/]*";
    else if (c === "?") source += "[^/]";
    else if (c === "[") {
      const close = glob.indexOf("]", i + 1);
      if (close < 0) source += "\\[";
      else {
        source += `[${glob.slice(i + 1, close).replace(/^!/, "^").replace(/\\/g, "\\\\")}]`;
        i = close;
      }
    } else source += c.replace(/[.+^${}()|\\]/g, "\\$&");
  }
  return new RegExp(`^${source}$`);
}

/** Is `abs` (already resolved against cwd and home) inside Hermes's own state folder? */
export function inHermesState(abs: string, st: State): boolean {
  const home = st.hermesHome;
  // Session worktrees are the user's code (their real path checked too).
  if (!GLOB.test(abs) && inHermesWorktrees(abs, home, realPath)) return false;
  // Case-insensitive: on macOS (and Windows) `~/.HERMES/config.yaml` is the same file.
  if (isWithin(abs, home) || isWithin(abs.toLowerCase(), home.toLowerCase())) return true;
  if (GLOB.test(abs)) {
    const re = globToRegExp(abs);
    const probes = [home, ...["config.yaml", ".env", "memories", "memories/MEMORY.md", "skills", "sessions", "state.db", "SOUL.md", "logs"].map((f) => path.posix.join(home, f))];
    if (probes.some((p) => re.test(p))) return true;
    return false;
  }
  const real = realPath(abs);
  return real !== abs && isWithin(real, realPath(home));
}

const CREDENTIAL_IN_HOME = [
  /^\.ssh(\/|$)/, /^\.gnupg(\/|$)/, /^\.aws\/(credentials|config)$/, /^\.netrc$/, /^\.pypirc$/, /^\.npmrc$/, /^\.yarnrc(\.yml)?$/,
  /^\.git-credentials$/, /^\.docker\/config\.json$/, /^\.kube\/config$/, /^\.config\/gh\/hosts\.yml$/, /^\.config\/gcloud(\/|$)/,
  /^\.azure(\/|$)/, /^\.vault-token$/, /^\.pgpass$/, /^\.my\.cnf$/, /^\.terraform\.d\/credentials\.tfrc\.json$/, /^\.cargo\/credentials(\.toml)?$/,
  /^\.gem\/credentials$/, /^\.config\/hub$/, /^\.password-store(\/|$)/, /^\.local\/share\/keyrings(\/|$)/, /^\.mozilla(\/|$)/,
  /^\.config\/(google-chrome|chromium|BraveSoftware)(\/|$)/,
];
const CREDENTIAL_ABSOLUTE = [/^\/proc\/[^/]+\/(environ|mem|cmdline|auxv)$/, /^\/etc\/(shadow|gshadow|sudoers)(-|$)/, /^\/etc\/ssh\/ssh_host_.*_key$/, /^\/root(\/|$)/, /^\/var\/run\/secrets(\/|$)/, /^\/run\/secrets(\/|$)/];
const CREDENTIAL_NAMES = [/^\.env(\..+)?$/, /^.+\.env$/, /^id_(rsa|dsa|ecdsa|ed25519)[^/]*$/, /\.(pem|key|p12|pfx|keystore|jks|kdbx)$/, /^credentials(\.json)?$/, /^\.htpasswd$/, /^secrets?\.(ya?ml|json)$/];
const TEMPLATE = /\.(example|sample|template|dist|defaults?)$/;

/** Hermes's files that hold its keys, in any of its folders: config.yaml (keys may be set there) and its backups, .env, auth.json, and the MCP sign-ins under mcp-auth/; any letter case. */
const HERMES_SECRET_FILES = /(^|\/)(config\.ya?ml([.~].*)?|\.?config\.ya?ml\.sw.|\.env(\..*)?|auth\.json([.~].*)?)$|(^|\/)mcp-auth(\/|$)/i;

/** $HERMES_HOME as written and as resolved (resolved once per folder: the screen asks for every operand). */
const REAL_HOMES = new Map<string, string[]>();
function realHome(home: string): string[] {
  let both = REAL_HOMES.get(home);
  if (!both) {
    const real = realPath(home);
    both = real === home ? [home] : [home, real];
    REAL_HOMES.set(home, both);
  }
  return both;
}

/**
 * Is `abs` Hermes's own keys, in any spelling: config.yaml, .env, auth.json under $HERMES_HOME
 * (by its path, any letter case, a glob that matches them, or a link to them), or the folder
 * itself (a recursive read takes them)? Read, they are a secret read.
 */
function hermesSecrets(abs: string, st: State): string | undefined {
  const home = st.hermesHome;
  if (GLOB.test(abs)) {
    const re = globToRegExp(abs);
    return [home, ...["config.yaml", ".env", "auth.json", "mcp-auth", "mcp-auth/x.json"].map((f) => path.posix.join(home, f))].some((p) => re.test(p)) ? "Hermes's own keys" : undefined;
  }
  const real = realPath(abs);
  for (const candidate of real === abs ? [abs] : [abs, real]) {
    for (const root of realHome(home)) {
      const inside = isWithin(candidate.toLowerCase(), root.toLowerCase());
      const rel = inside ? candidate.slice(root.length).replace(/^\/+/, "") : undefined;
      if (rel === "") return "Hermes's own state folder, its keys included";
      if (rel !== undefined && HERMES_SECRET_FILES.test(rel)) return `Hermes's ${rel}`;
    }
  }
  return undefined;
}

/** What kind of credential `abs` is ("/proc/1/environ", "~/.ssh", ".env"), or undefined. */
export function credentialArea(abs: string, st: State): string | undefined {
  for (const re of CREDENTIAL_ABSOLUTE) if (re.test(abs)) return abs.startsWith("/proc/") ? "process environment" : abs;
  const own = hermesSecrets(abs, st);
  if (own) return own;
  if (abs === st.home || isWithin(st.home, abs)) return "the whole home folder, credentials included";
  if (/^\/dev\/(sd[a-z]|nvme|hd[a-z]|vd[a-z]|xvd[a-z]|mmcblk|disk|mapper\/|dm-|md|mem$|kmem$)/.test(abs)) return "a raw disk";
  if (isWithin(abs, st.home) && abs !== st.home) {
    const rel = abs.slice(st.home.length + 1);
    for (const re of CREDENTIAL_IN_HOME) if (re.test(rel)) return `~/${rel.split("/")[0]}`;
    // The sandbox's list of stores (histories, browser profiles, cloud CLIs' tokens): one list.
    const store = HOME_CREDENTIAL_STORES.find((s) => rel === s || rel.startsWith(`${s}/`));
    if (store) return `~/${store}`;
  }
  const base = path.posix.basename(abs);
  if (TEMPLATE.test(base) || base === "*") return undefined;
  for (const re of CREDENTIAL_NAMES) if (re.test(base)) return base;
  // The file tools' list (`.envrc`, `*.tfstate`, `*.tfvars`, `.npmrc`, `kubeconfig`, …): one list.
  if (!/[*?[]/.test(base) && isSensitiveName(base)) return base;
  return undefined;
}
