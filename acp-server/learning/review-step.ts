// The learning review as a step of the turn (runtime/turn-step.ts): when it runs, how it is
// stopped, and how what it learned reaches the user. At most one review per session at a time, started after the turn's
// answer was sent, never in a prompt's way: a prompt that arrives stops it, and a review that
// had not changed anything yet runs again after that prompt's turn (merged with it). Every
// change is saved with its undo (learning/ledger.ts), journaled, and announced as an agent
// message with `_meta["hermes/learned"]`, so any client shows it and ours draws a card.
import type { TurnHost, ToolCallView } from "../agent/turn-io";
import { UserRejection } from "../agent/turn-io";
import { LearningLedger, noteOf, type LearnedChange } from "./ledger";
import { runReview } from "./review";
import { reviewReason, turnDigest } from "./turn-digest";
import type { DisplayContent } from "../tools/context";
import { LocalFileAccess } from "../tools/local-files";
import type { Logger } from "../util/log";
import type { ClientChannel } from "../runtime/client-channel";
import type { LiveSession } from "../runtime/live-session";
import type { AgentRuntime } from "../runtime/runtime";
import { localShellFor } from "../runtime/local-shell";
import type { SessionOutput } from "../runtime/session-output";
import type { EndedTurn, TurnStep } from "../runtime/turn-step";

interface ReviewState {
  running?: { controller: AbortController; digest: string; changes: number; done: Promise<void> };
  /** Digests of turns whose review has not run (or was stopped before it changed anything). */
  pending: string[];
}

const states = new WeakMap<LiveSession, ReviewState>();

function stateOf(session: LiveSession): ReviewState {
  let state = states.get(session);
  if (!state) {
    state = { pending: [] };
    states.set(session, state);
    const current = state;
    session.onClose(() => {
      current.pending = [];
      current.running?.controller.abort(new Error("session closed"));
    });
  }
  return state;
}

/** A prompt arrived: a running review stops at once (its digest waits for the next turn unless it already changed something). */
export function interruptReview(session: LiveSession): void {
  const state = states.get(session);
  const running = state?.running;
  if (!state || !running) return;
  running.controller.abort(new Error("a prompt arrived"));
  if (running.changes === 0) state.pending.unshift(running.digest);
  state.running = undefined;
}

/** The running review of a session, for tests and `/learned` (resolves when it is over). */
export function reviewDone(session: LiveSession): Promise<void> | undefined {
  return states.get(session)?.running?.done;
}

export interface ReviewDeps {
  runtime: AgentRuntime;
  client: ClientChannel;
  log: Logger;
}

/** The review as a step of every turn: it starts once the answer is out, and stops when a prompt arrives. */
export const learningReviewStep: TurnStep = {
  name: "learning review",
  answered: (turn) => afterTurn(turn, turn.session, turn),
  interrupt: interruptReview,
};

/** After a turn: queue its digest when it did significant work, then start a review once the session is idle. */
export function afterTurn(deps: ReviewDeps, session: LiveSession, turn: Pick<EndedTurn, "messages" | "promptText" | "stopReason">): void {
  const learning = deps.runtime.loaded.config.learning;
  const activity = session.agent.turnActivity;
  if (learning.review === "off" || session.agent.depth > 0 || !activity) return;
  const state = stateOf(session);
  const triggers = { toolCalls: learning.review_tool_calls, onRecovery: learning.review_on_recovery, onCorrection: learning.review_on_correction };
  const reason = turn.stopReason === "end_turn" || turn.stopReason === "max_turn_requests" ? reviewReason(activity, turn.promptText, triggers) : undefined;
  if (!reason && state.pending.length === 0) return;
  const cwd = session.agent.cwd;
  // After the prompt's answer has gone out (stdout writes leave in the setImmediate after they
  // are made: transport/stdout-writer.ts, so the second one comes after it); a prompt already waiting
  // goes first. The digest is made there too: it threat-scans every step of the turn (tens of
  // ms for a long one), work the answer must not wait for. Callbacks run in the order they were
  // set, so digests keep the turns' order.
  setImmediate(() =>
    setImmediate(() => {
      if (reason) state.pending.push(turnDigest({ cwd, messages: turn.messages, reason, stopReason: turn.stopReason }));
      startReview(deps, session, state);
    }),
  );
}

