// Earlier versions of a skill's SKILL.md. Every change that rewrites a SKILL.md (skill_manage,
// an undo, a revert) first keeps the text it replaces, so `/skills history NAME` can list them
// and `/skills revert NAME` can bring one back. Kept in $HERMES_HOME/skill-history, not in the
// skill's folder: a project skill's history must not show up in the team's repository.
import { createHash } from "node:crypto";
import path from "node:path";
import { createLogger } from "../util/log";
import { keepTextVersion, listTextVersions } from "../util/text-versions";
import { parseSkillFile } from "./skill-file";

const log = createLogger("skills");

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
    keepTextVersion(skillHistoryDir(home, skillDir), text, versionOf(text), MAX_VERSIONS);
  } catch (error) {
    // History is a convenience: the change itself goes on, but Revert will miss this version.
    log.warn("could not keep the skill's earlier version", { skillDir, error });
  }
}

/** The kept versions, newest first. */
export function listSkillVersions(home: string, skillDir: string): SkillVersion[] {
  return listTextVersions(skillHistoryDir(home, skillDir)).map(({ file, label, savedAt }) => ({ file, version: label, savedAt }));
}

function versionOf(text: string): string {
  try {
    return parseSkillFile(text).frontmatter.version ?? "?";
  } catch {
    // expected: a SKILL.md that does not parse is kept with version "?"
    return "?";
  }
}
