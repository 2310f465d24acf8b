// What the curator looks at, chosen without a model: user skills unused for a long time (to
// archive), skills that keep failing (to patch, from the recorded outcomes), and pairs of skills
// that cover the same ground (to merge). Only the user's own skills: project skills are the
// team's files and bundled ones ship with Hermes.
import { createHash } from "node:crypto";
import { statSync } from "node:fs";
import type { Skill } from "../skills/library";
import type { SkillUsage } from "../skills/usage-store";
import type { CuratorState } from "./curator-state";

const DAY_MS = 24 * 60 * 60 * 1000;
/** A skill "keeps failing" with at least this many failed turns, and no more successes than failures. */
const MIN_FAILURES = 2;
/** Two skills overlap when this share of their distinctive words is common to both. */
const MIN_OVERLAP = 0.5;
/** Pairs proposed per pass (each one costs the model a read of both skills). */
const MAX_PAIRS = 5;
const MAX_FAILING = 5;

export interface UnusedSkill {
  skill: Skill;
  /** Days since it was last used, or written when it never was. */
  idleDays: number;
}

export interface FailingSkill {
  skill: Skill;
  usage: SkillUsage;
  /** The `seen` key and value that mark it considered. */
  seenKey: string;
  seenValue: number;
}

export interface OverlappingPair {
  a: Skill;
  b: Skill;
  overlap: number;
  seenKey: string;
  seenValue: string;
}

export interface CurationCandidates {
  unused: UnusedSkill[];
  failing: FailingSkill[];
  overlapping: OverlappingPair[];
}

export interface CandidateOptions {
  usage: Record<string, SkillUsage>;
  state: CuratorState;
  /** 0: never archive. */
  archiveAfterDays: number;
  /** Set when the usage file could not be read as a whole: no skill is archived for looking unused. */
  usageProblem?: string;
  /** Skills used in this process whose use could not be written down: never archived as unused. */
  unrecorded?: ReadonlySet<string>;
  now?: number;
}

export function curationCandidates(skills: readonly Skill[], options: CandidateOptions): CurationCandidates {
  const now = options.now ?? Date.now();
  const own = skills.filter((skill) => skill.source === "user" && !skill.unavailable);
  const unused: UnusedSkill[] = [];
  // Counts that could not be read or written are no evidence of disuse: archive nothing on them.
  if (options.archiveAfterDays > 0 && !options.usageProblem) {
    for (const skill of own) {
      if (options.unrecorded?.has(skill.name)) continue;
      const idleDays = Math.floor((now - lastActive(skill, options.usage[skill.name])) / DAY_MS);
      if (idleDays >= options.archiveAfterDays) unused.push({ skill, idleDays });
    }
  }
  const archived = new Set(unused.map((entry) => entry.skill.name));
  const live = own.filter((skill) => !archived.has(skill.name));
  const failing: FailingSkill[] = [];
  for (const skill of live) {
    const usage = options.usage[skill.name];
    const failures = usage?.failures ?? 0;
    const seenKey = `patch:${skill.name}`;
    const seenBefore = Number(options.state.seen[seenKey] ?? 0);
    if (usage && failures >= MIN_FAILURES && failures >= (usage.successes ?? 0) && failures > seenBefore) failing.push({ skill, usage, seenKey, seenValue: failures });
  }
  const overlapping: OverlappingPair[] = [];
  const words = new Map(live.map((skill) => [skill.name, distinctiveWords(skill)]));
  for (let i = 0; i < live.length; i++) {
    for (let j = i + 1; j < live.length; j++) {
      const a = live[i]!;
      const b = live[j]!;
      const overlap = jaccard(words.get(a.name)!, words.get(b.name)!);
      if (overlap < MIN_OVERLAP) continue;
      const seenKey = `merge:${a.name}|${b.name}`;
      const seenValue = createHash("sha1").update(a.text).update("\0").update(b.text).digest("hex").slice(0, 16);
      if (options.state.seen[seenKey] !== seenValue) overlapping.push({ a, b, overlap, seenKey, seenValue });
    }
  }
  overlapping.sort((x, y) => y.overlap - x.overlap);
  failing.sort((x, y) => (y.usage.failures ?? 0) - (x.usage.failures ?? 0));
  return { unused, failing: failing.slice(0, MAX_FAILING), overlapping: overlapping.slice(0, MAX_PAIRS) };
}

/** The later of its last use and its SKILL.md's last write (a skill just written is not idle). */
function lastActive(skill: Skill, usage: SkillUsage | undefined): number {
  const used = usage?.lastUsed ? Date.parse(usage.lastUsed) : 0;
  let written: number;
  try {
    written = statSync(skill.file).mtimeMs;
  } catch {
    // expected: a SKILL.md that cannot be stat'ed (removed meanwhile) has no known age; counted as written now, so never idle
    written = Date.now();
  }
  return Math.max(Number.isFinite(used) ? used : 0, written);
}

const STOP_WORDS = new Set("the and for with use when this that into from your you are how what any all its not but can one two run runs using used make".split(" "));

function distinctiveWords(skill: Skill): Set<string> {
  const text = `${skill.name.replace(/-/g, " ")} ${skill.description} ${skill.tags.join(" ")}`.toLowerCase();
  return new Set((text.match(/[a-z0-9]+/g) ?? []).filter((word) => word.length >= 3 && !STOP_WORDS.has(word)));
}

function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let common = 0;
  for (const word of a) if (b.has(word)) common++;
  return common / (a.size + b.size - common);
}
