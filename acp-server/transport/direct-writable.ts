// The stream the ACP SDK sends its messages through, with a writer that calls the sink directly.
//
// The SDK takes a writer for every message it sends (getWriter, write, releaseLock). A standard
// WritableStream sets up the writer's ready and closed promises on each getWriter, rejects both
// with a fresh TypeError (stack trace and all) on each releaseLock, and takes each write through
// its queue's promises: with 4-5 messages per tool iteration that was a visible share of the
// agent loop's CPU. This stream hands out one writer, over and over, whose write calls the sink
// at once. A standard stream calls its sink at once too when no write is in flight, which is
// always the case here (the SDK awaits each write before it starts the next), so the bytes and
// their order are unchanged and a write still resolves only when the sink has taken the message
// (after "drain" when the pipe pushes back). As in a standard stream, a failed write fails every
// write after it with the same error, and nothing is written after close or abort. The stream's
// own methods (a pipeTo into it) go through the same writer, so there is one state.

type Sink<M> = (message: M) => Promise<void>;

type State = { kind: "writable" } | { kind: "closed" } | { kind: "errored"; error: unknown };

class DirectWriter<M> implements WritableStreamDefaultWriter<M> {
  #state: State = { kind: "writable" };
  readonly #sink: Sink<M>;
  readonly closed: Promise<undefined>;
  #settleClosed!: (error?: unknown) => void;
  readonly ready: Promise<undefined> = Promise.resolve(undefined);

  constructor(sink: Sink<M>) {
    this.#sink = sink;
    this.closed = new Promise<undefined>((resolve, reject) => {
      this.#settleClosed = (error) => (error === undefined ? resolve(undefined) : reject(error instanceof Error ? error : new Error("the ACP output stream failed", { cause: error })));
    });
    this.closed.catch(() => {}); // expected: an error is reported to the writes; nobody has to watch this promise
  }

  get desiredSize(): number | null {
    return this.#state.kind === "writable" ? 1 : this.#state.kind === "closed" ? 0 : null;
  }

  write(message: M): Promise<void> {
    if (this.#state.kind === "errored") return Promise.reject(this.#state.error);
    if (this.#state.kind === "closed") return Promise.reject(new TypeError("the ACP output stream is closed"));
    let written: Promise<void>;
    try {
      written = this.#sink(message);
    } catch (error) {
      this.#fail(error);
      return Promise.reject(error);
    }
    return written.catch((error: unknown) => {
      this.#fail(error);
      throw error;
    });
  }

  close(): Promise<void> {
    if (this.#state.kind === "errored") return Promise.reject(this.#state.error);
    if (this.#state.kind === "closed") return Promise.reject(new TypeError("the ACP output stream is already closed"));
    this.#state = { kind: "closed" };
    this.#settleClosed();
    return Promise.resolve();
  }

  abort(reason?: unknown): Promise<void> {
    if (this.#state.kind === "writable") this.#fail(reason);
    return Promise.resolve();
  }

  /** One writer serves every caller, so there is no lock to give back. */
  releaseLock(): void {}

  #fail(error: unknown): void {
    if (this.#state.kind !== "writable") return;
    this.#state = { kind: "errored", error };
    this.#settleClosed(error ?? new Error("the ACP output stream was aborted"));
  }
}

/**
 * The SDK's output stream over `sink`. The class is defined on the first call, not at import:
 * `extends WritableStream` reads Node's lazy WritableStream global, which loads the web streams
 * (about 1.5 ms), and the lean entry (main.ts) imports this module before it answers initialize.
 */
export function directWritable<M>(sink: Sink<M>): WritableStream<M> {
  DirectWritable ??= defineDirectWritable();
  return new DirectWritable<M>(sink);
}

let DirectWritable: ReturnType<typeof defineDirectWritable> | undefined;

function defineDirectWritable() {
  return class DirectWritable<M> extends WritableStream<M> {
    readonly #writer: DirectWriter<M>;

    constructor(sink: Sink<M>) {
      const writer = new DirectWriter(sink);
      super({ write: (message) => writer.write(message), close: () => writer.close(), abort: (reason) => writer.abort(reason) });
      this.#writer = writer;
    }

    override getWriter(): WritableStreamDefaultWriter<M> {
      return this.#writer;
    }
  };
}
