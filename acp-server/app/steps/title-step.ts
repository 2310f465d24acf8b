// A session without a title gets its first prompt's first line at the end of its first turn, and
// a model-written title a moment later when the auxiliary model is up to it
// (`sessions.auto_title`). A title the user set is never replaced.
import type { TurnStep } from "../../runtime/turn-step";
import { firstLineTitle, generateTitle } from "./titles";

/** How long the auxiliary model may take to name a session. */
const TITLE_TIMEOUT_MS = 20_000;

export const titleStep: TurnStep = {
  name: "session title",
  ended({ session, runtime, output, parts, log }) {
    if (session.agent.title) return;
    const first = firstLineTitle(parts);
    if (first) output.setTitle(first, "first_line");
    const auxiliary = runtime.loaded.config.sessions.auto_title ? runtime.auxiliary() : undefined;
    if (!auxiliary) return;
    generateTitle(auxiliary, session.agent.history, AbortSignal.timeout(TITLE_TIMEOUT_MS))
      .then(async (title) => {
        if (!title || session.agent.titleSource === "user") return;
        output.setTitle(title, "auto");
        await output.flush();
      })
      .catch((error: unknown) => log.warn("title generation failed", { sessionId: session.id, error }));
  },
};
