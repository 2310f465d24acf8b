// The curator's one write beyond skill_manage: archiving a skill. The folder moves to
// $HERMES_HOME/skills-archive (kept, restorable with `/skills restore NAME` or the change's
// undo), after the user approved it when curation asks (`ask`), and the change is recorded in
// the learning ledger like every change the review makes. User skills only.
import path from "node:path";
import * as z from "zod";
import { archiveSkill } from "../skills/archive";
import { findSkill, SKILL_FILE, type Skill } from "../skills/library";
import { catalogFor } from "../skills/settings";
import { skillsContext } from "../skills/skills-context";
import type { ToolContext } from "../tools/context";
import { defineTool, ToolError, type ToolDefinition } from "../tools/registry";
import { newChangeId } from "./ledger";
import type { ReviewToolHooks } from "./review-tools";

export type ArchiveOutcome = { ok: true; archivedTo: string } | { ok: false; declined: true };

/** Archives one user skill: asks first when hooks.approve is set, then moves it and records the change. */
export async function archiveWithApproval(hooks: ReviewToolHooks, skill: Skill, why: string, signal: AbortSignal): Promise<ArchiveOutcome> {
  if (skill.source !== "user") throw new ToolError(`"${skill.name}" is a ${skill.source} skill; the curator archives user skills only.`);
  if (hooks.approve) {
    // The diff shows the whole SKILL.md leaving the skill folders (it is kept in the archive).
    const approved = await hooks.approve(`Curate: archive skill "${skill.name}" (${why})`, [{ type: "diff", path: skill.file, oldText: skill.text, newText: "" }], signal);
    if (!approved) return { ok: false, declined: true };
  }
  const archivedTo = archiveSkill(hooks.home, skill.dir);
  hooks.learned({
    id: newChangeId(),
    kind: "skill",
    action: "archive",
    what: `archived skill "${skill.name}" (${why})`,
    where: path.join(archivedTo, SKILL_FILE),
    at: new Date().toISOString(),
    sessionId: hooks.sessionId,
    skill: { name: skill.name, dir: skill.dir, created: false, files: [], archivedTo },
  });
  return { ok: true, archivedTo };
}

const schema = z.object({
  name: z.string().min(1).describe("The user skill to archive."),
  reason: z.string().min(1).max(200).describe('Why, in a few words (e.g. "merged into deploy-app").'),
});

export function curatorArchiveTool(hooks: ReviewToolHooks): ToolDefinition {
  const tool = defineTool({
    name: "skill_archive",
    toolset: "skills",
    kind: "edit",
    readOnly: false,
    description: "Archive a user skill: its folder moves to the skills archive (kept, restorable by the user), and it is no longer listed or offered. Use after merging it into another skill.",
    schema,
    title: (args) => `archive skill ${args.name}`,
    handler: async (args, ctx: ToolContext) => {
      const context = skillsContext(ctx.cwd, hooks.home);
      const skill = findSkill(catalogFor(context), args.name);
      if (!skill) throw new ToolError(`No skill named "${args.name}". skills_list shows them.`);
      const outcome = await archiveWithApproval(hooks, skill, args.reason, ctx.signal);
      if (!outcome.ok) return { output: { error: "The user declined this change; nothing was archived. Do not propose it again." }, isError: true };
      return { output: { ok: true, archived: args.name, note: "Archived (kept; the user can restore it)." } };
    },
  });
  return tool as unknown as ToolDefinition;
}
