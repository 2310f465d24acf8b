// Skills as slash commands: every available skill is offered as `/<name>`, and invoking one
// turns the prompt into the skill's body plus the user's text. Built-in commands keep their
// names; a skill with the same name is reachable through skill_view only.
import type * as acp from "@agentclientprotocol/sdk/unstable";
import type { LoadedConfig } from "../config/load";
import { availableSkills, findSkill, linkedFiles } from "../skills/library";
import { catalogFor, type SkillsContext } from "../skills/settings";
import { renderSkillsListing, skillInvocationText } from "../skills/skill-text";
import { readSkillUsage, recordSkillUse } from "../skills/usage-store";
import { COMMANDS } from "./commands";

const BUILT_IN = new Set(COMMANDS.map((command) => command.name));
const MAX_DESCRIPTION = 200;

function contextFor(cwd: string, loaded: LoadedConfig): SkillsContext {
  return { cwd, home: loaded.home, config: loaded.config, env: loaded.env };
}

/** One command per available skill (the built-in commands come before them). */
export function skillCommands(cwd: string, loaded: LoadedConfig): acp.AvailableCommand[] {
  const skills = availableSkills(catalogFor(contextFor(cwd, loaded))).filter((skill) => !BUILT_IN.has(skill.name));
  const description = (text: string) => {
    const flat = text.replace(/\s+/g, " ").trim();
    return flat.length > MAX_DESCRIPTION ? `${flat.slice(0, MAX_DESCRIPTION - 1)}…` : flat;
  };
  return skills.map((skill) => ({ name: skill.name, description: `Skill: ${description(skill.description)}`, input: { hint: "what to apply the skill to (optional)" } }));
}

/**
 * The prompt a `/<skill> text` invocation becomes (the other blocks of the prompt kept after
 * it), or undefined when the prompt does not invoke an available skill. Counts the use.
 */
export function expandSkillInvocation(prompt: acp.ContentBlock[], cwd: string, loaded: LoadedConfig, sessionId: string, used?: Set<string>): acp.ContentBlock[] | undefined {
  const first = prompt[0];
  if (first?.type !== "text") return undefined;
  const match = /^\/([a-z0-9][a-z0-9-]*)(?:\s+([\s\S]*))?$/.exec(first.text.trim());
  const name = match?.[1];
  if (!match || name === undefined || BUILT_IN.has(name)) return undefined;
  const skill = findSkill(catalogFor(contextFor(cwd, loaded)), name);
  if (!skill || skill.unavailable) return undefined;
  recordSkillUse(loaded.home, skill.name, "invocation", sessionId);
  used?.add(skill.name);
  return [{ type: "text", text: skillInvocationText(skill, match[2] ?? "", linkedFiles(skill)) }, ...prompt.slice(1)];
}

/** The /skills answer. */
export function skillsListing(cwd: string, loaded: LoadedConfig): string {
  const catalog = catalogFor(contextFor(cwd, loaded));
  return renderSkillsListing(catalog.skills, readSkillUsage(loaded.home), catalog.warnings);
}
