// "What Hermes knows": the agent's answer to `_hermes/knowledge/get` (memory entries of MEMORY.md
// and USER.md, skills with their stats), declared once for the server (learning/knowledge.ts
// builds it), the host and the panel, and the view's state. The schema checks the agent's answer
// in the host and the snapshot in the panel alike.
import * as z from "zod";

export interface KnowledgeMemoryFile {
  target: "memory" | "user";
  /** MEMORY.md or USER.md. */
  file: string;
  path: string;
  /** Each entry; `blocked`: why the threat scan keeps it out of the prompt (a hand edit can put anything in the file). */
  entries: { text: string; blocked?: string }[];
  chars: number;
  limit: number;
  /** Earlier texts kept (what Revert can bring back). */
  versions: number;
}

export interface KnowledgeSkill {
  name: string;
  description: string;
  source: "project" | "user" | "plugin" | "bundled";
  version?: string;
  file: string;
  unavailable?: string;
  /** Project and user skills; bundled ones are read-only. */
  editable: boolean;
  /** The whole SKILL.md of an editable skill (the panel edits it in place). */
  text?: string;
  views: number;
  invocations: number;
  /** ISO time of the last use. */
  lastUsed?: string;
  /** Turns that used it and ended well / were rejected or corrected. */
  successes: number;
  failures: number;
  versions: number;
}

export interface Knowledge {
  memory: KnowledgeMemoryFile;
  user: KnowledgeMemoryFile;
  skills: KnowledgeSkill[];
  /** Archived skills (deleted, undone or retired by the curator), newest first, each restorable; absent from an older agent. */
  archived?: { name: string; archivedAt: string }[];
}

/** What a change did (or why it was refused). */
export interface KnowledgeOutcome {
  ok: boolean;
  message: string;
}

export interface KnowledgeState {
  open: boolean;
  loading: boolean;
  data?: Knowledge;
  /** The agent could not answer (not Hermes, or it failed). */
  error?: string;
  /** What the last change did (or why it was refused), shown above the lists. */
  outcome?: { ok: boolean; message: string };
}

const text = z.string().max(1_000_000);
const count = z.number().int().min(0);

const memoryFileSchema: z.ZodType<KnowledgeMemoryFile> = z.object({
  target: z.enum(["memory", "user"]),
  file: text,
  path: text,
  entries: z.array(z.object({ text, blocked: text.optional() })),
  chars: count,
  limit: count,
  versions: count,
});

const skillSchema: z.ZodType<KnowledgeSkill> = z.object({
  name: text,
  description: text,
  source: z.enum(["project", "user", "bundled"]),
  version: text.optional(),
  file: text,
  unavailable: text.optional(),
  editable: z.boolean(),
  text: text.optional(),
  views: count,
  invocations: count,
  lastUsed: text.optional(),
  successes: count,
  failures: count,
  versions: count,
});

export const knowledgeSchema: z.ZodType<Knowledge> = z.object({
  memory: memoryFileSchema,
  user: memoryFileSchema,
  skills: z.array(skillSchema),
  archived: z.array(z.object({ name: text, archivedAt: text })).optional(),
});

export const knowledgeOutcomeSchema = z.object({ ok: z.boolean(), message: text });

/** The answer to a change: its outcome and the fresh view. */
export const knowledgeChangeSchema = z.object({ ok: z.boolean(), message: text, knowledge: knowledgeSchema });

export const knowledgeStateSchema: z.ZodType<KnowledgeState> = z.object({
  open: z.boolean(),
  loading: z.boolean(),
  data: knowledgeSchema.optional(),
  error: text.optional(),
  outcome: knowledgeOutcomeSchema.optional(),
});

/** "used 3× · last 2026-11-24 · 2/3 went well": a skill's stats in one line. */
export function skillStats(skill: KnowledgeSkill): string {
  const uses = skill.views + skill.invocations;
  if (uses === 0) return "not used yet";
  const parts = [`used ${uses}×`];
  if (skill.lastUsed) parts.push(`last ${skill.lastUsed.slice(0, 10)}`);
  const known = skill.successes + skill.failures;
  if (known > 0) parts.push(`${skill.successes}/${known} went well`);
  return parts.join(" · ");
}
