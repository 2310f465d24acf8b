// What every streaming provider needs around its SDK call: one AbortController joining the
// caller's cancel and an idle watchdog (a stream that stops sending bytes is abandoned and
// reported as `stalled`, so it can be retried), and the normalized AbortError.
import { ProviderError } from "./types";

export class StreamGuard {
  private readonly controller = new AbortController();
  private idleTimer?: NodeJS.Timeout;
  private stalled = false;
  /** The consumer is handling an event: time does not count until the next arm(). */
  private paused = false;
  private armedAt = 0;
  private readonly onCancel = () => this.controller.abort();
  private readonly onIdle = () => {
    this.idleTimer = undefined;
    if (this.paused) return; // arm() starts a new count
    const left = this.armedAt + (this.idleMs ?? 0) - Date.now();
    if (left > 0) {
      this.idleTimer = setTimeout(this.onIdle, left);
      return;
    }
    this.stalled = true;
    this.controller.abort();
  };

  constructor(
    private readonly cancel: AbortSignal,
    private readonly idleMs: number | undefined,
    private readonly describe: string,
  ) {
    if (cancel.aborted) throw abortError();
    cancel.addEventListener("abort", this.onCancel, { once: true });
  }

  /** Pass to the SDK request: aborted on cancel and on stall. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /**
   * (Re)starts the idle watchdog; call after every chunk. A chunk only notes the time: the one
   * pending timer, when it fires, waits out what is left of the count (a stream of hundreds of
   * chunks would otherwise make and drop a timer for each).
   */
  arm(): void {
    if (!this.idleMs) return;
    this.paused = false;
    this.armedAt = Date.now();
    this.idleTimer ??= setTimeout(this.onIdle, this.idleMs);
  }

  /** Stops the watchdog while the consumer handles an event (a slow consumer is not a stall). */
  pause(): void {
    this.paused = true;
  }

  /** Waits for `work` but gives up at once on cancel or stall (SDK retry sleeps ignore signals). */
  race<T>(work: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const signal = this.controller.signal;
      const onAbort = () => reject(this.abortReason());
      if (signal.aborted) return onAbort();
      signal.addEventListener("abort", onAbort, { once: true });
      work.then(
        (value) => (signal.removeEventListener("abort", onAbort), resolve(value)),
        (error: unknown) => (signal.removeEventListener("abort", onAbort), reject(error)),
      );
    });
  }

  /** Throws if the stream ended because of cancel or stall (SDKs end such streams quietly). */
  check(): void {
    if (this.controller.signal.aborted) throw this.abortReason();
  }

  /** Maps an error thrown inside the guarded section: cancel and stall win over the SDK's view. */
  translate(error: unknown, map: (error: unknown) => ProviderError): Error {
    if (this.cancel.aborted) return abortError();
    if (this.stalled) return this.stallError();
    return map(error);
  }

  /** Always call in `finally`. `complete` says the response was read to its end. */
  dispose(complete: boolean): void {
    clearTimeout(this.idleTimer);
    this.cancel.removeEventListener("abort", this.onCancel);
    // Drops the HTTP request when the consumer stopped early or something failed.
    if (!complete && !this.controller.signal.aborted) this.controller.abort();
  }

  private abortReason(): Error {
    return this.cancel.aborted ? abortError() : this.stallError();
  }

  private stallError(): ProviderError {
    return new ProviderError(`${this.describe}: no data for ${(this.idleMs ?? 0) / 1000}s; the stream stalled`, { kind: "stalled" });
  }
}

export function abortError(): Error {
  const error = new Error("The model request was cancelled");
  error.name = "AbortError";
  return error;
}

export function isAbortError(error: unknown): boolean {
  return (error as Error | undefined)?.name === "AbortError";
}
