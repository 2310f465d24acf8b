// Skills as slash commands: every available skill is offered as `/<name>`, and invoking one
// turns the prompt into the skill's body plus the user's text. Built-in commands keep their
// names; a skill with the same name is reachable through skill_view only.
import type { LoadedConfig } from "../../config/load";
import { availableSkills, findSkill, linkedFiles } from "../library";
import { catalogFor, type SkillsContext } from "../settings";
import { renderSkillsListing, skillInvocationText } from "../skill-text";
import { readSkillUsage, recordSkillUse } from "../usage-store";
import type { CommandInfo } from "../../runtime/slash-command";

const MAX_DESCRIPTION = 200;

function contextFor(cwd: string, loaded: LoadedConfig): SkillsContext {
  return { cwd, home: loaded.home, config: loaded.config, env: loaded.env };
}

/** One command per available skill; a skill named like a built-in command (`reserved`) is not one. */
export function skillCommands(cwd: string, loaded: LoadedConfig, reserved: ReadonlySet<string>): CommandInfo[] {
  const skills = availableSkills(catalogFor(contextFor(cwd, loaded))).filter((skill) => !reserved.has(skill.name));
  const description = (text: string) => {
    const flat = text.replace(/\s+/g, " ").trim();
    return flat.length > MAX_DESCRIPTION ? `${flat.slice(0, MAX_DESCRIPTION - 1)}…` : flat;
  };
  return skills.map((skill) => ({ name: skill.name, description: `Skill: ${description(skill.description)}`, hint: "what to apply the skill to (optional)" }));
}

/**
 * The text a prompt's first text `first` becomes when it is a `/<skill> text` invocation (the
 * prompt's other parts stay after it), or undefined when it does not invoke an available skill
 * (a built-in command's name in `reserved` never does). Counts the use.
 */
export function expandSkillInvocation(first: string, cwd: string, loaded: LoadedConfig, reserved: ReadonlySet<string>, sessionId: string, used?: Set<string>): string | undefined {
  // A plugin's skill whose plain name was taken answers to `<plugin>:<name>` (skills/library.ts).
  const match = /^\/((?:[A-Za-z0-9][\w.-]*:)?[a-z0-9][a-z0-9-]*)(?:\s+([\s\S]*))?$/.exec(first.trim());
  const name = match?.[1];
  if (!match || name === undefined || reserved.has(name)) return undefined;
  const skill = findSkill(catalogFor(contextFor(cwd, loaded)), name);
  if (!skill || skill.unavailable) return undefined;
  recordSkillUse(loaded.home, skill.name, "invocation", sessionId);
  used?.add(skill.name);
  return skillInvocationText(skill, match[2] ?? "", linkedFiles(skill));
}

/** The /skills answer. */
export function skillsListing(cwd: string, loaded: LoadedConfig): string {
  const catalog = catalogFor(contextFor(cwd, loaded));
  return renderSkillsListing(catalog.skills, readSkillUsage(loaded.home), catalog.warnings);
}
