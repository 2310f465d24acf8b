// What of a workspace git (and the editor) runs later, read from disk: the "surface" the plant
// guard compares before and after each command. One bounded walk of each workspace root, links
// not followed, breadth first with dependency folders (node_modules, vendor, …) last: they are
// not skipped (git finds a repository in any folder the user enters, and a submodule's path can
// be anywhere), only visited after everything else when the budget is tight.
//
// Recorded, for every git folder found (`.git` folders, the folder a gitfile names, bare
// repositories by their shape, .git/modules/*, .git/worktrees/*, a commondir's target):
// config, config.worktree, commondir, gitdir, info/attributes and every entry of hooks/. For
// every `.git` entry anywhere (folder, gitfile, link): what it is. At each root: the editors'
// auto-run files (runs-later.ts explains why each).
import { readdirSync, readFileSync, readlinkSync, type Stats } from "node:fs";
import path from "node:path";
import { listFolder } from "./folder-listings";
import { lstatOrUndefined, pathKind, realPathOrUndefined } from "../util/path-kind";

/** One recorded path: a file's bytes and mode, a link's target, or a folder. */
export type SurfaceEntry =
  | { kind: "file"; content: Buffer; mode: number }
  | { kind: "link"; target: string }
  | { kind: "dir" }
  | { kind: "unreadable" };

export interface GitSurface {
  /** Every recorded path (absolute) and what was there. */
  entries: Map<string, SurfaceEntry>;
  /** Git folders found (real paths): repositories whose config and hooks are recorded above. */
  gitDirs: Set<string>;
  /** `.git` entries and bare repositories in the workspace (absolute, as found). */
  repoMarkers: Set<string>;
  /** Set when the walk stopped at its budget: the folders it did not reach. */
  partial?: string;
}

export interface SurfaceLimits {
  /** Folders listed per snapshot, over all roots. */
  maxDirs: number;
  /** A recorded file larger than this is kept as its size only (cannot be restored, only removed). */
  maxFileBytes: number;
}

export const DEFAULT_LIMITS: SurfaceLimits = { maxDirs: 20_000, maxFileBytes: 1 << 20 };

/** The files of a git folder that git reads as settings or runs (hooks/ is listed entry by entry). */
export const GIT_DIR_FILES = ["config", "config.worktree", "commondir", "gitdir", path.join("info", "attributes")];

/** Files at a workspace root that an editor or shell runs later (not .idea: the IDE rewrites it itself while you work). */
export const ROOT_EDITOR_FILES = [
  path.join(".vscode", "tasks.json"),
  path.join(".vscode", "launch.json"),
  path.join(".vscode", "settings.json"),
  path.join(".zed", "tasks.json"),
  path.join(".zed", "settings.json"),
  ".devcontainer.json",
  path.join(".devcontainer", "devcontainer.json"),
  ".envrc",
  ".mise.toml",
  "mise.toml",
  path.join(".vscode", "mcp.json"),
  path.join(".cursor", "mcp.json"),
  ".mcp.json",
  path.join(".gemini", "settings.json"),
  path.join(".claude", "settings.json"),
  path.join(".claude", "settings.local.json"),
  path.join(".hermes", "hooks.json"),
  path.join(".hermes", "hooks.yaml"),
  path.join(".hermes", "hooks.yml"),
];
/** Folders at a root whose every file is recorded (hooks by another name, container setup). */
export const ROOT_EDITOR_FOLDERS = [".husky", ".devcontainer"];

/** Visited last: big, rarely a repository, never skipped. */
const DEPENDENCY_FOLDERS = new Set(["node_modules", "vendor", "target", "dist", "build", ".venv", "venv", "__pycache__", ".cache", ".next", "bower_components"]);

export function snapshotGitSurface(roots: readonly string[], limits: SurfaceLimits = DEFAULT_LIMITS): GitSurface {
  const surface: GitSurface = { entries: new Map(), gitDirs: new Set(), repoMarkers: new Set() };
  const record = recorder(surface, limits);
  let budget = limits.maxDirs;
  for (const root of roots) {
    for (const file of ROOT_EDITOR_FILES) record.path(path.join(root, file));
    for (const folder of ROOT_EDITOR_FOLDERS) record.folder(path.join(root, folder));
    for (const file of listNames(root).filter((name) => name.toLowerCase().endsWith(".code-workspace"))) record.path(path.join(root, file));
    // A repository above the root (the workspace is a subfolder of one) is git's too.
    for (let dir = path.dirname(root); dir !== path.dirname(dir); dir = path.dirname(dir)) record.gitEntry(path.join(dir, ".git"), false);
  }
  const near: string[] = [...roots];
  const far: string[] = [];
  while (near.length > 0 || far.length > 0) {
    const dir = (near.length > 0 ? near.shift() : far.shift()) as string;
    if (budget-- <= 0) {
      surface.partial = `the walk stopped after ${limits.maxDirs} folders; ${near.length + far.length + 1} folders (and what is below them) were not checked, first ${dir}`;
      break;
    }
    const children = listFolder(dir);
    if (children === undefined) continue;
    // A bare repository is recorded, and still walked: a repository nested inside it is not hidden.
    if (isBareShape(dir, children.names)) {
      surface.repoMarkers.add(dir);
      record.gitDir(dir);
    }
    for (const name of children.gitEntries) record.gitEntry(path.join(dir, name), true);
    for (const name of children.folders) (DEPENDENCY_FOLDERS.has(name) ? far : near).push(path.join(dir, name));
  }
  return surface;
}

