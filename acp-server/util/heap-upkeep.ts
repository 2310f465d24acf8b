// Keeps a long-running agent's memory flat. V8 sizes its heap for throughput, and over a long
// session (measured: 200 short turns) that costs resident memory that never comes back:
// - the young generation doubles from 8 to 16 and then 32 MB once a turn's objects survive a
//   few collections (24 MB more resident, for nothing a chat session needs: at 8 MB, bench/rss.ts
//   measured 9-10 MB less after 200 turns than at 16 MB, for the same CPU per turn, and neither
//   the loop's CPU per iteration nor a 10k-message session/load's changed);
// - garbage promoted to the old generation (request bodies alive across a model call, a
//   turn's messages) waits for a full collection, and a small heap's first limit is far away:
//   none ran in 200 turns, and the old generation kept growing by 3 to 9 MB per 100 turns.
// So: the young generation stops growing at YOUNG_MAX_BYTES, and a full collection runs, at
// most every MIN_INTERVAL_MS, once the old generation holds OLD_GROWTH_BYTES more than after
// the last one. Both are V8 flags set after start-up (command-line flags would have to be on
// every editor's command line): V8 clamps a command-line growth factor below 2, but reads the
// flag each time it grows the young generation; `gc` comes from --expose-gc in a fresh context.
// Where V8 ignores either (another engine version), nothing changes: memory is only tuned.
import { PerformanceObserver } from "node:perf_hooks";
import v8 from "node:v8";
import { runInNewContext } from "node:vm";
import type { Logger } from "./log";

/** The young generation's size (both semi-spaces) at which it stops growing (V8 doubles it: 2, 4, 8). */
const YOUNG_MAX_BYTES = 8 * 1024 * 1024;
/** Old-generation growth (old space + large objects) since the last full collection that calls for one. */
const OLD_GROWTH_BYTES = 1024 * 1024;
/** Full collections this far apart at least, whatever the growth (one costs ~10-20 ms). */
const MIN_INTERVAL_MS = 2_000;
/**
 * How long after the growth was seen: not in the middle of the work that made it (a
 * session/load allocates its journal's records, then replays them over several event-loop turns).
 */
const DELAY_MS = 1_000;

const OLD_SPACES = new Set(["old_space", "large_object_space", "code_space"]);

export interface HeapUpkeep {
  stop(): void;
}

/** Starts watching the heap (after every collection V8 reports); idempotent per process. */
export function startHeapUpkeep(log: Logger): HeapUpkeep {
  let youngCapped = false;
  let gc: (() => void) | undefined;
  let baseline = oldGenerationBytes();
  let lastFull = 0;
  let scheduled: NodeJS.Timeout | undefined;

  const fullCollection = () => {
    scheduled = undefined;
    try {
      gc ??= exposedGc();
      gc();
    } catch (error) {
      log.debug("full heap collection unavailable", { error });
      observer.disconnect();
      return;
    }
    lastFull = Date.now();
    baseline = oldGenerationBytes();
  };

  const observer = new PerformanceObserver(() => {
    if (!youngCapped && youngGenerationBytes() >= YOUNG_MAX_BYTES) {
      youngCapped = true;
      v8.setFlagsFromString("--semi-space-growth-factor=1");
    }
    if (scheduled || oldGenerationBytes() - baseline < OLD_GROWTH_BYTES) return;
    scheduled = setTimeout(fullCollection, Math.max(DELAY_MS, lastFull + MIN_INTERVAL_MS - Date.now()));
    scheduled.unref();
  });
  observer.observe({ entryTypes: ["gc"] });
  return {
    stop() {
      observer.disconnect();
      if (scheduled) clearTimeout(scheduled);
    },
  };
}

let sharedGc: (() => void) | undefined;

/**
 * A full collection on the next turn of the event loop, for code that just let go of a lot of
 * memory held outside the JS heap (a closed session index's in-memory database): V8 finds such
 * buffers dead only in a collection, and an idle process may not run one for a long time.
 * Nothing happens where `gc` cannot be exposed.
 */
export function collectSoon(): void {
  setImmediate(() => {
    try {
      sharedGc ??= exposedGc();
      sharedGc();
    } catch {
      // expected: gc is not exposed in this runtime; memory is only tuned
    }
  }).unref();
}

function exposedGc(): () => void {
  v8.setFlagsFromString("--expose-gc");
  const gc: unknown = runInNewContext("gc");
  if (typeof gc !== "function") throw new Error("gc is not exposed");
  return gc as () => void;
}

function youngGenerationBytes(): number {
  return v8.getHeapSpaceStatistics().find((space) => space.space_name === "new_space")?.space_size ?? 0;
}

function oldGenerationBytes(): number {
  let used = 0;
  for (const space of v8.getHeapSpaceStatistics()) if (OLD_SPACES.has(space.space_name)) used += space.space_used_size;
  return used;
}
