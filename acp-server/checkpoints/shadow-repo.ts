// Where a workspace's shadow repository lives and how it is set up. One bare repository per
// workspace under $HERMES_HOME/checkpoints/<hash of the workspace's real path>/; the work tree
// is only ever given on the command line, so the repository never points at the workspace by
// itself and the user's .git is never read or written. A small identity file names the
// workspace, so a hash collision (or a copied folder) is noticed instead of mixing histories.
import { createHash, randomBytes } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { realPath } from "../security/sensitive-paths";
import { isInside } from "../util/inside-folder";
import { Git } from "./git";
import { processAlive } from "../util/process-alive";

const IDENTITY_FILE = "hermes-workspace.json";

/** The shadow repository's own settings, in git's config file syntax (sections may repeat). */
const REPO_SETTINGS = `[user]
\tname = Hermes checkpoints
\temail = checkpoints@hermes.invalid
[core]
\tlogAllRefUpdates = false
\tuntrackedCache = true
\tcheckStat = default
\ttrustctime = true
\thooksPath = /dev/null
[index]
\tversion = 4
[gc]
\tauto = 0
`;
const NESTED_FILE = "hermes-nested.json";

export interface ShadowRepo {
  git: Git;
  /** The GIT_DIR; journals and Hermes' own bookkeeping files live here too. */
  dir: string;
  /** The workspace's real path (the work tree). */
  workspace: string;
}

function workspaceKey(realWorkspace: string): string {
  return createHash("sha256").update(realWorkspace).digest("hex").slice(0, 20);
}

/** Opens in progress, so two sessions opening a new workspace at once do not both create it. */
const opening = new Map<string, Promise<ShadowRepo>>();

/** Opens (creating when new) the shadow repository of `realWorkspace`. */
export function openShadowRepo(gitExecutable: string, realWorkspace: string, hermesHome: string, env?: NodeJS.ProcessEnv): Promise<ShadowRepo> {
  const key = `${path.resolve(hermesHome)}\0${realWorkspace}`;
  const pending = opening.get(key);
  if (pending) return pending;
  const open = openOnce(gitExecutable, realWorkspace, hermesHome, env).finally(() => opening.delete(key));
  opening.set(key, open);
  return open;
}

async function openOnce(gitExecutable: string, realWorkspace: string, hermesHome: string, env?: NodeJS.ProcessEnv): Promise<ShadowRepo> {
  const root = path.join(hermesHome, "checkpoints");
  const key = workspaceKey(realWorkspace);
  // A collision moves on to the next slot rather than sharing (or refusing) a repository.
  for (let slot = 0; slot < 8; slot++) {
    const dir = path.join(root, slot === 0 ? key : `${key}-${slot}`);
    let owner = readIdentity(dir);
    if (owner === undefined) {
      await createRepo(gitExecutable, dir, realWorkspace, env);
      owner = readIdentity(dir);
    }
    if (owner !== realWorkspace) continue;
    const git = new Git(gitExecutable, dir, realWorkspace, env);
    writeExcludes(dir, realWorkspace, hermesHome);
    removeStaleIndexes(dir);
    return { git, dir, workspace: realWorkspace };
  }
  throw new Error(`no free checkpoint slot for ${realWorkspace} under ${root}`);
}

/** Per-operation index copies (index-<pid>-<random>) whose process is gone: a crash left them. */
function removeStaleIndexes(dir: string): void {
  for (const name of readdirSync(dir)) {
    const match = /^index-(\d+)-[0-9a-f]+$/.exec(name);
    if (match && !processAlive(Number(match[1]))) rmSync(path.join(dir, name), { force: true });
  }
}

function readIdentity(dir: string): string | undefined {
  try {
    const parsed = JSON.parse(readFileSync(path.join(dir, IDENTITY_FILE), "utf8")) as { workspace?: unknown };
    return typeof parsed.workspace === "string" ? parsed.workspace : "";
  } catch {
    // expected: no identity file (ENOENT, or a damaged one) means no usable repository in this slot: one is created there
    return undefined;
  }
}

/**
 * Builds the repository in a temporary sibling and renames it into place, so a half-made one is
 * never seen and two processes creating it at once cannot corrupt it (the loser uses the winner's).
 */
