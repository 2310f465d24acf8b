// What a session needs once it was opened and the front end has answered: the work the first
// prompt would otherwise wait for (the frozen system prompt, the provider SDK, checkpoints'
// start-up), a reopened session's deferred history, and its context meter. Run after the
// answer, never before it: the front end decides when that is.
import { messagesTokens } from "../providers/token-estimate";
import type { LiveSession } from "../runtime/live-session";
import type { AgentRuntime } from "../runtime/runtime";
import type { Logger } from "../util/log";
import type { OpenedJournal } from "./load-journal";

/** How long after a new session is answered its index warm-up starts. */
const INDEX_WARM_UP_DELAY_MS = 2_000;

/** The context meter of a reopened session: its size, its model's window, its cost here. */
export interface ContextMeter {
  usedTokens: number;
  contextWindow: number;
  costUsd?: number;
}

/**
 * A load from a cached replay answered before restoring the model history: restored now (else
 * the first prompt does it). Then the meter a reopened session starts with: the context its last
 * model call used (this process's measure, else the journal's, else an estimate of the history).
 */
export async function reopened(runtime: AgentRuntime, session: LiveSession, journal: OpenedJournal, log: Logger): Promise<ContextMeter | undefined> {
  try {
    session.agent.restoreConversation();
  } catch (error) {
    log.warn("restoring the session's history failed (the next prompt tries again)", { sessionId: session.id, error });
  }
  if (session.agent.conversationDeferred) return undefined;
  const model = runtime.chainFor(session.agent.modelId)[0];
  if (!model) return undefined;
  // Loaded by the restore already (a process that only opens new sessions never loads it).
  const { journalContextTokens } = await import("./load-journal");
  const usedTokens = session.agent.contextTokens ?? journalContextTokens(journal) ?? messagesTokens(session.agent.history);
  return { usedTokens, contextWindow: model.contextWindow, ...(session.agent.usage.costUsd !== undefined ? { costUsd: session.agent.usage.costUsd } : {}) };
}

/** Gets the first prompt's work out of its way, in the background. */
export function warmUpSession(runtime: AgentRuntime, session: LiveSession, isNew: boolean, log: Logger): void {
  // Finishes a restore a crash interrupted and prunes old checkpoints: after the answer, because
  // opening the store spawns git, and a spawn blocks the thread while it forks.
  runtime.checkpoints.startSession(session.agent.cwd);
  // The prompt names the tools: they load here, after the answer, if the warm-up has not loaded them.
  Promise.all([import("./prompt-turn"), runtime.loadTools()])
    .then(([{ prepareSystemPrompt }]) => prepareSystemPrompt(session.agent))
    .catch((error: unknown) => log.warn("preparing the system prompt failed", { error }));
  runtime.warmUp(session.agent.modelId).catch((error: unknown) => log.warn("loading the provider SDK failed", { error }));
  // A new session's first prompt searches the session index for related work (steps/first-prompt-hint.ts).
  // It opens a little later, not after initialize nor at once: opening it catches up with every
  // journal changed since it was last open, which would share the thread with a session/load
  // that follows at once (an editor restoring its chat) and never needs the index.
  if (isNew && session.agent.history.length === 0 && runtime.loaded.config.learning.session_hint) {
    setTimeout(() => {
      runtime.sessions.recent(1).catch((error: unknown) => log.warn("opening the session index failed", { error }));
    }, INDEX_WARM_UP_DELAY_MS).unref();
  }
}
