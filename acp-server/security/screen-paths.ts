// Path handling for the command screen: resolve a command's word to an absolute path
// (expanding `~`, `$HOME`, `$PWD`, `$HERMES_HOME`), and name the sensitive area a path
// falls in — secrets, shell startup files, Hermes's config, system folders — with the
// wording used in findings.
import fs from "node:fs";
import path from "node:path";
import { isInside } from "../util/inside-folder";

/** Where the screened line runs; `cwd` follows `cd`/`pushd` as the line is walked. */
export interface State {
  home: string;
  cwd: string;
  hermesHome: string;
  /** The session's workspace folder, when known. */
  workspace?: string;
  /** The workspace's other roots, when it has any. */
  extraRoots?: string[];
}

/** Top-level system folders whose deletion breaks the machine. */
export const SYSTEM_DIRS = ["/bin", "/boot", "/dev", "/etc", "/lib", "/lib32", "/lib64", "/libx32", "/opt", "/proc", "/root", "/sbin", "/sys", "/usr", "/var", "/home", "/Users", "/System", "/Library", "/Applications", "/private"];
/** Top-level folders whose deletion as a whole is hardline too, though what lies inside them is ordinary data (`/srv/app`). */
export const TOP_LEVEL_DIRS = [...SYSTEM_DIRS, "/srv", "/snap", "/mnt", "/media", "/nix", "/run"];
/** System folders where a write (not a delete) still needs the user's say. */
const WRITE_PROTECTED = ["/etc", "/boot", "/bin", "/sbin", "/usr", "/lib", "/lib32", "/lib64", "/root", "/sys", "/proc", "/System", "/Library"];

export const BLOCK_DEVICE = /^\/dev\/(sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme|mmcblk\d|disk\d|rdisk\d|disk\/|md\d|md\/|dm-\d|loop\d|sr\d|nbd\d|rbd\d|zd\d|bcache\d|mtd|ubi|mapper\/|root$|mem$|kmem$|port$)/;
const RC_FILES = [".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", ".zshrc", ".zprofile", ".zshenv", ".zlogin", ".config/fish/config.fish", ".kshrc", ".cshrc", ".tcshrc"];
const SECRET_DIRS = [".ssh", ".gnupg", ".aws"];

/** Expand `~`, `$HOME`, `$PWD`, `$HERMES_HOME` at the start of a word and make it absolute. */
export function resolvePath(word: string, cwd: string, home: string, hermesHome = path.posix.join(home, ".hermes")): string {
  let w = word;
  if (w === "~" || w.startsWith("~/")) w = home + w.slice(1);
  else {
    const v = /^(?:\$\{(HOME|PWD|HERMES_HOME)\}|\$(HOME|PWD|HERMES_HOME)(?![A-Za-z0-9_])|\$\((pwd)\)|`(pwd)`)/.exec(w);
    if (v) {
      const name = v[1] ?? v[2] ?? "PWD";
      const value = name === "HOME" ? home : name === "PWD" ? cwd : hermesHome;
      w = value + w.slice(v[0].length);
    }
  }
  // /proc/self/cwd and /proc/<pid>/cwd are the working folder, /proc/self/root is /.
  w = w.replace(/^\/proc\/(?:self|thread-self|\d+)\/cwd(?=\/|$)/, cwd).replace(/^\/proc\/(?:self|thread-self|\d+)\/root(?=\/|$)/, "/");
  const abs = w.startsWith("/") ? w : cwd + "/" + w;
  const real = abs.includes("$") ? undefined : followLinks(abs, cwd, home, hermesHome);
  const norm = real ?? path.posix.normalize(abs);
  return norm.length > 1 ? norm.replace(/\/+$/, "") : norm;
}

function realpathOrSelf(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    // expected: a path that does not resolve (missing) is screened as written
    return p;
  }
}

