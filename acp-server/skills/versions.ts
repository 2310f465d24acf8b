// Earlier versions of a skill's SKILL.md. Every change that rewrites a SKILL.md (skill_manage,
// an undo, a revert) first keeps the text it replaces, so `/skills history NAME` can list them
// and `/skills revert NAME` can bring one back. Kept in $HERMES_HOME/skill-history, not in the
// skill's folder: a project skill's history must not show up in the team's repository.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { writeFileAtomicSync } from "../util/atomic-write";
import { parseSkillFile } from "./skill-file";

/** Versions kept per skill; the oldest go first. */
const MAX_VERSIONS = 50;

export interface SkillVersion {
  /** The file holding that text. */
  file: string;
  /** Its frontmatter version ("?" when it had none or did not parse). */
  version: string;
  /** When it was replaced (ms). */
  savedAt: number;
}

/** One folder per skill folder: the name to read, a hash of the folder so two projects' "deploy" skills stay apart. */
export function skillHistoryDir(home: string, skillDir: string): string {
  const hash = createHash("sha1").update(path.resolve(skillDir)).digest("hex").slice(0, 10);
  return path.join(home, "skill-history", `${path.basename(skillDir)}-${hash}`);
}

/** Keeps `text` (a SKILL.md about to be replaced). Never throws: a lost history entry must not fail the change. */
export function keepSkillVersion(home: string, skillDir: string, text: string): void {
  try {
    const dir = skillHistoryDir(home, skillDir);
    fs.mkdirSync(dir, { recursive: true });
    const latest = listSkillVersions(home, skillDir)[0];
    if (latest && fs.readFileSync(latest.file, "utf8") === text) return;
    let at = Date.now();
    while (fs.existsSync(path.join(dir, `${at}-${safe(versionOf(text))}.md`))) at++;
    writeFileAtomicSync(path.join(dir, `${at}-${safe(versionOf(text))}.md`), text);
    for (const old of listSkillVersions(home, skillDir).slice(MAX_VERSIONS)) fs.rmSync(old.file, { force: true });
  } catch {
    // History is a convenience; the change itself goes on.
  }
}

/** The kept versions, newest first. */
export function listSkillVersions(home: string, skillDir: string): SkillVersion[] {
  const dir = skillHistoryDir(home, skillDir);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const versions: SkillVersion[] = [];
  for (const name of names) {
    const match = /^(\d+)-(.+)\.md$/.exec(name);
    if (match) versions.push({ file: path.join(dir, name), savedAt: Number(match[1]), version: match[2] ?? "?" });
  }
  return versions.sort((a, b) => b.savedAt - a.savedAt);
}

function versionOf(text: string): string {
  try {
    return parseSkillFile(text).frontmatter.version ?? "?";
  } catch {
    return "?";
  }
}

function safe(version: string): string {
  return version.replace(/[^\w.-]/g, "_").slice(0, 40) || "?";
}