/** HEAD beside objects/ (or a commondir): git takes the folder itself for a repository. */
function isBareShape(dir: string, names: string[]): boolean {
  return names.includes("HEAD") && (names.includes("objects") || names.includes("commondir")) && pathKind(path.join(dir, "HEAD")) === "file";
}

function recorder(surface: GitSurface, limits: SurfaceLimits) {
  const visit = (target: string) => {
    const info = lstatOrUndefined(target);
    if (!info) return undefined;
    const entry = entryOf(target, info, limits);
    surface.entries.set(target, entry);
    return entry;
  };
  const self = {
    path: visit,
    folder(dir: string) {
      if (visit(dir)?.kind !== "dir") return;
      for (const name of listNames(dir)) {
        const entry = visit(path.join(dir, name));
        if (entry?.kind === "dir") for (const inner of listNames(path.join(dir, name))) visit(path.join(dir, name, inner));
      }
    },
    /** A hooks folder; a hook that is a link to a file (often one in the work tree) records that file too. */
    hooks(dir: string) {
      self.folder(dir);
      for (const name of listNames(dir)) {
        const hook = path.join(dir, name);
        if (surface.entries.get(hook)?.kind !== "link") continue;
        const target = realPathOrUndefined(hook);
        if (target && pathKind(target) === "file") visit(target);
      }
    },
    /** A `.git` entry: a folder, a gitfile naming one, or a link to either. */
    gitEntry(full: string, inWorkspace: boolean) {
      const entry = visit(full);
      if (!entry) return;
      if (inWorkspace) surface.repoMarkers.add(full);
      if (entry.kind === "file") {
        const named = gitfileTarget(full, entry.content);
        if (named) self.gitDir(named);
      } else self.gitDir(full);
    },
    gitDir(dir: string) {
      const real = realPathOrUndefined(dir);
      if (!real || surface.gitDirs.has(real) || pathKind(real) !== "dir") return;
      surface.gitDirs.add(real);
      for (const file of GIT_DIR_FILES) visit(path.join(real, file));
      self.hooks(path.join(real, "hooks"));
      // Hooks kept in the work tree (`core.hooksPath = .githooks`, husky): recorded the same way.
      const hooksPath = configuredHooksPath(surface.entries.get(path.join(real, "config")), real);
      if (hooksPath) self.hooks(hooksPath);
      // Where this folder's shared part lives (a worktree's): its config and hooks apply too.
      const common = surface.entries.get(path.join(real, "commondir"));
      if (common?.kind === "file") self.gitDir(path.resolve(real, common.content.toString("utf8").trim()));
      for (const group of ["modules", "worktrees"]) {
        visit(path.join(real, group));
        self.nested(path.join(real, group), 0);
      }
    },
    /** .git/modules/<name>: a name may hold slashes, so a folder without HEAD is a level of it. */
    nested(dir: string, depth: number) {
      if (depth > 6) return;
      for (const name of listNames(dir)) {
        const child = path.join(dir, name);
        if (pathKind(child) !== "dir") continue;
        visit(child);
        if (pathKind(path.join(child, "HEAD")) === "file") self.gitDir(child);
        else self.nested(child, depth + 1);
      }
    },
  };
  return self;
}

/**
 * `core.hooksPath` of a repository's own config, read as text (nothing run): absolute, or
 * relative to the work tree (the folder holding `.git`). Undefined when unset or unreadable.
 */
function configuredHooksPath(config: SurfaceEntry | undefined, gitDir: string): string | undefined {
  if (config?.kind !== "file") return undefined;
  const match = /^\s*hookspath\s*=\s*"?([^"\n]+?)"?\s*$/im.exec(config.content.toString("utf8"));
  const value = match?.[1];
  if (!value || value.startsWith("~")) return undefined;
  return path.isAbsolute(value) ? value : path.resolve(path.dirname(gitDir), value);
}

/** The folder a gitfile (`gitdir: <path>`) names, resolved against the gitfile's folder. */
export function gitfileTarget(gitfile: string, content: Buffer): string | undefined {
  const match = /^gitdir:\s*(.+?)\s*$/m.exec(content.toString("utf8"));
  return match?.[1] ? path.resolve(path.dirname(gitfile), match[1]) : undefined;
}

function entryOf(target: string, info: Stats, limits: SurfaceLimits): SurfaceEntry {
  try {
    if (info.isSymbolicLink()) return { kind: "link", target: readlinkSync(target) };
    if (info.isDirectory()) return { kind: "dir" };
    if (!info.isFile() || info.size > limits.maxFileBytes) return { kind: "unreadable" };
    return { kind: "file", content: readFileSync(target), mode: info.mode & 0o7777 };
  } catch {
    // expected: removed or unreadable between lstat and read; compared as such (and restored if it was readable before)
    return { kind: "unreadable" };
  }
}

/** Two recordings of one path say the same thing. */
export function sameEntry(a: SurfaceEntry | undefined, b: SurfaceEntry | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.kind !== b.kind) return false;
  if (a.kind === "file" && b.kind === "file") return a.mode === b.mode && a.content.equals(b.content);
  if (a.kind === "link" && b.kind === "link") return a.target === b.target;
  return true;
}

function listNames(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    // expected: a missing folder has nothing to record
    return [];
  }
}

