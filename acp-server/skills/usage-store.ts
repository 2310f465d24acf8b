// How often each skill was used: each skill_view that loads a SKILL.md and each slash
// invocation. Kept with the session data in $HERMES_HOME/skill-usage.json, updated under a
// lock file with an atomic rename so Hermes processes sharing one home add up correctly.
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { acquireFileLock } from "../util/file-lock";
import { createLogger, type Logger } from "../util/log";

const skillsLog = createLogger("skills");

export type SkillUseKind = "view" | "invocation";

export interface SkillUsage {
  views: number;
  invocations: number;
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
    }),
  };
  return schemas;
}

/** Every skill's counts; a missing file counts nothing, a damaged one (or entry) is warned about and counts nothing. */
export function readSkillUsage(home: string, log: Logger = skillsLog): Record<string, SkillUsage> {
  const file = usageFile(home);
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") log.warn("skill usage counts unreadable; counting from zero", { file, error });
    return {};
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    log.warn("skill usage counts are not valid JSON; counting from zero", { file, error });
    return {};
  }
  const { file: fileSchema, entry } = usageSchemas();
  const parsed = fileSchema.safeParse(data);
  if (!parsed.success) {
    log.warn("skill usage counts have an unknown shape; counting from zero", { file, problem: parsed.error.issues[0]?.message });
    return {};
  }
  const skills: Record<string, SkillUsage> = {};
  for (const [name, value] of Object.entries(parsed.data.skills)) {
    const counts = entry.safeParse(value);
    if (counts.success) skills[name] = counts.data;
    else log.warn("skill usage entry damaged; its counts start from zero", { file, skill: name, problem: counts.error.issues[0]?.message });
  }
  return skills;
}

/** Counts one use. Never throws: losing a count must not fail the tool or the prompt. */
export function recordSkillUse(home: string, name: string, kind: SkillUseKind, sessionId?: string): boolean {
  const file = usageFile(home);
  try {
    fs.mkdirSync(home, { recursive: true });
    const release = lock(`${file}.lock`);
    if (!release) return false;
    try {
      const skills = readSkillUsage(home);
      const entry = skills[name] ?? { views: 0, invocations: 0, lastUsed: "" };
      if (kind === "view") entry.views++;
      else entry.invocations++;
      entry.lastUsed = new Date().toISOString();
      if (sessionId) entry.lastSession = sessionId;
      skills[name] = entry;
      const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2, 8)}.tmp`;
      fs.writeFileSync(temp, `${JSON.stringify({ version: 1, skills } satisfies UsageFile, null, 1)}\n`, { mode: 0o600 });
      fs.renameSync(temp, file);
      return true;
    } finally {
      release();
    }
  } catch {
    return false;
  }
}

/** Removes a deleted skill's counts (a new skill of the same name starts from zero). */
export function forgetSkillUsage(home: string, name: string): void {
  const file = usageFile(home);
  const release = fs.existsSync(file) ? lock(`${file}.lock`) : undefined;
  if (!release) return;
  try {
    const skills = readSkillUsage(home);
    if (!(name in skills)) return;
    delete skills[name];
    const temp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temp, `${JSON.stringify({ version: 1, skills } satisfies UsageFile, null, 1)}\n`, { mode: 0o600 });
    fs.renameSync(temp, file);
  } catch {
    // Counts are advisory.
  } finally {
    release();
  }
}

/** The shared lock helper; counts are advisory, so a busy or broken lock just skips the update. */
function lock(lockFile: string): (() => void) | undefined {
  try {
    return acquireFileLock(lockFile, { timeoutMs: LOCK_TIMEOUT_MS, staleMs: LOCK_STALE_MS });
  } catch {
    return undefined;
  }
}