async function createRepo(gitExecutable: string, dir: string, realWorkspace: string, env?: NodeJS.ProcessEnv): Promise<void> {
  mkdirSync(path.dirname(dir), { recursive: true, mode: 0o700 });
  const temp = `${dir}.init-${process.pid}-${randomBytes(4).toString("hex")}`;
  try {
    mkdirSync(temp, { mode: 0o700 });
    const git = new Git(gitExecutable, temp, realWorkspace, env);
    await git.run(["init", "--bare", "--quiet", temp], { noRepo: true });
    // Written into the config file git init made, not by one `git config` process per setting
    // (nine processes, a new workspace's first turn waited for them). Constants, no quoting needed.
    appendFileSync(path.join(temp, "config"), REPO_SETTINGS);
    writeAtomic(path.join(temp, IDENTITY_FILE), `${JSON.stringify({ workspace: realWorkspace, created: new Date().toISOString() })}\n`);
    try {
      renameSync(temp, dir);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOTEMPTY" && code !== "EEXIST") throw error;
      // Someone else created it meanwhile, or an unusable leftover (no identity) is in the way.
      if (readIdentity(dir) === undefined) {
        rmSync(dir, { recursive: true, force: true });
        renameSync(temp, dir);
      }
    }
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

/** Nested repositories found so far (workspace-relative, no trailing slash). */
export function readNestedRepos(dir: string): string[] {
  try {
    const parsed = JSON.parse(readFileSync(path.join(dir, NESTED_FILE), "utf8")) as unknown;
    return Array.isArray(parsed) ? parsed.filter((entry): entry is string => typeof entry === "string") : [];
  } catch {
    // expected: no nested-repos file yet (or a damaged one) means none recorded; the next snapshot rewrites it
    return [];
  }
}

export function addNestedRepos(repo: ShadowRepo, found: string[], hermesHome: string): void {
  const known = new Set(readNestedRepos(repo.dir));
  const before = known.size;
  for (const entry of found) known.add(entry);
  if (known.size === before) return;
  writeAtomic(path.join(repo.dir, NESTED_FILE), `${JSON.stringify([...known].sort())}\n`);
  writeExcludes(repo.dir, repo.workspace, hermesHome);
}

/**
 * The shadow repository's info/exclude: .git anywhere, the user's own .git/info/exclude
 * patterns (the workspace's .gitignore files apply by themselves, the work tree being the
 * workspace), Hermes' home when it sits inside the workspace, and nested repositories.
 */
export function writeExcludes(dir: string, realWorkspace: string, hermesHome: string): void {
  const lines = ["# Written by Hermes on every open; edits are lost.", ".git"];
  const userExclude = userInfoExclude(realWorkspace);
  if (userExclude) lines.push("# from the workspace's .git/info/exclude", userExclude);
  const realHome = realPath(hermesHome);
  if (isInside(realWorkspace, realHome) && realHome !== realWorkspace) {
    lines.push("# Hermes' home", `/${escapePattern(path.relative(realWorkspace, realHome).split(path.sep).join("/"))}/`);
  }
  const nested = readNestedRepos(dir);
  if (nested.length > 0) lines.push("# nested repositories (not snapshotted)", ...nested.map((entry) => `/${escapePattern(entry)}/`));
  mkdirSync(path.join(dir, "info"), { recursive: true });
  const text = `${lines.join("\n")}\n`;
  const file = path.join(dir, "info", "exclude");
  try {
    if (readFileSync(file, "utf8") === text) return;
  } catch {
    // expected: ENOENT, no exclude file yet: it is written below
  }
  writeAtomic(file, text);
}

function userInfoExclude(realWorkspace: string): string | undefined {
  const dotGit = path.join(realWorkspace, ".git");
  let gitDir = dotGit;
  try {
    if (statSync(dotGit).isFile()) {
      // A worktree or submodule: ".git" is a file naming the real directory.
      const named = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, "utf8"))?.[1];
      if (named === undefined) return undefined;
      gitDir = path.resolve(realWorkspace, named.trim());
      const common = path.join(gitDir, "commondir");
      if (existsSync(common)) gitDir = path.resolve(gitDir, readFileSync(common, "utf8").trim());
    }
    return readFileSync(path.join(gitDir, "info", "exclude"), "utf8").trim() || undefined;
  } catch {
    // expected: not a git workspace, or no readable info/exclude: nothing extra to exclude
    return undefined;
  }
}

/** Makes a literal path safe as a gitignore pattern. */
function escapePattern(relative: string): string {
  return relative.replace(/[\\*?[\]!#]/g, (char) => `\\${char}`).replace(/ $/, "\\ ");
}

export function writeAtomic(file: string, text: string): void {
  const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(temp, text, { mode: 0o600 });
  renameSync(temp, file);
}
