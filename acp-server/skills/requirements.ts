// Whether a skill can work here: its platforms, the commands it needs on PATH and the
// environment variables it needs. A skill that cannot is listed as unavailable, with why.
import { findExecutable } from "../util/find-executable";
import type { SkillFrontmatter } from "./skill-file";

const PLATFORM_ALIASES: Record<string, string> = { macos: "darwin", mac: "darwin", osx: "darwin", windows: "win32", win: "win32" };

export interface RequirementEnv {
  env: Record<string, string | undefined>;
  platform: NodeJS.Platform;
}

/** Why the skill is unavailable here, or undefined when it is usable. */
export function missingRequirements(frontmatter: SkillFrontmatter, where: RequirementEnv): string | undefined {
  const platforms = frontmatter.platforms?.map((name) => PLATFORM_ALIASES[name.toLowerCase()] ?? name.toLowerCase());
  if (platforms && platforms.length > 0 && !platforms.includes(where.platform)) {
    return `only for ${frontmatter.platforms!.join(", ")} (this is ${where.platform})`;
  }
  const reasons: string[] = [];
  const commands = (frontmatter.requires?.commands ?? []).filter((command) => !onPath(command, where));
  if (commands.length > 0) reasons.push(`command${commands.length > 1 ? "s" : ""} not on PATH: ${commands.join(", ")}`);
  const variables = (frontmatter.requires?.env ?? []).filter((name) => !where.env[name]);
  if (variables.length > 0) reasons.push(`environment variable${variables.length > 1 ? "s" : ""} not set: ${variables.join(", ")}`);
  return reasons.length > 0 ? reasons.join("; ") : undefined;
}

const found = new Map<string, boolean>();

function onPath(command: string, where: RequirementEnv): boolean {
  const searchPath = where.env.PATH ?? where.env.Path ?? "";
  const key = `${command}\0${searchPath}`;
  let result = found.get(key);
  if (result === undefined) {
    result = findExecutable(command, { searchPath, platform: where.platform }) !== undefined;
    found.set(key, result);
  }
  return result;
}
