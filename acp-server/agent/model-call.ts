// One model call that survives failures: retryable errors (429, 5xx, network, stalled or
// truncated streams) are retried with exponential backoff (a server's retry-after wins);
// when a model keeps failing, or refuses the key, the next fallback model is tried. Every
// retry and every switch is told to the user; nothing happens silently.
import { isAbortError } from "../providers/stream-guard";
import { ProviderError, type ModelRequest } from "../providers/types";
import { AgentError } from "../util/agent-error";
import type { Logger } from "../util/log";
import type { ModelChoice } from "./model-choice";
import { ReplyCollector } from "./reply-collector";
import type { TurnObserver } from "./turn-io";

export type CallResult =
  | { kind: "done"; reply: ReplyCollector; model: ModelChoice }
  | { kind: "cancelled"; reply: ReplyCollector };

/** Every model was tried and none answered; `attempts` says what happened to each. */
export class ModelsExhaustedError extends AgentError<"provider"> {
  constructor(
    readonly last: ProviderError,
    readonly attempts: string[],
  ) {
    super("provider", attempts.length > 1 ? `${last.message} (after: ${attempts.slice(0, -1).join("; ")})` : last.message, { kind: last.kind, status: last.status });
    this.name = "ModelsExhaustedError";
  }
}

export interface CallOptions {
  models: ModelChoice[];
  observer: TurnObserver;
  signal: AbortSignal;
  /** First retry delay; doubles each retry, capped at 30 s. */
  retryBaseDelayMs: number;
  log: Logger;
  /** The request as a model without vision gets it (images as text: image-descriptions.ts); absent: the same. */
  textOnly?: ModelRequest;
}

const MAX_DELAY_MS = 30_000;

export async function callWithRecovery(request: ModelRequest, options: CallOptions): Promise<CallResult> {
  const { models, observer, signal, log } = options;
  const attempts: string[] = [];
  let last: ProviderError | undefined;

  for (const [index, model] of models.entries()) {
    if (index > 0) observer.notice(`Switching to ${model.id} after ${models[index - 1]?.id ?? "the previous model"} failed: ${last?.message ?? "unknown error"}`);
    for (let attempt = 0; ; attempt++) {
      const reply = new ReplyCollector(observer);
      try {
        try {
          const sent = model.vision ? request : (options.textOnly ?? request);
          for await (const event of model.provider.stream(sent, signal)) reply.add(event);
        } finally {
          reply.end(); // show what the redactor held back, before any notice about a failure
        }
        if (signal.aborted) return { kind: "cancelled", reply };
        return { kind: "done", reply, model };
      } catch (error) {
        if (signal.aborted || isAbortError(error)) return { kind: "cancelled", reply };
        if (!(error instanceof ProviderError)) throw error;
        // Compression handles an overflowing context; another model would overflow too.
        if (error.kind === "context_overflow") throw error;
        last = error;
        log.warn("model call failed", { model: model.id, kind: error.kind, status: error.status, attempt, message: error.message });
        if (!error.retryable || attempt >= model.maxRetries) {
          attempts.push(`${model.id}: ${error.message}`);
          break;
        }
        const delay = retryDelay(error, attempt, options.retryBaseDelayMs);
        const shown = reply.text || reply.reasoning ? " (the partial reply above is discarded)" : "";
        observer.notice(`${model.id}: ${error.message}. Retrying in ${formatDelay(delay)} (${attempt + 1}/${model.maxRetries})${shown}.`);
        if (!(await sleep(delay, signal))) return { kind: "cancelled", reply: new ReplyCollector(observer) };
      }
    }
  }
  throw new ModelsExhaustedError(last ?? new ProviderError("no model to call", { kind: "other" }), attempts);
}

/** Exponential backoff with a little jitter, or the server's retry-after when it gave one. */
export function retryDelay(error: ProviderError, attempt: number, baseMs: number): number {
  if (error.retryAfterMs !== undefined) return Math.min(error.retryAfterMs, MAX_DELAY_MS * 2);
  const exponential = Math.min(baseMs * 2 ** attempt, MAX_DELAY_MS);
  return Math.round(exponential * (0.8 + Math.random() * 0.4));
}

function formatDelay(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}

/** Resolves true after `ms`, or false at once when the turn is cancelled. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
