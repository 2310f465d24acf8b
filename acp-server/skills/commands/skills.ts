// /skills and its subcommands, answered without the model:
//   /skills                      the skills with use count, last use and success rate
//   /skills history NAME         the kept earlier versions of a skill (newest first)
//   /skills revert NAME [N]      bring back version N of that list (default 1: the one before
//                                the current text); the current text is kept as a version first
//   /skills delete NAME          archive a project or user skill (kept, never destroyed)
//   /skills archived, restore NAME   the archive (skills-archive-command.ts)
//   (/skills curate uses the model: learning/curator-step.ts)
import type { LoadedConfig } from "../../config/load";
import { findSkill } from "../library";
import { catalogFor, type SkillsContext } from "../settings";
import { archiveSkillByName, revertSkill } from "../skill-admin";
import { listSkillVersions } from "../versions";
import { skillsListing } from "./skill-invocation";
import { archiveAnswer } from "./archive";
import { defineCommand } from "../../runtime/slash-command";
import { curateNow } from "../../learning/curator-step";

const VERBS = new Set(["history", "revert", "delete"]);

export function skillsAnswer(argument: string, cwd: string, loaded: LoadedConfig): string {
  const [verb, name, which, ...extra] = argument.split(/\s+/).filter(Boolean);
  if (!verb) return skillsListing(cwd, loaded);
  if (verb === "archived" || verb === "restore") return archiveAnswer(verb, name, loaded.home);
  if (!VERBS.has(verb)) return `Unknown: \`/skills ${argument}\`. Try \`/skills\`, \`/skills history NAME\`, \`/skills revert NAME [N]\`, \`/skills delete NAME\`, \`/skills curate\`, \`/skills archived\` or \`/skills restore NAME\`.`;
  if (!name || extra.length > 0 || (verb !== "revert" && which !== undefined)) return `Usage: \`/skills ${verb} NAME${verb === "revert" ? " [N]" : ""}\`.`;
  const context: SkillsContext = { cwd, home: loaded.home, config: loaded.config, env: loaded.env };
  if (verb === "revert") return revertSkill(context, name, which).message;
  if (verb === "delete") return archiveSkillByName(context, name).message;
  const skill = findSkill(catalogFor(context), name);
  if (!skill) return `No skill named "${name}". \`/skills\` lists them.`;
  const versions = listSkillVersions(loaded.home, skill.dir);
  if (versions.length === 0) return `"${name}" (v${skill.version ?? "?"}, ${skill.source}) has no earlier versions kept.`;
  const lines = versions.map((version, index) => `${index + 1}. v${version.version}, replaced ${new Date(version.savedAt).toISOString().slice(0, 16).replace("T", " ")}`);
  return [`**${name}** is at v${skill.version ?? "?"} (${skill.file}). Earlier versions, newest first (\`/skills revert ${name} N\`):`, ...lines].join("\n");
}

export const skillsCommand = defineCommand({
  name: "skills",
  description: "List the skills (uses, last use, success rate); history NAME, revert NAME [N], delete NAME (archived), curate, archived, restore NAME",
  hint: "history NAME | revert NAME [N] | delete NAME | curate | archived | restore NAME (empty: list)",
  async run(context) {
    const { argument, session, runtime, output, signal } = context;
    // Uses the model (and may ask): a command with a turn's reach.
    if (/^curate\b/.test(argument)) {
      output.say(await curateNow(context));
      return signal.aborted ? { cancelled: true } : undefined;
    }
    output.say(skillsAnswer(argument, session.agent.cwd, runtime.loaded));
  },
});
