// skill_manage: the agent writes its own skills (create, edit, patch, delete, and the linked
// files). Only project and user skills change; bundled ones are read-only. Every write is
// threat-scanned, bumps the version and records provenance; the change shows in the editor
// as a diff, so the user sees what the agent learned. Project skills live in the workspace,
// so writing one is an edit the session's mode approves like any other.
import path from "node:path";
import * as z from "zod";
import { SKILL_FILE } from "../skills/library";
import { catalogFor } from "../skills/settings";
import { skillsContext } from "../skills/skills-context";
import { applySkillChange, LINKED_FOLDERS, planSkillChange, SkillManageError, type SkillChange } from "../skills/skill-writer";
import type { DisplayContent } from "./context";
import { defineTool, ToolError } from "./registry";

const schema = z.object({
  action: z
    .enum(["create", "edit", "patch", "delete", "write_file", "remove_file"])
    .describe("create a skill, edit (replace its whole SKILL.md), patch (old_string → new_string), delete it, write_file or remove_file (a linked file)."),
  name: z.string().min(1).describe('The skill\'s name: lowercase letters, digits and hyphens, e.g. "release-checklist".'),
  content: z.string().optional().describe("create / edit: the whole SKILL.md: `---`, frontmatter (name, description: when to use it; optional tags, requires), `---`, then the markdown steps."),
  old_string: z.string().optional().describe("patch: text that occurs exactly once in SKILL.md (or in file_path)."),
  new_string: z.string().optional().describe("patch: the replacement (may be empty)."),
  file_path: z.string().optional().describe(`patch / write_file / remove_file: a linked file under ${LINKED_FOLDERS.map((f) => `${f}/`).join(", ")} (patch defaults to SKILL.md).`),
  file_content: z.string().optional().describe("write_file: the whole content of the linked file."),
  scope: z.enum(["user", "project"]).optional().describe("create: user (default; $HERMES_HOME/skills, all projects) or project (.hermes/skills in this workspace, shared with the team)."),
});

const VERBS: Record<z.infer<typeof schema>["action"], string> = {
  create: "Create skill",
  edit: "Edit skill",
  patch: "Patch skill",
  delete: "Delete skill",
  write_file: "Write skill file",
  remove_file: "Remove skill file",
};

export const skillManageTool = defineTool({
  name: "skill_manage",
  toolset: "skills",
  kind: "edit",
  readOnly: false,
  description:
    "Save what you learned as a skill, or improve one: a SKILL.md with a one-line trigger description and concrete, ordered steps that worked, " +
    "plus optional linked files (references/, templates/, scripts/, assets/). Create a skill after a task that took many steps, needed trial and error, " +
    "or that the user corrected, when the procedure will recur; patch the skill you followed when a step was wrong or missing. " +
    "Write general procedures, not a log of this session; no secrets. Project and user skills can change; bundled ones are read-only " +
    "(create a user skill of the same name to override one). Each change bumps the version; writes are scanned and unsafe content is refused.",
  schema,
  title: (args) => `${VERBS[args.action]} ${args.name}${args.file_path ? `: ${args.file_path}` : ""}`,
  handler: async (args, ctx) => {
    const context = skillsContext(ctx.cwd);
    let change: SkillChange;
    try {
      change = planSkillChange(
        {
          action: args.action,
          name: args.name,
          content: args.content,
          oldString: args.old_string,
          newString: args.new_string,
          filePath: args.file_path,
          fileContent: args.file_content,
          scope: args.scope,
        },
        { cwd: ctx.cwd, home: context.home, sessionId: ctx.sessionId, catalog: catalogFor(context) },
      );
    } catch (error) {
      if (error instanceof SkillManageError) throw new ToolError(error.message);
      throw error;
    }
    const diffs = changeDiffs(change);
    if (change.scope === "project") {
      const allowed = await ctx.requestPermission({
        action: change.action === "delete" ? "delete" : "edit",
        title: `${VERBS[change.action]} ${change.name} (project)`,
        paths: [...change.writes.map((w) => w.path), ...change.removals.map((r) => r.path)],
        content: diffs,
      });
      if (!allowed) return { output: { error: `The user denied this change to the project skill "${change.name}". Nothing was written.` }, isError: true };
    }
    const { archivedTo } = applySkillChange(change, context.home);
    const skillFile = path.join(change.dir, SKILL_FILE);
    return {
      output: {
        ok: true,
        action: change.action,
        name: change.name,
        scope: change.scope,
        path: skillFile,
        ...(change.version ? { version: change.version } : {}),
        ...(change.overrides ? { overrides: change.overrides } : {}),
        ...(archivedTo ? { archived_to: archivedTo } : {}),
        note:
          change.action === "delete"
            ? `Deleted: no longer listed or offered. Its folder is kept in the archive; the user can bring it back with /skills restore ${change.name}.`
            : "Saved. skill_view loads it now; the skills index in the system prompt and the slash command pick it up from the next session.",
      },
      content: diffs,
      locations: [{ path: change.action === "delete" ? change.dir : skillFile }],
    };
  },
});

/** Every written and removed file as a diff card. */
function changeDiffs(change: SkillChange): DisplayContent[] {
  return [
    ...change.writes.map((write): DisplayContent => ({ type: "diff", path: write.path, oldText: write.oldText, newText: write.newText })),
    ...change.removals.map((removal): DisplayContent => ({ type: "diff", path: removal.path, oldText: removal.oldText, newText: "" })),
  ];
}
