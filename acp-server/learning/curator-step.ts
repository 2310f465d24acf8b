// The skills curator, a step of the turn (runtime/turn-step.ts) and a command: `/skills curate` (runs now, in the command's turn)
// and the background pass (at most once per `learning.curator_interval_days` for the whole
// Hermes home, started after a turn once the session is idle and any learning review is done;
// a prompt that arrives stops it, and it is claimed again later). Approvals, announcements and
// undo are the learning review's (learning/review-step.ts).
import type { TurnHost } from "../agent/turn-io";
import { runCuration, type CurationReport } from "./curator";
import { claimCuration, releaseCuration } from "./curator-state";
import { LearningLedger } from "./ledger";
import { LocalFileAccess } from "../tools/local-files";
import type { LiveSession } from "../runtime/live-session";
import { localShellFor } from "../runtime/local-shell";
import { askApproval, learnedAnnouncer, reviewDone, type ReviewDeps } from "./review-step";
import type { SessionOutput } from "../runtime/session-output";
import type { CommandContext } from "../runtime/slash-command";
import type { TurnStep } from "../runtime/turn-step";

/** What a pass needs: the learning review's own deps (the same approvals and announcements). */
export type CuratorDeps = ReviewDeps;

const running = new WeakMap<LiveSession, { controller: AbortController; done: Promise<void> }>();

/** The curator as a step of every turn: its background pass starts after the answer (when due), and stops when a prompt arrives. */
export const curatorStep: TurnStep = {
  name: "skills curator",
  answered: (turn) => afterTurnCurate(turn, turn.session),
  interrupt: interruptCuration,
};

/** `/skills curate`: one pass now; the answer says what it did. */
export async function curateNow(context: CommandContext): Promise<string> {
  const { session, output, signal } = context;
  const report = await curate(context, session, output, signal);
  if (signal.aborted) return `Curation stopped${report.changes ? ` after ${report.changes} change${report.changes === 1 ? "" : "s"} (each announced above, with its undo)` : "; nothing was changed"}.`;
  return describeReport(report, !!context.runtime.auxiliary());
}

/** A prompt arrived: a background pass stops (its claim is given back, so it runs again later). */
export function interruptCuration(session: LiveSession): void {
  running.get(session)?.controller.abort(new Error("a prompt arrived"));
}

/** The background pass of a session, for tests (resolves when it is over). */
export function curationDone(session: LiveSession): Promise<void> | undefined {
  return running.get(session)?.done;
}

/** After a turn: start the background pass when it is due, once the session is idle and its review (if any) is over. */
export function afterTurnCurate(deps: CuratorDeps, session: LiveSession): void {
  const learning = deps.runtime.loaded.config.learning;
  if (learning.curator === "off" || session.agent.depth > 0) return;
  // After afterTurn's review start (queued before this), so a review that started is seen here.
  setImmediate(() => {
    const review = reviewDone(session);
    if (review) void review.then(() => setImmediate(() => startBackgroundPass(deps, session)));
    else startBackgroundPass(deps, session);
  });
}

function startBackgroundPass(deps: CuratorDeps, session: LiveSession): void {
  if (running.has(session) || session.busy || session.isClosed || reviewDone(session)) return;
  const home = deps.runtime.loaded.home;
  if (!claimCuration(home, deps.runtime.loaded.config.learning.curator_interval_days)) {
    deps.log.debug("curator pass not due", { sessionId: session.id });
    return;
  }
  const controller = new AbortController();
  const stopOnClose = session.onClose(() => controller.abort(new Error("session closed")));
  const observer = deps.client.output();
  deps.log.info("curator pass started", { sessionId: session.id });
  const done = curate(deps, session, observer, controller.signal)
    .then((report) => {
      releaseCuration(home, !controller.signal.aborted);
      deps.log.info(controller.signal.aborted ? "curator pass stopped" : "curator pass finished", { sessionId: session.id, ...report.candidates, changes: report.changes, modelCalls: report.review?.modelCalls ?? 0 });
    })
    .catch((error: unknown) => {
      releaseCuration(home, false);
      if (!controller.signal.aborted) deps.log.warn("curator pass failed", { sessionId: session.id, error });
    })
    .then(() => observer.flush())
    .finally(() => {
      stopOnClose();
      running.delete(session);
    });
  running.set(session, { controller, done });
}

async function curate(deps: CuratorDeps, session: LiveSession, observer: SessionOutput, signal: AbortSignal): Promise<CurationReport> {
  const { runtime, log, client } = deps;
  const config = runtime.loaded.config;
  const model = runtime.auxiliary();
  const host: TurnHost = {
    files: new LocalFileAccess(),
    shell: localShellFor(runtime, session),
    history: runtime.sessions,
    askUser: (call, ask, askSignal) => client.askUser(call, ask, askSignal, { timeoutMs: config.approvals.timeout * 1000 }),
  };
  const asks = config.learning.curator === "ask" || config.learning.review === "ask";
  const approve = asks ? askApproval(deps, "skills_curator") : undefined;
  return runCuration({
    parent: session.agent,
    ...(model ? { model } : {}),
    tools: (await runtime.loadTools()).list(),
    home: runtime.loaded.home,
    archiveAfterDays: config.learning.archive_after_days,
    maxCalls: config.learning.curator_max_calls,
    host,
    ...(approve ? { approve } : {}),
    learned: learnedAnnouncer(session, observer, new LearningLedger(runtime.loaded.home), log),
    usage: () => {
      const window = runtime.chainFor(session.agent.modelId)[0]?.contextWindow ?? model?.contextWindow ?? 0;
      observer.contextMeter(session.agent.contextTokens ?? 0, window);
    },
    retryBaseDelayMs: config.agent.retry_base_delay * 1000,
    signal,
    log,
  });
}

function describeReport(report: CurationReport, hasModel: boolean): string {
  const { unused, failing, overlapping } = report.candidates;
  if (unused + failing + overlapping === 0) {
    return "Nothing to curate: no user skill is unused long enough to archive (`learning.archive_after_days`), keeps failing, or overlaps another.";
  }
  const lines = ["**Skills curated**"];
  if (report.archived.length) lines.push(`- Archived (unused): ${report.archived.map((name) => `\`${name}\``).join(", ")}. \`/skills restore NAME\` brings one back.`);
  if (report.kept.length) lines.push(`- Kept at your request: ${report.kept.map((name) => `\`${name}\``).join(", ")}.`);
  if (failing + overlapping > 0) {
    const looked = `${failing} failing skill${failing === 1 ? "" : "s"}, ${overlapping} overlapping pair${overlapping === 1 ? "" : "s"}`;
    if (!hasModel) lines.push(`- ${looked}: no model is configured to review them.`);
    else if (report.review) lines.push(`- Reviewed ${looked}: ${report.review.summary || "(no answer)"}`);
  }
  lines.push(report.changes ? `${report.changes} change${report.changes === 1 ? "" : "s"} in all, each announced above with its undo (\`/learned\`).` : "Nothing was changed.");
  return lines.join("\n");
}
