// Archived skills: moved out of the skill folders into $HERMES_HOME/skills-archive, never
// deleted. An archived skill is no longer listed, indexed or offered; moving its folder back
// restores it. Used when a learned skill is undone and by the curator for unused skills.
import fs from "node:fs";
import path from "node:path";

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
  try {
    fs.renameSync(skillDir, target);
  } catch (error) {
    // Another file system (a project skill on another disk): copy, then remove.
    if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
    fs.cpSync(skillDir, target, { recursive: true });
    fs.rmSync(skillDir, { recursive: true, force: true });
  }
  return target;
}
