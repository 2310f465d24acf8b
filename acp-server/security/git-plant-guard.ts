// After each command, sandboxed or not: nothing new that git or the editor runs later may stay
// behind. A snapshot before (git-surface.ts), another after; what differs is undone: a new
// `.git`, gitfile, bare repository, hook or editor auto-run file is removed, a changed hook,
// config, commondir, gitdir or info/attributes gets its old bytes and mode back. The sandbox
// makes most of this impossible already; this is the layer where there is no sandbox (an
// editor's terminal, `terminal.sandbox: off`, a command approved to run outside) and for what
// the sandbox cannot pin (a file that did not exist yet, a repository nested in a subfolder).
//
// Kept when harmless, so ordinary git work survives: a config change whose every setting is on
// git-config-change.ts's allowlist (`git remote add`), and a new repository whose hooks are
// only samples and whose config is all allowlisted (`git init`, `git clone`, `git submodule add`).
import { chmodSync, lstatSync, mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { isInside } from "../util/inside-folder";
import { lstatOrUndefined } from "../util/path-kind";
import { plantedConfigKeys } from "./git-config-change";
import { DEFAULT_LIMITS, gitfileTarget, sameEntry, snapshotGitSurface, type GitSurface, type SurfaceEntry, type SurfaceLimits } from "./git-surface";

export interface PlantReport {
  /** What was undone, one line each, for the tool result and the user. */
  undone: string[];
  /** What changed but could not be put back (a `.git` moved away, a file too large to keep). */
  notRestored: string[];
  /** The snapshot's coverage gap, when the walk hit its budget. */
  partial?: string;
}

export class GitPlantGuard {
  private constructor(
    private readonly roots: readonly string[],
    private readonly before: GitSurface,
    private readonly limits: SurfaceLimits,
  ) {}

  /** Records the surface; call right before the command starts. */
  static before(roots: readonly string[], limits: SurfaceLimits = DEFAULT_LIMITS): GitPlantGuard {
    return new GitPlantGuard(roots, snapshotGitSurface(roots, limits), limits);
  }

  /** A guard whose "before" is a surface recorded earlier (the last one checked). */
  static since(roots: readonly string[], before: GitSurface, limits: SurfaceLimits = DEFAULT_LIMITS): GitPlantGuard {
    return new GitPlantGuard(roots, before, limits);
  }

  /** The surface this guard compares with. */
  get baseline(): GitSurface {
    return this.before;
  }

  /**
   * Compares with the surface now and undoes what was planted; call when the command has ended.
   * `checked` is the surface as it is after the undo: the next check's baseline.
   */
  check(): PlantReport & { checked: GitSurface } {
    const after = snapshotGitSurface(this.roots, this.limits);
    const { acted, forgotten, ...report } = undoPlants(this.before, after);
    // Not a fresh snapshot: a process still planting would slip its plant into the baseline.
    return { ...report, checked: baselineAfterUndo(this.before, after, acted, forgotten) };
  }
}

/** The compare-and-undo step, on two snapshots (exported for tests that build them by hand). */
export function undoPlants(before: GitSurface, after: GitSurface): UndoResult {
  const partial = after.partial ?? before.partial;
  const report: UndoResult = { undone: [], notRestored: [], acted: [], forgotten: [], ...(partial ? { partial } : {}) };
  const keptDirs = harmlessNewRepositories(before, after);
  const removed: string[] = [];
  const gone = (target: string) => removed.some((dir) => isInside(dir, target));

  // A new repository marker (`.git`, gitfile, bare repository) that is not harmless: removed whole.
  for (const marker of after.repoMarkers) {
    if (before.repoMarkers.has(marker) || keptMarker(marker, before, after, keptDirs)) continue;
    remove(marker);
    removed.push(marker);
    report.acted.push(marker);
    report.undone.push(`removed a new git repository or gitfile: ${marker}`);
  }
  // A new git folder inside a known one (.git/modules/<name>, .git/worktrees/<name>) that is not harmless: removed whole.
  for (const dir of after.gitDirs) {
    if (before.gitDirs.has(dir) || keptDirs.includes(dir) || gone(dir) || ![...before.gitDirs].some((known) => isInside(known, dir))) continue;
    remove(dir);
    removed.push(dir);
    report.acted.push(dir);
    report.undone.push(`removed a new git folder: ${dir}`);
  }
  // A marker that was there and changed: a gitfile or link gets its old text back; a repository
  // folder moved away or replaced cannot be rebuilt from a snapshot of its settings, so only
  // what replaced it is removed.
  for (const marker of before.repoMarkers) {
    const was = before.entries.get(marker);
    const now = after.entries.get(marker);
    if (sameEntry(was, now) || (now === undefined && after.partial)) continue;
    if (was?.kind !== "dir") {
      restoreOrRemove(marker, was, report, "the gitfile changed");
      continue;
    }
    removed.push(marker);
    report.forgotten.push(marker);
    if (now !== undefined) {
      remove(marker);
      report.undone.push(`removed what replaced the repository folder ${marker} (a ${now.kind})`);
    }
    report.notRestored.push(`${marker} was ${now === undefined ? "removed" : "replaced"} by the command; its history is not in Hermes's snapshot, so it was not restored`);
  }
  // A known git folder that is gone (one above the workspace, where a gitfile led): nothing is
  // written into where it was, which would leave a half repository behind.
  for (const dir of before.gitDirs) {
    if (gone(dir) || after.gitDirs.has(dir) || lstatOrUndefined(dir)?.isDirectory()) continue;
    removed.push(dir);
    report.forgotten.push(dir);
    report.notRestored.push(`the repository folder ${dir} was removed or moved by the command; it was not restored`);
  }

  // Settings and hooks, shortest path first (a folder is put back before the files in it).
  const paths = [...new Set([...before.entries.keys(), ...after.entries.keys()])].sort((a, b) => a.length - b.length);
  for (const target of paths) {
    if (before.repoMarkers.has(target) || after.repoMarkers.has(target) || gone(target)) continue;
    const was = before.entries.get(target);
    const now = after.entries.get(target);
    if (sameEntry(was, now)) continue;
    if (now === undefined) {
      // Not seen after a walk that stopped early, or still there but no longer reached (a
      // gitfile that led to it is gone): not removed, so nothing to put back.
      if (after.partial || lstatOrUndefined(target) !== undefined) continue;
      // In a git folder nothing leads to any more: not written into.
      const owner = ownerGitDir(target, before);
      if (owner !== undefined && !after.gitDirs.has(owner)) continue;
    }
    // Part of a kept new repository (and not of a repository nested in it).
    if (was === undefined && keptDirs.includes(ownerGitDir(target, after) ?? "")) continue;
    // A new folder runs nothing itself; what is in it is judged file by file.
    if (was === undefined && now?.kind === "dir") continue;
    if (isConfig(target) && now?.kind === "file" && (was === undefined || was.kind === "file")) {
      const planted = plantedConfigKeys(was?.kind === "file" ? was.content : undefined, now.content);
      if (planted !== undefined && planted.length === 0) continue;
      restoreOrRemove(target, was, report, planted === undefined ? "git cannot read it" : `it set ${planted.join(", ")}`);
    } else restoreOrRemove(target, was, report, now === undefined ? "it was removed" : was === undefined ? "it is new" : "it changed");
    if (was === undefined) removed.push(target);
  }
  return report;
}

/** What undoPlants did: `acted` put back as before, `forgotten` gone for good (absent from now on). */
interface UndoResult extends PlantReport {
  acted: string[];
  forgotten: string[];
}

/** The surface as the undo meant to leave it: what it acted on as before, what is gone absent, the rest as after. */
function baselineAfterUndo(before: GitSurface, after: GitSurface, acted: string[], forgotten: string[]): GitSurface {
  const lost = (target: string) => forgotten.some((place) => isInside(place, target));
  const touched = (target: string) => !lost(target) && acted.some((place) => isInside(place, target));
  const keepAfter = <T extends string>(items: Iterable<T>) => [...items].filter((item) => !touched(item) && !lost(item));
  const fromBefore = <T extends string>(items: Iterable<T>) => [...items].filter(touched);
  return {
    entries: new Map([...[...after.entries].filter(([target]) => !touched(target) && !lost(target)), ...[...before.entries].filter(([target]) => touched(target))]),
    gitDirs: new Set([...keepAfter(after.gitDirs), ...fromBefore(before.gitDirs)]),
    repoMarkers: new Set([...keepAfter(after.repoMarkers), ...fromBefore(before.repoMarkers)]),
    ...(after.partial ? { partial: after.partial } : {}),
  };
}

function restoreOrRemove(target: string, was: SurfaceEntry | undefined, report: UndoResult, why: string): void {
  report.acted.push(target);
  if (was === undefined) {
    remove(target);
    report.undone.push(`removed ${target} (${why})`);
    return;
  }
  if (was.kind === "unreadable") {
    report.notRestored.push(`${target} changed (${why}) and was too large or unreadable to keep a copy of`);
    return;
  }
  try {
    remove(target);
    if (was.kind === "dir") mkdirSync(target, { recursive: true });
    else {
      mkdirSync(path.dirname(target), { recursive: true });
      if (was.kind === "link") symlinkSync(was.target, target);
      else {
        // wx: never through something that appeared at the path since the removal.
        writeFileSync(target, was.content, { flag: "wx", mode: was.mode });
        chmodSync(target, was.mode);
      }
    }
    report.undone.push(`restored ${target} (${why})`);
  } catch (error) {
    report.notRestored.push(`${target} changed (${why}) and could not be restored: ${(error as Error).message}`);
  }
}

/**
 * New repositories that run nothing: hooks only `*.sample` (git never runs those), a config of
 * allowlisted settings only, no info/attributes or config.worktree, and a commondir only in a
 * worktree's folder, leading back to a repository that was already there. Their git folders.
 */
function harmlessNewRepositories(before: GitSurface, after: GitSurface): string[] {
  const kept: string[] = [];
  for (const dir of after.gitDirs) {
    if (before.gitDirs.has(dir)) continue;
    const inside = [...after.entries.entries()].filter(([target]) => isInside(dir, target) && target !== dir);
    const hooks = inside.filter(([target]) => isInside(path.join(dir, "hooks"), target) && target !== path.join(dir, "hooks"));
    if (hooks.some(([target, entry]) => entry.kind !== "dir" && !target.endsWith(".sample"))) continue;
    if (inside.some(([target]) => ["commondir", "config.worktree", path.join("info", "attributes")].includes(path.relative(dir, target)) && path.basename(path.dirname(dir)) !== "worktrees")) continue;
    const config = after.entries.get(path.join(dir, "config"));
    if (config !== undefined) {
      if (config.kind !== "file") continue;
      const planted = plantedConfigKeys(undefined, config.content);
      if (planted === undefined || planted.length > 0) continue;
    }
    // A worktree's folder: its commondir must lead back to the repository it belongs to.
    const common = after.entries.get(path.join(dir, "commondir"));
    if (common !== undefined && (common.kind !== "file" || !before.gitDirs.has(path.resolve(dir, common.content.toString("utf8").trim())))) continue;
    kept.push(dir);
  }
  return kept;
}

/**
 * A new marker that is a kept repository itself: its `.git` folder (or bare folder), or a gitfile
 * naming a kept git folder inside a repository Hermes already knew (a submodule's, a
 * worktree's). A gitfile to a new folder elsewhere is removed: it could be changed from there.
 */
function keptMarker(marker: string, before: GitSurface, after: GitSurface, keptDirs: string[]): boolean {
  const entry = after.entries.get(marker);
  if (entry?.kind === "file") {
    const named = gitfileTarget(marker, entry.content);
    const real = named === undefined ? undefined : realOrSelf(named);
    return real !== undefined && keptDirs.includes(real) && [...before.gitDirs].some((known) => isInside(known, real));
  }
  return keptDirs.includes(realOrSelf(marker));
}

/** The innermost git folder that holds `target`. */
function ownerGitDir(target: string, surface: GitSurface): string | undefined {
  let owner: string | undefined;
  for (const dir of surface.gitDirs) if (isInside(dir, target) && (owner === undefined || dir.length > owner.length)) owner = dir;
  return owner;
}

function realOrSelf(target: string): string {
  try {
    return realpathSync(target);
  } catch {
    // expected: a gitfile naming nothing matches no kept folder
    return target;
  }
}

function isConfig(target: string): boolean {
  return path.basename(target) === "config" || path.basename(target) === "config.worktree";
}

function remove(target: string): void {
  try {
    lstatSync(target);
  } catch {
    // expected: already gone (removed with a folder above it)
    return;
  }
  rmSync(target, { recursive: true, force: true });
}
