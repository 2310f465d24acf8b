// Keeps the replay cache (sessions/replay-snapshot.ts) of the sessions this process runs
// current, so the first session/load in the next process (the editor reopened) is served from
// it instead of building the replay of the whole journal. Only a load used to write the cache,
// and a chat the user worked in here was never loaded here.
//
// After a turn ends, once the session has been idle for REFRESH_IDLE_MS: the replay a load
// would send is built into nothing (replay-send.ts, refreshReplayCache: from the cache, only
// the records after it) and cached as a load would cache it. Never during a turn (no work
// between a tool result and the next model request), and only when the journal grew enough
// since the last refresh for a new cache to be written (SNAPSHOT_MIN_BYTES / 2): bounded work,
// once in a while. A failure only costs the next load its shortcut.
import type { Logger } from "../util/log";
import type { SessionStore } from "../sessions/session-store";
import type { AcpSession } from "./acp-session";
import { SNAPSHOT_MIN_BYTES } from "./load-journal";

/** Idle this long after a turn before the cache is brought up to date (a follow-up prompt usually comes sooner). */
export const REFRESH_IDLE_MS = 1_500;

interface RefreshState {
  timer?: NodeJS.Timeout;
  running?: Promise<void>;
  /** The journal's size when the cache was last brought up to date here. */
  refreshedAt?: number;
}

const states = new WeakMap<AcpSession, RefreshState>();

/** Called at the end of each turn of a top-level session: schedules the refresh (debounced). */
export function refreshReplayCacheWhenIdle(session: AcpSession, store: SessionStore, log: Logger, idleMs = REFRESH_IDLE_MS): void {
  if (session.agent.depth > 0) return; // a child agent's session is not one an editor reopens
  let state = states.get(session);
  if (!state) states.set(session, (state = {}));
  const current = state;
  if (current.timer) current.timer.refresh();
  else {
    current.timer = setTimeout(() => {
      current.timer = undefined;
      if (session.busy || session.isClosed || current.running || !store.owns(session.id)) return; // the next turn's end tries again
      current.running = refresh(session.id, store, current, log).finally(() => (current.running = undefined));
    }, idleMs);
    current.timer.unref(); // an exit does not wait: the next load builds the replay, as before
  }
}

async function refresh(sessionId: string, store: SessionStore, state: RefreshState, log: Logger): Promise<void> {
  try {
    const size = await store.journalSize(sessionId);
    if (size === undefined || size < SNAPSHOT_MIN_BYTES) return;
    if (state.refreshedAt !== undefined && size - state.refreshedAt < SNAPSHOT_MIN_BYTES / 2) return;
    const { refreshReplayCache } = await import("./replay-send");
    const started = performance.now();
    const refreshedAt = await refreshReplayCache(store, sessionId);
    if (refreshedAt !== undefined) state.refreshedAt = refreshedAt;
    log.debug("replay cache refreshed", { sessionId, journalBytes: refreshedAt, ms: Math.round(performance.now() - started) });
  } catch (error) {
    log.warn("could not refresh the session's replay cache", { sessionId, error });
  }
}
