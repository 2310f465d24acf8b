// Where skills come from, in order of precedence: the project (.hermes/skills, then the
// folders other agents use, .agents/skills and .claude/skills, nearest folder first up to the
// repository root), the user ($HERMES_HOME/skills), the enabled plugins' skills folders, then
// the skills bundled with Hermes.
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { activePlugins } from "../plugins/plugin-store";
import { isDirectory } from "../util/path-kind";

export type SkillSourceKind = "project" | "user" | "plugin" | "bundled";

/** Skills that come with something installed (Hermes itself, a plugin): read, never written by skill_manage. */
export function isReadOnlySource(kind: SkillSourceKind): boolean {
  return kind === "bundled" || kind === "plugin";
}

export interface SkillSource {
  kind: SkillSourceKind;
  /** A folder whose sub-folders are skills. */
  dir: string;
  /** The plugin a `plugin` source belongs to: its skills take `<plugin>:<name>` when the plain name is taken. */
  plugin?: string;
}

/** Project skill folders, relative to a project directory, in precedence order. */
export const PROJECT_SKILL_DIRS = [".hermes/skills", ".agents/skills", ".claude/skills"] as const;

/** The folder skill_manage creates project skills in. */
export const PROJECT_WRITE_DIR = PROJECT_SKILL_DIRS[0];

export function userSkillsDir(home: string): string {
  return path.join(home, "skills");
}

export function skillSources(options: { cwd: string; home: string; bundled: boolean }): SkillSource[] {
  const sources: SkillSource[] = [];
  for (const dir of projectDirectories(options.cwd)) {
    for (const relative of PROJECT_SKILL_DIRS) sources.push({ kind: "project", dir: path.join(dir, relative) });
  }
  sources.push({ kind: "user", dir: userSkillsDir(options.home) });
  for (const plugin of activePlugins(options.home).plugins) for (const dir of plugin.skillDirs) sources.push({ kind: "plugin", dir, plugin: plugin.name });
  const bundled = options.bundled ? bundledSkillsDir() : undefined;
  if (bundled) sources.push({ kind: "bundled", dir: bundled });
  return sources;
}

/** cwd, then its parents up to the repository root (the folder holding .git); cwd alone outside a repository. */
function projectDirectories(cwd: string): string[] {
  const chain: string[] = [];
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    chain.push(dir);
    if (existsSync(path.join(dir, ".git"))) return chain;
    if (path.dirname(dir) === dir) return [path.resolve(cwd)];
  }
}

let bundledDir: string | null | undefined;

/**
 * The package's `skills/` folder. The code runs from acp-server/skills/ (tests), dist/ or
 * dist/chunks/ (the built bundle, also inside the VS Code extension): walk up to the folder
 * holding package.json and skills/.
 */
export function bundledSkillsDir(): string | undefined {
  if (bundledDir === undefined) {
    bundledDir = null;
    for (let dir = path.dirname(fileURLToPath(import.meta.url)), depth = 0; depth < 6; dir = path.dirname(dir), depth++) {
      if (existsSync(path.join(dir, "package.json")) && isDirectory(path.join(dir, "skills"))) {
        bundledDir = path.join(dir, "skills");
        break;
      }
      if (path.dirname(dir) === dir) break;
    }
  }
  return bundledDir ?? undefined;
}

