// When the curator last ran, remembered in $HERMES_HOME/learning/curator.json so the weekly
// pass runs once a week for the whole home, not once per process or per window. A process
// claims a pass under a lock (writing when it started), so two editors never curate at once; a
// claim that never finished (the process stopped, a prompt interrupted it) is given up and
// can be claimed again. The file also remembers what the curator already looked at, so a
// skill it chose to leave is not proposed again until its outcomes change.
import fs from "node:fs";
import path from "node:path";
import * as z from "zod";
import { writeFileAtomicSync } from "../util/atomic-write";
import { withFileLock } from "../util/file-lock";
import { createLogger } from "../util/log";

const log = createLogger("learning");

const StateSchema = z.looseObject({
  lastRun: z.string().optional(),
  /** A pass that started and has not finished (ISO), with the claiming process. */
  startedAt: z.string().optional(),
  startedBy: z.number().optional(),
  /** What was already considered: "patch:<name>" → its failure count then; "merge:<a>|<b>" → a hash of both texts. */
  seen: z.record(z.string(), z.union([z.string(), z.number()])).default({}),
});

export type CuratorState = z.infer<typeof StateSchema>;

/** A claim older than this was abandoned (a pass takes minutes at most). */
const CLAIM_EXPIRES_MS = 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

export function curatorStateFile(home: string): string {
  return path.join(home, "learning", "curator.json");
}

export function readCuratorState(home: string): CuratorState {
  const file = curatorStateFile(home);
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") log.warn("curator state unreadable; starting afresh", { file, error });
    return { seen: {} };
  }
  try {
    const parsed = StateSchema.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data;
    log.warn("curator state has an unknown shape; starting afresh", { file, problem: parsed.error.issues[0]?.message });
  } catch (error) {
    log.warn("curator state is not valid JSON; starting afresh", { file, error });
  }
  return { seen: {} };
}

/** Changes the state under its lock (read, change, atomic write). */
export function updateCuratorState(home: string, change: (state: CuratorState) => void): CuratorState {
  const file = curatorStateFile(home);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  return withFileLock(`${file}.lock`, () => {
    const state = readCuratorState(home);
    change(state);
    writeFileAtomicSync(file, `${JSON.stringify(state, null, 1)}\n`);
    return state;
  });
}

/** Whether a weekly pass is due: none finished within `intervalDays`, and none is under way. */
export function curationDue(state: CuratorState, intervalDays: number, now = Date.now()): boolean {
  if (state.lastRun && now - Date.parse(state.lastRun) < intervalDays * DAY_MS) return false;
  return !(state.startedAt && now - Date.parse(state.startedAt) < CLAIM_EXPIRES_MS);
}

/** Claims the weekly pass for this process when it is due; false when it is not (or another process has it). */
export function claimCuration(home: string, intervalDays: number): boolean {
  let claimed = false;
  try {
    updateCuratorState(home, (state) => {
      if (!curationDue(state, intervalDays)) return;
      state.startedAt = new Date().toISOString();
      state.startedBy = process.pid;
      claimed = true;
    });
  } catch (error) {
    log.warn("could not claim the curator pass", { error });
    return false;
  }
  return claimed;
}

/** Ends a pass: `finished` records it as the last run; otherwise the claim is given back (it runs again later). */
export function releaseCuration(home: string, finished: boolean): void {
  try {
    updateCuratorState(home, (state) => {
      if (finished) state.lastRun = new Date().toISOString();
      delete state.startedAt;
      delete state.startedBy;
    });
  } catch (error) {
    log.warn("could not record the curator pass", { error });
  }
}
