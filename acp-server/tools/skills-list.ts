// skills_list: the skills of this project and user (level 1 of progressive disclosure):
// names, descriptions and tags, with unavailable ones and why.
import * as z from "zod";
import { catalogFor } from "../skills/settings";
import { skillsContext } from "../skills/skills-context";
import { defineTool } from "./registry";

const schema = z.object({
  tag: z.string().optional().describe("Only skills with this tag (case-insensitive)."),
});

export const skillsListTool = defineTool({
  name: "skills_list",
  toolset: "skills",
  kind: "read",
  readOnly: true,
  description:
    "List the skills: reusable procedures for recurring kinds of work (project skills, your own, and those bundled with Hermes). " +
    "Returns each skill's name, description, tags and source; unavailable skills come with the reason (a missing command or variable). " +
    "Load a skill's instructions with skill_view before doing the task it describes.",
  schema,
  title: (args) => (args.tag ? `List skills tagged ${args.tag}` : "List skills"),
  handler: async (args, ctx) => {
    const catalog = catalogFor(skillsContext(ctx.cwd));
    const tag = args.tag?.trim().toLowerCase();
    const skills = catalog.skills.filter((skill) => !tag || skill.tags.some((t) => t.toLowerCase() === tag));
    const output = {
      skills: skills.map((skill) => ({
        name: skill.name,
        description: skill.description,
        tags: skill.tags,
        source: skill.source,
        ...(skill.version ? { version: skill.version } : {}),
        ...(skill.unavailable ? { unavailable: skill.unavailable } : {}),
      })),
      ...(catalog.warnings.length ? { skipped: catalog.warnings } : {}),
    };
    const available = skills.filter((skill) => !skill.unavailable).length;
    return { output, content: [{ type: "text", text: `${available} available skill${available === 1 ? "" : "s"}${skills.length > available ? `, ${skills.length - available} unavailable` : ""}` }] };
  },
});
