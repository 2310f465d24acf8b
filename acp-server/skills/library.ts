// Finds the skills of one working directory across every source. The first source that has
// a skill of a given name wins (project over user over bundled); a plugin's skill whose name is
// already taken is not hidden but offered as `<plugin>:<name>`, the way Claude Code namespaces
// what a plugin brings, so installing a plugin never silently loses one of its skills. A SKILL.md that cannot be
// parsed is skipped with a warning naming the file; a skill whose requirements are missing,
// that is disabled in config.yaml, or whose text fails the threat scan is listed as unavailable
// with the reason. Reads the disk on every call: a skill written a moment ago is found at once.
import { readdirSync, readFileSync, statSync, type Dirent } from "node:fs";
import path from "node:path";
import { scanForThreats } from "../security/threat-scan";
import { missingRequirements } from "./requirements";
import { parseSkillFile, SkillFormatError, type SkillFrontmatter } from "./skill-file";
import { skillSources, type SkillSourceKind } from "./sources";
import { isRegularFile } from "../util/path-kind";

export const SKILL_FILE = "SKILL.md";

/** Largest SKILL.md read; larger ones are skipped with a warning. */
const MAX_SKILL_BYTES = 256 * 1024;
/** Linked files listed per skill. */
const MAX_LINKED_FILES = 200;

export interface Skill {
  name: string;
  description: string;
  version?: string;
  tags: string[];
  source: SkillSourceKind;
  /** The skill's folder and its SKILL.md (absolute). */
  dir: string;
  file: string;
  frontmatter: SkillFrontmatter;
  body: string;
  /** The whole SKILL.md as read. */
  text: string;
  /** Why the skill cannot be used here; undefined when it can. */
  unavailable?: string;
}

export interface SkillCatalog {
  /** Every skill by precedence, available or not, sorted by name. */
  skills: Skill[];
  /** Files that were skipped, each naming the file and the problem. */
  warnings: string[];
}

export interface CatalogOptions {
  cwd: string;
  home: string;
  /** Include the skills shipped with Hermes (default true). */
  bundled?: boolean;
  /** Skill names turned off in config.yaml. */
  disabled?: readonly string[];
  /** For `requires.env` (defaults to process.env). */
  env?: Record<string, string | undefined>;
  platform?: NodeJS.Platform;
}

export function loadSkillCatalog(options: CatalogOptions): SkillCatalog {
  const byName = new Map<string, Skill>();
  const warnings: string[] = [];
  const disabled = new Set(options.disabled ?? []);
  const where = { env: options.env ?? process.env, platform: options.platform ?? process.platform };
  for (const source of skillSources({ cwd: options.cwd, home: options.home, bundled: options.bundled ?? true })) {
    for (const file of skillFiles(source.dir, warnings)) {
      const skill = readSkill(file, source.kind, warnings);
      if (!skill) continue;
      if (byName.has(skill.name) && source.plugin) skill.name = `${source.plugin}:${skill.name}`;
      if (byName.has(skill.name)) continue;
      skill.unavailable = disabled.has(skill.name)
        ? "disabled in config.yaml (skills.disabled)"
        : (flagged(skill) ?? missingRequirements(skill.frontmatter, where));
      byName.set(skill.name, skill);
    }
  }
  // Plain code-unit order, not localeCompare: the first localeCompare in a process builds ICU's
  // collator (~10-20 ms, measured on the first session/new), and for the characters a skill name
  // may hold (SKILL_NAME: a-z, 0-9, hyphen, and the ASCII `:` of a plugin's prefix) the two orders are the same.
  const skills = [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { skills, warnings };
}

export function findSkill(catalog: SkillCatalog, name: string): Skill | undefined {
  return catalog.skills.find((skill) => skill.name === name);
}

export function availableSkills(catalog: SkillCatalog): Skill[] {
  return catalog.skills.filter((skill) => !skill.unavailable);
}

/** Files in a skill's folder other than SKILL.md, relative and sorted (references/, templates/, scripts/, assets/...). */
export function linkedFiles(skill: Skill): string[] {
  const files: string[] = [];
  const walk = (dir: string, prefix: string) => {
    for (const entry of entries(dir)) {
      if (files.length >= MAX_LINKED_FILES || entry.name.startsWith(".")) continue;
      const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(path.join(dir, entry.name), relative);
      else if (entry.isFile() && relative !== SKILL_FILE) files.push(relative);
    }
  };
  walk(skill.dir, "");
  return files.sort();
}

/** `<dir>/<skill>/SKILL.md`, and one level of grouping folders (`<dir>/<group>/<skill>/SKILL.md`). */
function skillFiles(dir: string, warnings: string[]): string[] {
  const files: string[] = [];
  for (const entry of entries(dir, warnings)) {
    if (!entry.isDirectory() || entry.name.startsWith(".")) continue;
    const folder = path.join(dir, entry.name);
    if (isRegularFile(path.join(folder, SKILL_FILE))) {
      files.push(path.join(folder, SKILL_FILE));
      continue;
    }
    for (const inner of entries(folder, warnings)) {
      const file = path.join(folder, inner.name, SKILL_FILE);
      if (inner.isDirectory() && !inner.name.startsWith(".") && isRegularFile(file)) files.push(file);
    }
  }
  return files.sort();
}

/**
 * Parsed SKILL.md files by path, with the text they were parsed from. The catalog is read on
 * every session/new, load and prompt; parsing each file's YAML (and its threat scan) again
 * cost most of that. The file is still read every time and reparsed whenever its text
 * differs, so a skill written a moment ago is found at once, as before.
 */
const parsed = new Map<string, { text: string; frontmatter: SkillFrontmatter; body: string; threat?: { found?: string } }>();

function readSkill(file: string, source: SkillSourceKind, warnings: string[]): Skill | undefined {
  try {
    const size = statSync(file).size;
    if (size > MAX_SKILL_BYTES) throw new SkillFormatError(`it is ${size} bytes, over the ${MAX_SKILL_BYTES}-byte limit`);
    const text = readFileSync(file, "utf8");
    const dir = path.dirname(file);
    let entry = parsed.get(file);
    if (entry?.text !== text) {
      parsed.delete(file);
      entry = { text, ...parseSkillFile(text, path.basename(dir)) };
      parsed.set(file, entry);
    }
    const { frontmatter, body } = entry;
    return { name: frontmatter.name, description: frontmatter.description, version: frontmatter.version, tags: frontmatter.tags, source, dir, file, frontmatter, body, text };
  } catch (error) {
    const reason = error instanceof SkillFormatError ? error.message : `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
    warnings.push(`skipped skill ${file}: ${reason}`);
    return undefined;
  }
}

/** Skills from the project or the user are scanned like context files; bundled ones ship with Hermes. */
function flagged(skill: Skill): string | undefined {
  if (skill.source === "bundled") return undefined;
  // The scan depends on the text only: done once per parsed text (see `parsed`).
  const entry = parsed.get(skill.file);
  const threat = entry?.text === skill.text ? (entry.threat ??= { found: scanForThreats(skill.text) }).found : scanForThreats(skill.text);
  return threat ? `blocked by the threat scan: ${threat}` : undefined;
}

/**
 * A folder's entries. A folder that is not there has none; one that is there but cannot be read
 * (permissions, I/O) is named in `warnings` with the reason, so it does not pass for empty.
 */
function entries(dir: string, warnings?: string[]): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR") warnings?.push(`cannot read skills folder ${dir}: ${code ?? (error as Error).message}`);
    return [];
  }
}

