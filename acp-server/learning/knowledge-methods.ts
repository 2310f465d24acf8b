// "What Hermes knows" for a client's own view (the VS Code panel): extension methods, so the
// client never reads or writes Hermes's files itself. Params are checked with zod; every change
// answers with its outcome and the fresh view, so the client redraws from what is on disk.
//   _hermes/knowledge/get     {cwd}                                   → Knowledge
//   _hermes/knowledge/memory  {cwd, action, target, index?, text?, expected?} → {ok, message, knowledge}
//   _hermes/knowledge/skill   {cwd, action, name, text?}              → {ok, message, knowledge}
// Loaded on first use.
import path from "node:path";
import * as z from "zod";
import type { LoadedConfig } from "../config/load";
import { addMemoryEntry, deleteMemoryEntry, editMemoryEntry, readKnowledge, revertMemory, type Knowledge, type KnowledgeOutcome } from "./knowledge";
import type { SkillsContext } from "../skills/settings";
import { archiveSkillByName, editSkillText, revertSkill } from "../skills/skill-admin";
import { invalidParams } from "../util/agent-error";
import { archiveAnswer } from "../skills/commands/archive";
import { KNOWLEDGE_METHODS } from "../../common/hermes-methods";


const cwd = z.string().min(1).max(4096).refine((value) => path.isAbsolute(value), "must be an absolute path");
const target = z.enum(["memory", "user"]);
/** 0-based, as the view's entries are listed. */
const index = z.number().int().min(0).max(10_000);
const entryText = z.string().min(1).max(20_000);
const skillName = z.string().min(1).max(64);

const getSchema = z.object({ cwd });
const memorySchema = z.discriminatedUnion("action", [
  z.object({ cwd, action: z.literal("add"), target, text: entryText }),
  /** `expected`: the entry as the client showed it; a file changed since is not written. */
  z.object({ cwd, action: z.literal("edit"), target, index, text: entryText, expected: z.string().max(20_000).optional() }),
  z.object({ cwd, action: z.literal("delete"), target, index, expected: z.string().max(20_000).optional() }),
  /** `version`: 1-based, newest first (default 1: the text before the last change). */
  z.object({ cwd, action: z.literal("revert"), target, version: z.number().int().min(1).max(1_000).optional() }),
]);
const skillSchema = z.discriminatedUnion("action", [
  z.object({ cwd, action: z.literal("edit"), name: skillName, text: z.string().min(1).max(100_000) }),
  z.object({ cwd, action: z.literal("delete"), name: skillName }),
  z.object({ cwd, action: z.literal("revert"), name: skillName, version: z.number().int().min(1).max(1_000).optional() }),
  /** The newest archived copy of `name`, back where it was archived from. */
  z.object({ cwd, action: z.literal("restore"), name: skillName }),
]);

export interface KnowledgeChange extends KnowledgeOutcome {
  knowledge: Knowledge;
}

function parse<T>(schema: z.ZodType<T>, method: string, raw: unknown): T {
  const parsed = schema.safeParse(raw ?? {});
  if (!parsed.success) throw invalidParams(`invalid ${method} params: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

function contextOf(loaded: LoadedConfig, dir: string): SkillsContext {
  return { cwd: dir, home: loaded.home, config: loaded.config, env: loaded.env };
}

export function getKnowledge(loaded: LoadedConfig, raw: unknown): Knowledge {
  return readKnowledge(contextOf(loaded, parse(getSchema, KNOWLEDGE_METHODS.get, raw).cwd));
}

export function changeMemory(loaded: LoadedConfig, raw: unknown): KnowledgeChange {
  const params = parse(memorySchema, KNOWLEDGE_METHODS.memory, raw);
  const { home } = loaded;
  const outcome =
    params.action === "add"
      ? addMemoryEntry(home, params.target, params.text)
      : params.action === "edit"
        ? editMemoryEntry(home, params.target, params.index + 1, params.text, params.expected)
        : params.action === "delete"
          ? deleteMemoryEntry(home, params.target, params.index + 1, params.expected)
          : revertMemory(home, params.target, params.version ?? 1);
  return { ...outcome, knowledge: readKnowledge(contextOf(loaded, params.cwd)) };
}

export function changeSkill(loaded: LoadedConfig, raw: unknown): KnowledgeChange {
  const params = parse(skillSchema, KNOWLEDGE_METHODS.skill, raw);
  const context = contextOf(loaded, params.cwd);
  const outcome =
    params.action === "edit"
      ? editSkillText(context, params.name, params.text)
      : params.action === "delete"
        ? archiveSkillByName(context, params.name)
        : params.action === "restore"
          ? restoreSkill(loaded.home, params.name)
          : revertSkill(context, params.name, params.version === undefined ? undefined : String(params.version));
  return { ...outcome, knowledge: readKnowledge(context) };
}

/** `/skills restore NAME`'s own logic and answer (never overwrites a skill of the same name). */
function restoreSkill(home: string, name: string): KnowledgeOutcome {
  const message = archiveAnswer("restore", name, home);
  return { ok: message.startsWith("Restored "), message };
}
