// Age-based pruning: refs older than keep_days go (one update-ref transaction), and now and
// then the unreachable objects with them (git gc, never on a turn's hot path; objects younger
// than an hour are kept, so a checkpoint being written concurrently is never cut short).
import { readFileSync } from "node:fs";
import path from "node:path";
import { readRefs } from "./refs";
import { writeAtomic, type ShadowRepo } from "./shadow-repo";

const MAINTENANCE_FILE = "hermes-maintenance.json";
const GC_INTERVAL_MS = 24 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface PruneResult {
  removed: number;
  kept: number;
  collected: boolean;
}

export async function pruneCheckpoints(repo: ShadowRepo, keepDays: number, now: number): Promise<PruneResult> {
  const cutoff = now - keepDays * DAY_MS;
  const refs = await readRefs(repo.git);
  // A ref without readable metadata is not ours to judge by age: kept.
  const old = refs.filter((entry) => entry.meta !== undefined && entry.meta.time < cutoff);
  if (old.length > 0) {
    const script = old.map((entry) => `delete ${entry.ref} ${entry.commit}\n`).join("");
    await repo.git.run(["update-ref", "--stdin"], { input: script });
  }
  let collected = false;
  if (old.length > 0 && now - lastMaintenance(repo.dir) > GC_INTERVAL_MS) {
    await repo.git.run(["gc", "--quiet", "--prune=1.hour.ago"]);
    writeAtomic(path.join(repo.dir, MAINTENANCE_FILE), `${JSON.stringify({ gcAt: now })}\n`);
    collected = true;
  }
  return { removed: old.length, kept: refs.length - old.length, collected };
}

function lastMaintenance(dir: string): number {
  try {
    const parsed = JSON.parse(readFileSync(path.join(dir, MAINTENANCE_FILE), "utf8")) as { gcAt?: unknown };
    return typeof parsed.gcAt === "number" ? parsed.gcAt : 0;
  } catch {
    // expected: no maintenance file yet (or a damaged one) means "never collected": the next prune runs gc
    return 0;
  }
}
