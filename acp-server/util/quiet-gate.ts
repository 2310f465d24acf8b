// Work that may wait for a quiet moment: background warm-up yields to the requests a user is
// waiting on. `run` marks a request in flight; `quiet()` resolves once none is.

export interface QuietGate {
  /** Runs `work` as a request in flight. */
  run<T>(work: () => Promise<T>): Promise<T>;
  /** Resolves at once when nothing is in flight, else when the last request in flight ends. */
  quiet(): Promise<void>;
}

export function quietGate(): QuietGate {
  let inFlight = 0;
  const waiters: (() => void)[] = [];
  return {
    async run(work) {
      inFlight++;
      try {
        return await work();
      } finally {
        if (--inFlight === 0) for (const wake of waiters.splice(0)) wake();
      }
    },
    quiet() {
      return inFlight === 0 ? Promise.resolve() : new Promise((resolve) => waiters.push(resolve));
    },
  };
}
