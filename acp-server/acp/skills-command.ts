// /skills and its subcommands, answered without the model:
//   /skills                      the skills with use count, last use and success rate
//   /skills history NAME         the kept earlier versions of a skill (newest first)
//   /skills revert NAME [N]      bring back version N of that list (default 1: the one before
//                                the current text); the current text is kept as a version first
import { readFileSync } from "node:fs";
import type { LoadedConfig } from "../config/load";
import { findSkill } from "../skills/library";
import { catalogFor } from "../skills/settings";
import { listSkillVersions, keepSkillVersion } from "../skills/versions";
import { writeFileAtomicSync } from "../util/atomic-write";
import { skillsListing } from "./skill-commands";

export function skillsCommand(argument: string, cwd: string, loaded: LoadedConfig): string {
  const [verb, name, which] = argument.split(/\s+/).filter(Boolean);
  if (!verb) return skillsListing(cwd, loaded);
  if (verb !== "history" && verb !== "revert") return `Unknown: \`/skills ${argument}\`. Try \`/skills\`, \`/skills history NAME\` or \`/skills revert NAME [N]\`.`;
  if (!name) return `Usage: \`/skills ${verb} NAME\`.`;
  const skill = findSkill(catalogFor({ cwd, home: loaded.home, config: loaded.config, env: loaded.env }), name);
  if (!skill) return `No skill named "${name}". \`/skills\` lists them.`;
  const versions = listSkillVersions(loaded.home, skill.dir);
  if (verb === "history") {
    if (versions.length === 0) return `"${name}" (v${skill.version ?? "?"}, ${skill.source}) has no earlier versions kept.`;
    const lines = versions.map((version, index) => `${index + 1}. v${version.version}, replaced ${new Date(version.savedAt).toISOString().slice(0, 16).replace("T", " ")}`);
    return [`**${name}** is at v${skill.version ?? "?"} (${skill.file}). Earlier versions, newest first (\`/skills revert ${name} N\`):`, ...lines].join("\n");
  }
  if (skill.source === "bundled") return `"${name}" is bundled with Hermes and read-only: there is nothing to revert.`;
  const index = which === undefined ? 1 : Number(which);
  const chosen = Number.isInteger(index) && index >= 1 ? versions[index - 1] : undefined;
  if (!chosen) return versions.length ? `No version ${which} of "${name}": \`/skills history ${name}\` lists 1 to ${versions.length}.` : `"${name}" has no earlier versions kept.`;
  const text = readFileSync(chosen.file, "utf8");
  keepSkillVersion(loaded.home, skill.dir, skill.text);
  writeFileAtomicSync(skill.file, text, 0o644);
  return `Reverted "${name}" to v${chosen.version} (the text it had until ${new Date(chosen.savedAt).toISOString().slice(0, 16).replace("T", " ")}). The version it replaced is kept: \`/skills history ${name}\`. New sessions use it.`;
}
