// The mounts that keep a workspace repository's run-later parts out of a sandboxed command's
// reach while `git commit` still works inside. git runs hooks and the programs its config names
// later, outside any sandbox; a command could plant them and wait for the user's next commit.
//
// - `.git` is bound onto itself (pinned): a mount point cannot be renamed or removed, so
//   `mv .git elsewhere && cp -r elsewhere .git` (fresh, writable hooks) fails.
// - Read-only inside it: hooks/, config, config.worktree, commondir, gitdir, info/ (attributes
//   name filter drivers); the same for every submodule's git folder (.git/modules/…) and the
//   commondir/gitdir/config.worktree of every linked worktree (.git/worktrees/…).
// - A gitfile (`.git` that says `gitdir: …`, a worktree's or a submodule's checkout) is itself
//   read-only; the folder it names is protected as above when it is inside the workspace.
// - Writable: objects, refs, index, logs, HEAD, COMMIT_EDITMSG, packed-refs… what commit needs.
// What cannot be pinned because it does not exist yet (a new commondir, a new .git in a
// subfolder) is left to the plant guard after the command (security/git-plant-guard.ts).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { isInside } from "../../util/inside-folder";
import { realPath } from "../sensitive-paths";
import { pathKind } from "../../util/path-kind";
import { worktreeCommitMounts } from "./worktree-commit-mounts";

export interface GitMounts {
  /** Bound onto themselves, writable: mount points a command cannot rename. */
  pinned: string[];
  readOnly: string[];
  /** Shown read-only under a hidden home: a chat worktree's main repository .git. */
  visible?: string[];
  /** For the command's environment (a chat worktree's private object folder: worktree-commit-mounts.ts). */
  env?: Record<string, string>;
}

const GIT_DIR_READ_ONLY = ["hooks", "config", "config.worktree", "commondir", "gitdir", "info"];
const WORKTREE_READ_ONLY = ["commondir", "gitdir", "config.worktree"];
/** Beyond this many mounts for one repository, whole folders go read-only instead (the safe side). */
const MAX_GIT_MOUNTS = 32;

export function gitMounts(root: string): GitMounts {
  const mounts: GitMounts = { pinned: [], readOnly: [] };
  const dotGit = path.join(root, ".git");
  const kind = pathKind(dotGit);
  if (kind === "file") {
    mounts.readOnly.push(dotGit);
    const named = gitfileDir(dotGit);
    if (named && isInside(root, named) && pathKind(named) === "dir") protectGitDir(named, root, mounts);
    else if (named && pathKind(named) === "dir") {
      // A chat's own worktree: its git folder lives in the main repository (worktree-commit-mounts.ts).
      const commit = worktreeCommitMounts(named);
      mounts.pinned.push(...commit.pinned);
      mounts.readOnly.push(...commit.readOnly);
      if (commit.commonDir) mounts.visible = [commit.commonDir];
      if (commit.env) mounts.env = commit.env;
    }
  } else if (kind === "dir" && isInside(root, realPath(dotGit))) {
    // A link to a repository outside the workspace leads somewhere read-only already: pinning it would open it.
    protectGitDir(realPath(dotGit), root, mounts);
  }
  return mounts;
}

function protectGitDir(dir: string, root: string, mounts: GitMounts): void {
  mounts.pinned.push(dir);
  const found: string[] = existing(dir, GIT_DIR_READ_ONLY);
  const checkouts: string[] = [];
  const modules = (moduleDir: string) => {
    found.push(...existing(moduleDir, ["hooks", "config", "config.worktree", "info"]));
    // The submodule's checkout holds a gitfile naming this folder: read-only too.
    const worktree = configuredWorktree(moduleDir);
    if (worktree && isInside(root, worktree) && pathKind(path.join(worktree, ".git")) === "file") checkouts.push(path.join(worktree, ".git"));
  };
  // A submodule's name may hold slashes: a folder without HEAD is a level of the name.
  const visitModules = (folder: string, depth: number) => {
    for (const name of listDirs(folder)) {
      const child = path.join(folder, name);
      if (pathKind(path.join(child, "HEAD")) === "file") {
        modules(child);
        if (depth < 4) visitModules(path.join(child, "modules"), depth + 1);
      } else if (depth < 4) visitModules(child, depth + 1);
    }
  };
  visitModules(path.join(dir, "modules"), 0);
  for (const name of listDirs(path.join(dir, "worktrees"))) {
    const worktree = path.join(dir, "worktrees", name);
    found.push(...existing(worktree, WORKTREE_READ_ONLY));
    // Its gitdir file names the linked checkout's gitfile: read-only too, when in the workspace.
    const gitfile = firstLine(path.join(worktree, "gitdir"));
    if (gitfile && isInside(root, path.resolve(worktree, gitfile)) && pathKind(path.resolve(worktree, gitfile)) === "file") checkouts.push(path.resolve(worktree, gitfile));
  }
  if (found.length + checkouts.length > MAX_GIT_MOUNTS) {
    // Hundreds of submodules would be hundreds of mounts (and overflow the editor's wire policy).
    mounts.readOnly.push(...existing(dir, [...GIT_DIR_READ_ONLY, "modules", "worktrees"]));
    return;
  }
  mounts.readOnly.push(...found, ...checkouts);
}

/** A submodule git folder's `core.worktree` (its checkout), resolved; read as text, nothing run. */
function configuredWorktree(gitDir: string): string | undefined {
  try {
    const match = /^\s*worktree\s*=\s*"?([^"\n]+?)"?\s*$/m.exec(readFileSync(path.join(gitDir, "config"), "utf8"));
    return match?.[1] ? path.resolve(gitDir, match[1]) : undefined;
  } catch {
    // expected: no config (or unreadable): no checkout to protect
    return undefined;
  }
}

function firstLine(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8").split("\n")[0]?.trim() || undefined;
  } catch {
    // expected: missing or unreadable: nothing named
    return undefined;
  }
}

/** The real folder a gitfile names. */
function gitfileDir(gitfile: string): string | undefined {
  try {
    const match = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(gitfile, "utf8"));
    return match?.[1] ? realPath(path.resolve(path.dirname(gitfile), match[1])) : undefined;
  } catch {
    // expected: an unreadable gitfile names nothing we can protect (it is read-only itself)
    return undefined;
  }
}

function existing(dir: string, names: string[]): string[] {
  return names.map((name) => path.join(dir, name)).filter((entry) => pathKind(entry) !== undefined);
}

function listDirs(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  } catch {
    // expected: a folder that is missing or unreadable has no subfolders
    return [];
  }
}