function startReview(deps: ReviewDeps, session: LiveSession, state: ReviewState): void {
  if (state.running || session.busy || session.isClosed || state.pending.length === 0) return;
  const model = deps.runtime.auxiliary();
  if (!model) return;
  const digest = state.pending.splice(0).join("\n\n---\n\n# The turn after it\n\n");
  const controller = new AbortController();
  const running = { controller, digest, changes: 0, done: Promise.resolve() };
  state.running = running;
  const { runtime, log, client } = deps;
  const config = runtime.loaded.config;
  const observer = client.output();
  const ledger = new LearningLedger(runtime.loaded.home);
  const host: TurnHost = {
    files: new LocalFileAccess(),
    shell: localShellFor(runtime, session),
    history: runtime.sessions,
    // The review's read-only tools may ask (a file outside the workspace): the user decides, as in a turn.
    askUser: (call, ask, signal) => client.askUser(call, ask, signal, { timeoutMs: config.approvals.timeout * 1000 }),
  };
  const announce = learnedAnnouncer(session, observer, ledger, log);
  const learned = (change: LearnedChange) => {
    running.changes++;
    announce(change);
  };
  const approve = config.learning.review === "ask" ? askApproval(deps) : undefined;
  log.info("learning review started", { sessionId: session.id });
  running.done = runReview({
    parent: session.agent,
    digest,
    model,
    tools: runtime.tools.list(),
    home: runtime.loaded.home,
    maxCalls: config.learning.review_max_calls,
    host,
    ...(approve ? { approve } : {}),
    learned,
    usage: () => {
      const window = runtime.chainFor(session.agent.modelId)[0]?.contextWindow ?? model.contextWindow;
      observer.contextMeter(session.agent.contextTokens ?? 0, window);
    },
    retryBaseDelayMs: config.agent.retry_base_delay * 1000,
    signal: controller.signal,
    log,
  })
    .then((outcome) => log.info(controller.signal.aborted ? "learning review stopped" : "learning review finished", { sessionId: session.id, stopReason: outcome.stopReason, changes: running.changes, modelCalls: outcome.modelCalls, summary: outcome.summary.slice(0, 200) }))
    .catch((error: unknown) => {
      if (!controller.signal.aborted) log.warn("learning review failed", { sessionId: session.id, error });
    })
    .then(() => observer.flush())
    .finally(() => {
      if (state.running === running) state.running = undefined;
      // Turns that finished while this one ran are reviewed next.
      if (!controller.signal.aborted && state.pending.length) setImmediate(() => startReview(deps, session, state));
    });
}

/** A change was written: saved with its undo, journaled, and announced as "Learned: …" (the review's and the curator's). */
export function learnedAnnouncer(session: LiveSession, observer: SessionOutput, ledger: LearningLedger, log: Logger): (change: LearnedChange) => void {
  return (change) => {
    ledger.save(change);
    const note = noteOf(change);
    session.agent.recordLearned(note);
    observer.learned(note);
    log.info("learned", { sessionId: session.id, id: change.id, kind: change.kind, what: change.what });
  };
}

/** `learning.review: ask` (and the curator's ask): each change is a permission request showing its diff; only "allow" applies it. */
export function askApproval(deps: ReviewDeps, asker = "learning_review") {
  let counter = 0;
  return async (title: string, diffs: DisplayContent[], signal: AbortSignal): Promise<boolean> => {
    const id = `learn-${Date.now().toString(36)}-${++counter}`;
    const paths = diffs.flatMap((diff) => (diff.type === "diff" ? [diff.path] : []));
    const call: ToolCallView = { id, requestId: id, name: asker, title, kind: "edit", locations: paths.map((path) => ({ path })), rawInput: { proposed: title } };
    try {
      const answer = await deps.client.askUser(call, { action: "edit", title, paths, content: diffs, askEachTime: true }, signal, {
        timeoutMs: deps.runtime.loaded.config.approvals.timeout * 1000,
      });
      return answer === "allow_once" || answer === "allow_session" || answer === "allow_always";
    } catch (error) {
      if (error instanceof UserRejection) return false;
      throw error;
    }
  };
}
