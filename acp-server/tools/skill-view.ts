// skill_view: one skill's full SKILL.md and the list of its linked files (level 2), or one
// linked file (level 3). Each load of a SKILL.md counts as a use of the skill.
import { readFileSync } from "node:fs";
import path from "node:path";
import * as z from "zod";
import { findSkill, linkedFiles } from "../skills/library";
import { catalogFor } from "../skills/settings";
import { skillsContext } from "../skills/skills-context";
import { recordSkillUse } from "../skills/usage-store";
import { defineTool, ToolError } from "./registry";

const schema = z.object({
  name: z.string().min(1).describe("The skill's name, as in the skills index or skills_list."),
  file: z.string().optional().describe("A linked file of the skill to read instead (a path from linked_files, e.g. references/checklist.md)."),
});

/** Longest linked file returned whole. */
const MAX_FILE_CHARS = 60_000;

export const skillViewTool = defineTool({
  name: "skill_view",
  toolset: "skills",
  kind: "read",
  readOnly: true,
  description:
    "Load a skill: its full SKILL.md instructions and the list of its linked files (references, templates, scripts, assets). " +
    "Give file to read one of those linked files. Load a skill before doing the kind of task it describes, then follow it.",
  schema,
  title: (args) => (args.file ? `Read skill ${args.name}: ${args.file}` : `Load skill ${args.name}`),
  handler: async (args, ctx) => {
    const context = skillsContext(ctx.cwd);
    const catalog = catalogFor(context);
    const skill = findSkill(catalog, args.name);
    if (!skill) {
      const names = catalog.skills.map((s) => s.name);
      throw new ToolError(`No skill named "${args.name}". Skills: ${names.length ? names.join(", ") : "(none)"}.`);
    }
    if (skill.unavailable?.startsWith("blocked")) throw new ToolError(`The skill "${skill.name}" is ${skill.unavailable}; it is not shown.`);
    const files = linkedFiles(skill);
    if (args.file) {
      const relative = path.posix.normalize(args.file.replaceAll("\\", "/")).replace(/^\.\//, "");
      if (!files.includes(relative)) throw new ToolError(`"${args.file}" is not a file of the skill "${skill.name}". Its files: ${files.length ? files.join(", ") : "(none)"}.`);
      const text = readFileSync(path.join(skill.dir, relative), "utf8");
      const content = text.length > MAX_FILE_CHARS ? `${text.slice(0, MAX_FILE_CHARS)}\n[… ${text.length - MAX_FILE_CHARS} more characters not shown]` : text;
      return { output: { name: skill.name, file: relative, content }, content: [{ type: "text", text: `${skill.name}/${relative}` }], locations: [{ path: path.join(skill.dir, relative) }] };
    }
    recordSkillUse(context.home, skill.name, "view", ctx.sessionId);
    ctx.state.skillsUsed.add(skill.name);
    const output = {
      name: skill.name,
      source: skill.source,
      ...(skill.version ? { version: skill.version } : {}),
      path: skill.file,
      ...(skill.unavailable ? { unavailable: skill.unavailable } : {}),
      content: skill.text,
      linked_files: files,
    };
    return { output, content: [{ type: "text", text: `${skill.name} (${skill.source}${skill.version ? `, v${skill.version}` : ""})` }], locations: [{ path: skill.file }] };
  },
});
