// What the user does to a skill by hand (over `/skills` or the panel's "What Hermes knows"):
// edit its SKILL.md, revert it to a kept version, archive it. Edits go through skill_manage's
// own checks (format, name, threat and command scan) and every rewrite keeps the text it
// replaces (versions.ts); archiving moves the folder to the archive, never deletes it. Bundled
// skills are read-only. Each returns an outcome whose message is for the user.
import { readFileSync } from "node:fs";
import { archiveSkill } from "./archive";
import { findSkill, type Skill } from "./library";
import { catalogFor, type SkillsContext } from "./settings";
import { applySkillChange, planSkillChange, SkillManageError } from "./skill-writer";
import { keepSkillVersion, listSkillVersions } from "./versions";
import { writeFileAtomicSync } from "../util/atomic-write";
import { isReadOnlySource } from "./sources";

export interface SkillOutcome {
  ok: boolean;
  message: string;
}

/** The skill of that name in this context, or an outcome saying there is none. */
function lookUp(context: SkillsContext, name: string): Skill | SkillOutcome {
  const skill = findSkill(catalogFor(context), name);
  return skill ?? { ok: false, message: `No skill named "${name}". \`/skills\` lists them.` };
}

function readOnly(skill: Skill): SkillOutcome | undefined {
  if (!isReadOnlySource(skill.source)) return undefined;
  const from = skill.source === "plugin" ? "comes with a plugin" : "is bundled with Hermes";
  return { ok: false, message: `"${skill.name}" ${from} and read-only. To change it, create a user skill of the same name: it takes precedence.` };
}

/** `/skills revert NAME [N]`: version N of the kept ones (1, the default: the text before the last change). */
export function revertSkill(context: SkillsContext, name: string, which?: string): SkillOutcome {
  const skill = lookUp(context, name);
  if (!("dir" in skill)) return skill;
  const refused = readOnly(skill);
  if (refused) return { ok: false, message: `"${name}" is bundled with Hermes and read-only: there is nothing to revert.` };
  const versions = listSkillVersions(context.home, skill.dir);
  const index = which === undefined ? 1 : Number(which);
  const chosen = Number.isInteger(index) && index >= 1 ? versions[index - 1] : undefined;
  if (!chosen) return { ok: false, message: versions.length ? `No version ${which} of "${name}": \`/skills history ${name}\` lists 1 to ${versions.length}.` : `"${name}" has no earlier versions kept.` };
  const text = readFileSync(chosen.file, "utf8");
  keepSkillVersion(context.home, skill.dir, skill.text);
  writeFileAtomicSync(skill.file, text, 0o644);
  const until = new Date(chosen.savedAt).toISOString().slice(0, 16).replace("T", " ");
  return { ok: true, message: `Reverted "${name}" to v${chosen.version} (the text it had until ${until}). The version it replaced is kept: \`/skills history ${name}\`. New sessions use it.` };
}

/** Archives a project or user skill: no longer listed, indexed or offered; its folder is kept in the archive. */
export function archiveSkillByName(context: SkillsContext, name: string): SkillOutcome {
  const skill = lookUp(context, name);
  if (!("dir" in skill)) return skill;
  const refused = readOnly(skill);
  if (refused) return { ok: false, message: `"${name}" is bundled with Hermes and cannot be deleted; turn it off with \`skills.disabled\` in config.yaml.` };
  // Its text is kept as a version too: the history outlives the folder if the archive is cleaned.
  keepSkillVersion(context.home, skill.dir, skill.text);
  const archived = archiveSkill(context.home, skill.dir);
  return { ok: true, message: `Archived the ${skill.source} skill "${name}" to \`${archived}\`: it is no longer listed or offered (new sessions). \`/skills restore ${name}\` brings it back.` };
}

/** Replaces a skill's whole SKILL.md with the user's text, through skill_manage's checks; the old text is kept. */
export function editSkillText(context: SkillsContext, name: string, text: string): SkillOutcome {
  const skill = lookUp(context, name);
  if (!("dir" in skill)) return skill;
  const refused = readOnly(skill);
  if (refused) return refused;
  try {
    const change = planSkillChange({ action: "edit", name, content: text }, { cwd: context.cwd, home: context.home, catalog: catalogFor(context), author: "user" });
    applySkillChange(change, context.home);
    return { ok: true, message: `Saved "${name}" (v${change.version ?? "?"}). The earlier text is kept: \`/skills history ${name}\`.` };
  } catch (error) {
    if (error instanceof SkillManageError) return { ok: false, message: error.message };
    throw error;
  }
}
