// Archived skills: moved out of the skill folders into $HERMES_HOME/skills-archive, never
// deleted. An archived skill is no longer listed, indexed or offered; moving its folder back
// restores it (`/skills restore NAME`). Used when a learned skill is undone and by the curator
// for unused or merged skills.
import fs from "node:fs";
import path from "node:path";
import { AgentError } from "../util/agent-error";
import { createLogger } from "../util/log";
import { isDirectory } from "../util/path-kind";

const log = createLogger("skills");

/** Inside an archived folder: where it was archived from (a dot file: never a linked file of the skill). */
const ORIGIN_FILE = ".archived-from.json";

export function skillsArchiveDir(home: string): string {
  return path.join(home, "skills-archive");
}

/** Moves a skill folder into the archive; returns where it went. */
export function archiveSkill(home: string, skillDir: string): string {
  const archive = skillsArchiveDir(home);
  fs.mkdirSync(archive, { recursive: true });
  const stamp = new Date().toISOString().replace(/[-:]/g, "").replace(/\..*$/, "");
  let target = path.join(archive, `${path.basename(skillDir)}-${stamp}`);
  for (let n = 2; fs.existsSync(target); n++) target = path.join(archive, `${path.basename(skillDir)}-${stamp}-${n}`);
  moveFolder(skillDir, target);
  // Where it came from, inside it (a project skill goes back to its project on restore).
  try {
    fs.writeFileSync(path.join(target, ORIGIN_FILE), `${JSON.stringify({ from: path.resolve(skillDir) })}\n`);
  } catch (error) {
    // The skill is archived; without this file a restore puts it among the user's skills.
    log.warn("archived skill has no record of where it came from", { skillDir, target, error });
  }
  return target;
}

/** The folder an archived skill came from, when it was recorded. */
export function archivedOrigin(archivedDir: string): string | undefined {
  try {
    const from = (JSON.parse(fs.readFileSync(path.join(archivedDir, ORIGIN_FILE), "utf8")) as { from?: unknown }).from;
    return typeof from === "string" && path.isAbsolute(from) ? from : undefined;
  } catch {
    // expected: no origin file (or a damaged one): the skill is restored among the user's skills
    return undefined;
  }
}

export interface ArchivedSkill {
  /** The skill's name (its folder's name before it was archived). */
  name: string;
  /** The archived folder. */
  dir: string;
  /** When it was archived (ISO), from the folder's stamp. */
  archivedAt: string;
}

/** The archived skills, newest first. */
export function listArchivedSkills(home: string): ArchivedSkill[] {
  let names: string[];
  try {
    names = fs.readdirSync(skillsArchiveDir(home));
  } catch (error) {
    // No archive folder yet means nothing archived; an unreadable one must not pass for empty.
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw new AgentError("internal", `Cannot read the skills archive ${skillsArchiveDir(home)}: ${(error as Error).message}`, { dir: skillsArchiveDir(home) }, { cause: error });
  }
  const archived: ArchivedSkill[] = [];
  for (const entry of names) {
    if (!isDirectory(path.join(skillsArchiveDir(home), entry))) continue;
    const match = /^(.+)-(\d{8})T(\d{6})(?:-\d+)?$/.exec(entry);
    if (!match) continue;
    const [, name = "", day = "", time = ""] = match;
    const archivedAt = `${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6)}T${time.slice(0, 2)}:${time.slice(2, 4)}:${time.slice(4)}Z`;
    archived.push({ name, dir: path.join(skillsArchiveDir(home), entry), archivedAt });
  }
  return archived.sort((a, b) => b.archivedAt.localeCompare(a.archivedAt) || b.dir.localeCompare(a.dir));
}

/**
 * Moves an archived folder back to `targetDir`. Refuses (returns why) when a skill already
 * lives there: restoring never overwrites.
 */
export function restoreArchivedSkill(archivedDir: string, targetDir: string): string | undefined {
  if (fs.existsSync(targetDir)) return `${targetDir} already exists`;
  if (!fs.existsSync(archivedDir)) return `${archivedDir} is no longer in the archive`;
  fs.mkdirSync(path.dirname(targetDir), { recursive: true });
  moveFolder(archivedDir, targetDir);
  fs.rmSync(path.join(targetDir, ORIGIN_FILE), { force: true });
  // A restored skill counts as fresh: the curator does not archive it again at its next pass.
  const now = new Date();
  try {
    fs.utimesSync(path.join(targetDir, "SKILL.md"), now, now);
  } catch {
    // expected: no SKILL.md (a damaged folder): the catalog warns about it
  }
  return undefined;
}

function moveFolder(from: string, to: string): void {
  try {
    fs.renameSync(from, to);
  } catch (error) {
    // Another file system (a project skill on another disk): copy, then remove.
    if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
    fs.cpSync(from, to, { recursive: true });
    fs.rmSync(from, { recursive: true, force: true });
  }
}

