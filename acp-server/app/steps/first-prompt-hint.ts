// A new session's first prompt: related earlier sessions of its workspace (session-hint.ts), as
// a note for the first model call. Searched while the turn gets ready (journaling the prompt, the
// system prompt, the tools); the loop awaits it only before that call.
//
// Only once the session index is open or opening: opening it (sql.js, state.db, the catch-up with
// every journal changed since) is work on this thread that would hold up the model call, hundreds
// of ms on a busy machine. It opens 2 s after a new session is answered; a first prompt sooner
// than that goes without the note, and the index opens after its turn.
import type { LiveSession } from "../../runtime/live-session";
import type { TurnStep } from "../../runtime/turn-step";

/** Sessions whose first prompt found the index closed: it opens once their turn has ended. */
const indexWasClosed = new WeakSet<LiveSession>();

export const firstPromptHintStep: TurnStep = {
  name: "related sessions hint",
  before({ session, runtime, promptText, log }) {
    const agent = session.agent;
    if (!runtime.loaded.config.learning.session_hint || agent.depth > 0 || agent.promptCount > 0 || agent.history.length > 0) return;
    const store = runtime.sessions;
    if (store.indexState === "closed") {
      indexWasClosed.add(session);
      return;
    }
    const contextNote = import("./session-hint")
      .then(({ relatedSessionsHint }) => relatedSessionsHint(store, { id: session.id, cwd: agent.cwd }, promptText, log))
      .catch((error: unknown) => {
        log.warn("related sessions hint failed", { sessionId: session.id, error });
        return undefined;
      });
    return { contextNote };
  },
  ended({ session, runtime, log }) {
    if (!indexWasClosed.delete(session)) return;
    // Opened now, in the background (as the warm-up after session/new does).
    runtime.sessions.recent(1).catch((error: unknown) => log.warn("opening the session index failed", { error }));
  },
};