/**
 * The path the kernel will reach, following symlinks already on disk (`homelink -> ~` makes
 * `rm -rf homelink/` a delete of ~; `cfg -> ~/.hermes/config.yaml` makes `>> cfg` a write to
 * Hermes's config), with `..` applied after each link as the kernel does. Components past the
 * first missing one (or a glob) are kept as written. Links are followed only from the home
 * folder or the working folder, or when they lead into home, so system links (/bin ->
 * /usr/bin, macOS /tmp -> /private/tmp) keep their familiar names. undefined when nothing
 * on disk changes the lexical answer.
 */
function followLinks(abs: string, cwd: string, home: string, hermesHome: string): string | undefined {
  const parts = abs.split("/").filter((p) => p !== "" && p !== ".");
  let cur = "/";
  let missing = false;
  let followed = false;
  for (const part of parts.slice(0, 256)) {
    if (missing) {
      cur = part === ".." ? path.posix.dirname(cur) : path.posix.join(cur, part);
      continue;
    }
    if (part === "..") {
      cur = path.posix.dirname(cur);
      continue;
    }
    const next = path.posix.join(cur, part);
    let st: fs.Stats | undefined;
    try {
      st = fs.lstatSync(next);
    } catch {
      // expected: ENOENT: the rest of the path is missing, handled just below
      st = undefined;
    }
    if (!st) {
      missing = true;
      cur = next;
    } else if (st.isSymbolicLink()) {
      followed = true;
      const target = realpathOrSelf(next);
      if (target === next) {
        // A dangling link: writing through it creates its target.
        let link: string;
        try {
          link = fs.readlinkSync(next);
        } catch {
          // expected: a link that cannot be read is screened as the link itself
          link = "";
        }
        cur = link === "" ? next : path.posix.normalize(link.startsWith("/") ? link : path.posix.join(cur, link));
        missing = true;
      } else cur = target;
    } else cur = next;
  }
  if (!followed) return undefined;
  let real = cur;
  const realHermes = realpathOrSelf(hermesHome);
  const realHome = realpathOrSelf(home);
  if (isWithin(real, realHermes)) real = hermesHome + real.slice(realHermes.length);
  else if (isWithin(real, realHome)) real = home + real.slice(realHome.length);
  const lexical = path.posix.normalize(abs);
  if (isWithin(lexical, home) || isWithin(lexical, cwd) || isWithin(real, home) || isWithin(real, hermesHome)) return real;
  return undefined;
}

/** The screen's argument order for util/inside-folder.ts's isInside (paths here are already resolved). */
export function isWithin(target: string, dir: string): boolean {
  return isInside(dir, target);
}

export function tildeLabel(p: string, home: string): string {
  return isWithin(p, home) ? "~" + p.slice(home.length) : p;
}

/** The sensitive area a path falls in, as used in "write-sensitive:<area>" keys, or undefined. */
export function sensitiveArea(abs: string, st: State): string | undefined {
  const base = path.posix.basename(abs);
  if (abs === path.posix.join(st.hermesHome, "config.yaml") || abs === path.posix.join(st.hermesHome, ".env")) return "hermes-config";
  if (abs === path.posix.join(st.home, ".hermes", "config.yaml") || abs === path.posix.join(st.home, ".hermes", ".env")) return "hermes-config";
  for (const dir of SECRET_DIRS) if (isWithin(abs, path.posix.join(st.home, dir))) return "~/" + dir;
  for (const rc of RC_FILES) if (abs === path.posix.join(st.home, rc)) return "~/" + rc;
  for (const dir of WRITE_PROTECTED) if (isWithin(abs, dir)) return dir;
  if (/^\.env(\..+)?$|^.+\.env$/.test(base) && !/\.(example|sample|template|dist|defaults?)$/.test(base)) return ".env";
  return undefined;
}

/** The tail of a finding's sentence saying why the area matters. */
export function describeArea(area: string): string {
  if (area === "hermes-config") return ", Hermes's own configuration";
  if (area === ".env") return ", an environment file that usually holds secrets";
  if (area === "~/.ssh") return ", where SSH keys and trusted hosts live";
  if (area === "~/.gnupg" || area === "~/.aws") return ", where credentials live";
  if (area.startsWith("~/.")) return ", a shell startup file that runs in every new terminal";
  return `, inside the system folder ${area}`;
}
