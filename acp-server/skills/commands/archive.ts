// /skills archived (the archive, newest first) and /skills restore NAME (the newest archived
// copy of NAME back where it was archived from, else among the user's skills). Archived skills come from the curator, an undone
// learned skill, or a merge; they are kept until the user removes them by hand.
import path from "node:path";
import { archivedOrigin, listArchivedSkills, restoreArchivedSkill } from "../archive";
import { userSkillsDir } from "../sources";

const LISTED = 30;

export function archiveAnswer(verb: "archived" | "restore", name: string | undefined, home: string): string {
  const archived = listArchivedSkills(home);
  if (verb === "archived") {
    if (archived.length === 0) return "No archived skills.";
    const lines = archived.slice(0, LISTED).map((entry) => `- \`${entry.name}\`, archived ${entry.archivedAt.slice(0, 16).replace("T", " ")} (\`${entry.dir}\`)`);
    const more = archived.length > LISTED ? [`(${archived.length - LISTED} older ones not shown)`] : [];
    return ["**Archived skills** (newest first; `/skills restore NAME` brings one back)", ...lines, ...more].join("\n");
  }
  if (!name) return "Usage: `/skills restore NAME` (`/skills archived` lists them).";
  const entry = archived.find((candidate) => candidate.name === name);
  if (!entry) return `No archived skill named "${name}". \`/skills archived\` lists them.`;
  // Back where it was (a project's skill folder), else among the user's skills.
  const target = archivedOrigin(entry.dir) ?? path.join(userSkillsDir(home), name);
  const refused = restoreArchivedSkill(entry.dir, target);
  if (refused) return `Could not restore "${name}": ${refused}. Rename or archive that skill first.`;
  return `Restored "${name}" (archived ${entry.archivedAt.slice(0, 16).replace("T", " ")}) to \`${target}\`. New sessions list and offer it.`;
}
