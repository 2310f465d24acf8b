// The learning review's write tools: the main loop's memory and skill_manage, with the same
// checks (the memory store's threat scan and limits; skill_manage's format, threat and
// command checks), wrapped so that each change is recorded with what undoes it, in `ask` mode
// first shown to the user as a diff, and kept to what a background job may touch: user skills
// only (project skills are the team's files), and nothing is deleted.
import path from "node:path";
import type { z } from "zod";
import { MemoryError, MemoryStore } from "../memory/memory-store";
import { SKILL_FILE } from "../skills/library";
import { catalogFor } from "../skills/settings";
import { skillsContext } from "../skills/skills-context";
import { planSkillChange, SkillManageError, type SkillChange } from "../skills/skill-writer";
import type { DisplayContent, ToolContext } from "../tools/context";
import { memoryTool } from "../tools/memory";
import { ToolError, type ToolDefinition, type ToolResult } from "../tools/registry";
import { skillManageTool } from "../tools/skill-manage";
import { newChangeId, type LearnedChange } from "./ledger";
import { readFileSync } from "node:fs";

export interface ReviewToolHooks {
  /** $HERMES_HOME (memory and user skills live there). */
  home: string;
  /** The user's session the review learns from (provenance, the ledger). */
  sessionId: string;
  /** `ask` mode: shows the change as diffs and waits for the user; true to apply. Absent: apply. */
  approve?: (title: string, diffs: DisplayContent[], signal: AbortSignal) => Promise<boolean>;
  /** A change was written. */
  learned(change: LearnedChange): void;
}

type MemoryArgs = z.infer<typeof memoryTool.schema>;
type SkillArgs = z.infer<typeof skillManageTool.schema>;

const DECLINED = "The user declined this change; nothing was written. Do not propose it again.";

export function reviewMemoryTool(hooks: ReviewToolHooks): ToolDefinition {
  const tool: ToolDefinition<typeof memoryTool.schema> = {
    ...memoryTool,
    handler: async (args: MemoryArgs, ctx: ToolContext): Promise<ToolResult> => {
      const store = new MemoryStore(hooks.home);
      let preview: { before: string[]; after: string[] };
      try {
        preview = store.preview(args.target, args.action, args.content, args.old_text);
      } catch (error) {
        if (error instanceof MemoryError) throw new ToolError(error.message);
        throw error;
      }
      if (sameEntries(preview.before, preview.after)) return { output: { ok: true, note: "Already in memory; nothing changed." } };
      const file = store.filePath(args.target);
      if (hooks.approve) {
        const diff: DisplayContent = { type: "diff", path: file, oldText: MemoryStore.text(preview.before), newText: MemoryStore.text(preview.after) };
        if (!(await hooks.approve(`Learn: ${memoryVerb(args)} (${path.basename(file)})`, [diff], ctx.signal))) return { output: { error: DECLINED }, isError: true };
      }
      const result = await memoryTool.handler(args, ctx);
      const entries = (result.output as { entries?: string[] }).entries ?? store.read(args.target);
      const added = entries.filter((entry) => !preview.before.includes(entry));
      const removed = preview.before.filter((entry) => !entries.includes(entry));
      if (added.length || removed.length) {
        const shown = added[0] ?? removed[0] ?? "";
        hooks.learned({
          id: newChangeId(),
          kind: "memory",
          action: args.action,
          what: `${args.target === "user" ? "about you" : "memory"}: ${args.action === "remove" ? "forgot " : ""}"${clip(shown, 100)}"`,
          where: file,
          at: new Date().toISOString(),
          sessionId: hooks.sessionId,
          memory: { target: args.target, added, removed },
        });
      }
      return result;
    },
  };
  return tool as unknown as ToolDefinition;
}

export function reviewSkillTool(hooks: ReviewToolHooks): ToolDefinition {
  const tool: ToolDefinition<typeof skillManageTool.schema> = {
    ...skillManageTool,
    description: `${skillManageTool.description} In this review: user skills only (scope user); skills are not deleted here.`,
    handler: async (args: SkillArgs, ctx: ToolContext): Promise<ToolResult> => {
      if (args.action === "delete") throw new ToolError("The learning review does not delete skills (the curator archives unused ones). Patch the skill instead, or leave it.");
      if (args.scope === "project") throw new ToolError("The learning review writes user skills only (scope user); project skills are the team's files.");
      const plan = planFor(args, ctx, hooks.home);
      if (plan.scope === "project") throw new ToolError(`"${args.name}" is a project skill; the learning review changes user skills only.`);
      if (hooks.approve && !(await hooks.approve(`Learn: ${skillVerb(plan)} "${plan.name}"`, diffsOf(plan), ctx.signal))) {
        return { output: { error: DECLINED }, isError: true };
      }
      const result = await skillManageTool.handler(args, ctx);
      if (result.isError) return result;
      const files = [...plan.writes.map((write) => ({ path: write.path, oldText: write.oldText, newText: readOrNull(write.path) })), ...plan.removals.map((removal) => ({ path: removal.path, oldText: removal.oldText, newText: null }))];
      const skillFile = path.join(plan.dir, SKILL_FILE);
      hooks.learned({
        id: newChangeId(),
        kind: "skill",
        action: plan.action,
        what: `${plan.action === "create" ? "new skill" : "improved skill"} "${plan.name}"${describe(readOrNull(skillFile))}`,
        where: skillFile,
        at: new Date().toISOString(),
        sessionId: hooks.sessionId,
        skill: { name: plan.name, dir: plan.dir, created: plan.action === "create", files },
      });
      return result;
    },
  };
  return tool as unknown as ToolDefinition;
}

/** The same plan skill_manage makes (it plans again when it runs; the plan is deterministic). */
function planFor(args: SkillArgs, ctx: ToolContext, home: string): SkillChange {
  const context = skillsContext(ctx.cwd, home);
  try {
    return planSkillChange(
      { action: args.action, name: args.name, content: args.content, oldString: args.old_string, newString: args.new_string, filePath: args.file_path, fileContent: args.file_content, scope: "user" },
      { cwd: ctx.cwd, home: context.home, sessionId: ctx.sessionId, catalog: catalogFor(context) },
    );
  } catch (error) {
    if (error instanceof SkillManageError) throw new ToolError(error.message);
    throw error;
  }
}

function diffsOf(change: SkillChange): DisplayContent[] {
  return [
    ...change.writes.map((write): DisplayContent => ({ type: "diff", path: write.path, oldText: write.oldText, newText: write.newText })),
    ...change.removals.map((removal): DisplayContent => ({ type: "diff", path: removal.path, oldText: removal.oldText, newText: "" })),
  ];
}

function memoryVerb(args: MemoryArgs): string {
  return args.action === "add" ? "remember" : args.action === "replace" ? "update memory" : "forget";
}

function skillVerb(change: SkillChange): string {
  return change.action === "create" ? "new skill" : "change skill";
}

/** ": <its description>" from the SKILL.md as written. */
function describe(text: string | null): string {
  const match = text ? /^description:\s*(.+)$/m.exec(text) : null;
  return match?.[1] ? `: ${clip(match[1].replace(/^["']|["']$/g, ""), 120)}` : "";
}

function sameEntries(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((entry, i) => entry === b[i]);
}

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function readOrNull(file: string): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch {
    // expected: no file (or an unreadable one) reads as null: there is nothing to show as its earlier text
    return null;
  }
}
