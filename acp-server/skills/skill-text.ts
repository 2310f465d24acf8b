// Skills as text for the model and the user: the level-0 index in the frozen system prompt,
// the prompt a slash invocation becomes, and the /skills listing.
import type { Skill } from "./library";
import type { SkillUsage } from "./usage-store";

/** Index entries in the system prompt; more are left to skills_list. */
const MAX_INDEXED = 150;
/** The index is paid on every model call (issue 34): one short trigger line per skill. */
const MAX_INDEX_DESCRIPTION = 120;

export const SKILLS_GUIDANCE = `You have skills: tested procedures for recurring work, listed below by name with when to use each. When one matches the task, load it with skill_view and follow it (skills_list shows all, with what each does). After a hard task, or when the user corrected your approach, save the procedure with skill_manage (create one, or patch the one you used). New skills are listed from the next session on; skill_view finds them at once.`;

/** The level-0 index: name and when to use it, per available skill. */
export function renderSkillIndex(skills: readonly Skill[]): string | undefined {
  if (skills.length === 0) return undefined;
  const shown = skills.slice(0, MAX_INDEXED).map((skill) => `- ${skill.name}: ${oneLine(indexTrigger(skill.description), MAX_INDEX_DESCRIPTION)}`);
  const more = skills.length > MAX_INDEXED ? `\n(${skills.length - MAX_INDEXED} more: skills_list)` : "";
  return `# Skills\n${SKILLS_GUIDANCE}\n\n${shown.join("\n")}${more}`;
}

/**
 * What the index says of a skill: its "Use when/for ..." sentence, the trigger the model matches
 * a task against (the name already says what it does; skill_view and skills_list give the rest);
 * a description without one is indexed by its first sentence.
 */
export function indexTrigger(description: string): string {
  const sentences = description.replace(/\s+/g, " ").trim().split(/(?<=[.!?])\s+/);
  return sentences.find((sentence) => /^Use (when|for|to|after|before|if)\b/i.test(sentence)) ?? sentences[0] ?? "";
}

/**
 * What a `/<skill> text` prompt becomes: the command as typed (its first line, so a title taken
 * from the prompt reads like what the user wrote), the skill's body, then what the user asked.
 */
export function skillInvocationText(skill: Skill, userText: string, linked: readonly string[]): string {
  const files = linked.length ? `\n\nLinked files (load one with skill_view {name: "${skill.name}", file}): ${linked.join(", ")}` : "";
  const request = userText.trim() ? userText.trim() : "(nothing more: apply the skill to the current work)";
  const typed = `/${skill.name}${userText.trim() ? ` ${userText.trim().split("\n")[0]}` : ""}`;
  return `${typed}\n\nThe user invoked the skill "${skill.name}". Follow it for this request.\n\n<skill name="${skill.name}" path="${skill.file}">\n${skill.body.trim()}\n</skill>${files}\n\nThe user's request: ${request}`;
}

/** The /skills answer: every skill with its source and usage; unavailable ones with why. */
export function renderSkillsListing(skills: readonly Skill[], usage: Record<string, SkillUsage>, warnings: readonly string[]): string {
  if (skills.length === 0 && warnings.length === 0) return "No skills found. Add folders with a SKILL.md to `.hermes/skills/` in the project or `~/.hermes/skills/`.";
  const line = (skill: Skill) => {
    const used = usage[skill.name];
    const counts = used ? `used ${used.views + used.invocations}× (${used.views} loaded, ${used.invocations} invoked)${lastUse(used)}${successRate(used)}` : "not used yet";
    const state = skill.unavailable ? ` — unavailable: ${skill.unavailable}` : "";
    return `- \`/${skill.name}\` (${skill.source}${skill.version ? `, v${skill.version}` : ""}, ${counts}): ${oneLine(skill.description, 120)}${state}`;
  };
  const available = skills.filter((skill) => !skill.unavailable);
  const unavailable = skills.filter((skill) => skill.unavailable);
  const parts = [`**Skills** (${available.length} available${unavailable.length ? `, ${unavailable.length} unavailable` : ""})`, ...available.map(line)];
  if (unavailable.length) parts.push("", "**Unavailable**", ...unavailable.map(line));
  if (warnings.length) parts.push("", "**Skipped files**", ...warnings.map((warning) => `- ${warning}`));
  return parts.join("\n");
}

function lastUse(used: SkillUsage): string {
  return used.lastUsed ? `, last ${used.lastUsed.slice(0, 10)}` : "";
}

/** "2/3 went well": turns that used the skill and ended well, of those whose outcome is known. */
function successRate(used: SkillUsage): string {
  const known = (used.successes ?? 0) + (used.failures ?? 0);
  return known > 0 ? `, ${used.successes ?? 0}/${known} went well` : "";
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
