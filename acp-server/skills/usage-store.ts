// How often each skill was used: each skill_view that loads a SKILL.md and each slash
// invocation. Kept with the session data in $HERMES_HOME/skill-usage.json, updated under a
// lock file with an atomic rename so Hermes processes sharing one home add up correctly.
import fs from "node:fs";
import path from "node:path";
import * as z from "zod";
import { acquireFileLock } from "../util/file-lock";
import { createLogger, type Logger } from "../util/log";

const skillsLog = createLogger("skills");

export type SkillUseKind = "view" | "invocation";

export interface SkillUsage {
  views: number;
  invocations: number;
  /** Turns that used the skill and ended well (no rejection, no correction after). */
  successes?: number;
  /** Turns that used it where the user rejected or corrected the result. */
  failures?: number;
  /** ISO time of the last use. */
  lastUsed: string;
  lastSession?: string;
}

interface UsageFile {
  version: 1;
  skills: Record<string, SkillUsage>;
}

const LOCK_TIMEOUT_MS = 1_000;
const LOCK_STALE_MS = 10_000;

export function usageFile(home: string): string {
  return path.join(home, "skill-usage.json");
}

// The file as zod reads it: the envelope, then each skill's entry on its own, so one damaged
// entry costs only that skill's counts. Built on first use.
let schemas: { file: z.ZodType<{ skills: Record<string, unknown> }>; entry: z.ZodType<SkillUsage> } | undefined;

function usageSchemas(): NonNullable<typeof schemas> {
  schemas ??= {
    file: z.looseObject({ version: z.literal(1), skills: z.record(z.string(), z.unknown()) }),
    entry: z.looseObject({
      views: z.number().int().nonnegative(),
      invocations: z.number().int().nonnegative(),
      lastUsed: z.string(),
      lastSession: z.string().optional(),
      successes: z.number().int().nonnegative().optional(),
      failures: z.number().int().nonnegative().optional(),
    }),
  };
  return schemas;
}

/** Every skill's counts; a missing file counts nothing, a damaged one (or entry) is warned about and counts nothing. */
export function readSkillUsage(home: string, log: Logger = skillsLog): Record<string, SkillUsage> {
  return readSkillUsageChecked(home, log).skills;
}

/**
 * Every skill's counts, and `problem` when the file exists but could not be read or parsed as a
 * whole: then the counts are not evidence that a skill went unused (the curator must not archive
 * on them). A missing file is no problem: nothing has been used yet.
 */
export function readSkillUsageChecked(home: string, log: Logger = skillsLog): { skills: Record<string, SkillUsage>; problem?: string } {
  const file = usageFile(home);
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { skills: {} };
    log.warn("skill usage counts unreadable; counting from zero", { file, error });
    return { skills: {}, problem: `cannot read ${file}: ${(error as Error).message}` };
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    log.warn("skill usage counts are not valid JSON; counting from zero", { file, error });
    return { skills: {}, problem: `${file} is not valid JSON: ${(error as Error).message}` };
  }
  const { file: fileSchema, entry } = usageSchemas();
  const parsed = fileSchema.safeParse(data);
  if (!parsed.success) {
    log.warn("skill usage counts have an unknown shape; counting from zero", { file, problem: parsed.error.issues[0]?.message });
    return { skills: {}, problem: `${file} has an unknown shape: ${parsed.error.issues[0]?.message ?? "invalid"}` };
  }
  const skills: Record<string, SkillUsage> = {};
  for (const [name, value] of Object.entries(parsed.data.skills)) {
    const counts = entry.safeParse(value);
    if (counts.success) skills[name] = counts.data;
    else log.warn("skill usage entry damaged; its counts start from zero", { file, skill: name, problem: counts.error.issues[0]?.message });
  }
  return { skills };
}

/**
 * Skills (per home) whose use this process could not write down since their last recorded use:
 * their counts in the file are stale, so they must not look unused to the curator.
 */
const unrecordedUses = new Map<string, Set<string>>();

/** Names of skills used in this process whose use could not be recorded in `home`'s usage file. */
export function unrecordedSkillUses(home: string): ReadonlySet<string> {
  return unrecordedUses.get(path.resolve(home)) ?? new Set();
}

/** Counts one use. Never throws: losing a count must not fail the tool or the prompt. */
export function recordSkillUse(home: string, name: string, kind: SkillUseKind, sessionId?: string): boolean {
  const recorded = updateEntries(home, [name], (entry) => {
    if (kind === "view") entry.views++;
    else entry.invocations++;
    entry.lastUsed = new Date().toISOString();
    if (sessionId) entry.lastSession = sessionId;
  });
  const key = path.resolve(home);
  if (recorded) {
    unrecordedUses.get(key)?.delete(name);
  } else {
    const names = unrecordedUses.get(key) ?? new Set<string>();
    names.add(name);
    unrecordedUses.set(key, names);
  }
  return recorded;
}

/**
 * How a turn that used these skills went: "success" (it ended well), "failure" (the user
 * rejected or corrected it), or "revise" (a turn counted a success, then the next prompt was a
 * correction: it becomes a failure). Never throws.
 */
export function recordSkillOutcome(home: string, names: Iterable<string>, outcome: "success" | "failure" | "revise"): boolean {
  return updateEntries(home, [...names], (entry) => {
    if (outcome === "success") entry.successes = (entry.successes ?? 0) + 1;
    else entry.failures = (entry.failures ?? 0) + 1;
    if (outcome === "revise") entry.successes = Math.max(0, (entry.successes ?? 0) - 1);
  });
}

/** Applies `change` to each named skill's entry under the lock and writes the file atomically. */
function updateEntries(home: string, names: string[], change: (entry: SkillUsage) => void): boolean {
  if (names.length === 0) return true;
  const file = usageFile(home);
  try {
    fs.mkdirSync(home, { recursive: true });
    const release = lock(`${file}.lock`, names);
    if (!release) return false;
    try {
      const skills = readSkillUsage(home);
      for (const name of names) {
        const entry = skills[name] ?? { views: 0, invocations: 0, lastUsed: "" };
        change(entry);
        skills[name] = entry;
      }
      const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2, 8)}.tmp`;
      fs.writeFileSync(temp, `${JSON.stringify({ version: 1, skills } satisfies UsageFile, null, 1)}\n`, { mode: 0o600 });
      fs.renameSync(temp, file);
      return true;
    } finally {
      release();
    }
  } catch (error) {
    skillsLog.warn("could not record skill usage", { file, skills: names, error });
    return false;
  }
}

/** The shared lock helper; counts are advisory, so a busy or broken lock skips the update (logged). */
function lock(lockFile: string, names: string[]): (() => void) | undefined {
  try {
    return acquireFileLock(lockFile, { timeoutMs: LOCK_TIMEOUT_MS, staleMs: LOCK_STALE_MS });
  } catch (error) {
    skillsLog.warn("skill usage not recorded: its lock could not be taken", { lockFile, skills: names, error });
    return undefined;
  }
}
